import MapGeometry

/// Clipping polygons and polylines to an axis-aligned rectangle (a tile's square, the canvas), pure.
///
/// Rings are clipped by Sutherland–Hodgman, one side at a time. The result may run along the
/// rectangle's sides (zero-area spurs where the ring left and re-entered), which is what makes it
/// exact for area accumulation: inside the rectangle the clipped ring winds around every point as
/// often as the original, outside it winds around none. So the pieces of one ring clipped to
/// rectangles that tile the plane partition it, and added to one `AreaAccumulator` they give the
/// whole ring; the spurs along a shared side cancel between the two pieces.
public enum RectangleClip {
    /// The part of a closed ring inside `rect` (see the type's notes), empty when fewer than three
    /// points remain. A ring entirely inside is returned as it is.
    public static func clip(ring: [PixelPoint], to rect: PixelRect) -> [PixelPoint] {
        guard ring.count >= 3 else { return [] }
        // Most rings of a tile are wholly inside its square or (for its neighbours' squares)
        // wholly outside: one pass over the bounds settles both.
        var bounds = PixelRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for point in ring {
            bounds.minX = min(bounds.minX, point.x)
            bounds.maxX = max(bounds.maxX, point.x)
            bounds.minY = min(bounds.minY, point.y)
            bounds.maxY = max(bounds.maxY, point.y)
        }
        if bounds.minX >= rect.minX && bounds.maxX <= rect.maxX && bounds.minY >= rect.minY && bounds.maxY <= rect.maxY { return ring }
        if bounds.maxX <= rect.minX || bounds.minX >= rect.maxX || bounds.maxY <= rect.minY || bounds.minY >= rect.maxY { return [] }
        var points = ring
        var scratch: [PixelPoint] = []
        for side in Side.allCases {
            scratch.removeAll(keepingCapacity: true)
            clip(points, side, rect, into: &scratch)
            swap(&points, &scratch)
            if points.count < 3 { return [] }
        }
        return points
    }

    /// The parts of an open polyline inside `rect`, in order, each a polyline of its own (the line
    /// leaves and re-enters). Points where it crosses the rectangle's sides are added. A one-point
    /// polyline (a dot) is kept when inside.
    ///
    /// For lines across tile edges: clip each tile's lines to the tile square grown by half the
    /// stroke width + 1 px and stroke every piece into one mask (union by maximum). Every pixel
    /// near a cut is then covered by a piece that runs on past it, so there is no gap, no cap seam
    /// and no darker overlap.
    public static func clip(polyline: [PixelPoint], to rect: PixelRect) -> [[PixelPoint]] {
        guard let first = polyline.first else { return [] }
        if polyline.count == 1 { return rect.contains(first) ? [polyline] : [] }
        var pieces: [[PixelPoint]] = []
        var current: [PixelPoint] = []
        for index in 1..<polyline.count {
            let a = polyline[index - 1], b = polyline[index]
            guard let visible = visibleInterval(a, b, rect) else { continue }
            if visible.enter > 0 || current.isEmpty {
                if !current.isEmpty { pieces.append(current) }
                current = [visible.enter > 0 ? crossing(a, b, visible.enterSide, rect) : a]
            }
            current.append(visible.leave < 1 ? crossing(a, b, visible.leaveSide, rect) : b)
            if visible.leave < 1 {
                pieces.append(current)
                current = []
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// The part of the segment a → b inside `rect` (Liang–Barsky): the parameter interval
    /// [enter, leave] ⊆ [0, 1] and the sides it enters and leaves by; nil when it misses.
    static func visibleInterval(
        _ a: PixelPoint, _ b: PixelPoint, _ rect: PixelRect
    ) -> (enter: Double, enterSide: Side, leave: Double, leaveSide: Side)? {
        var enter = 0.0, leave = 1.0
        var enterSide = Side.left, leaveSide = Side.right
        let dx = b.x - a.x, dy = b.y - a.y
        // Each side: the segment is inside where `start + t × delta` ≥ 0.
        let sides: [(Side, Double, Double)] = [
            (.left, dx, a.x - rect.minX), (.right, -dx, rect.maxX - a.x), (.top, dy, a.y - rect.minY), (.bottom, -dy, rect.maxY - a.y),
        ]
        for (side, delta, start) in sides {
            if delta == 0 {
                if start < 0 { return nil }
                continue
            }
            let t = -start / delta
            if delta > 0 {
                if t > enter { (enter, enterSide) = (t, side) }
            } else if t < leave {
                (leave, leaveSide) = (t, side)
            }
            if enter > leave { return nil }
        }
        return (enter, enterSide, leave, leaveSide)
    }

    /// A side of the clip rectangle.
    enum Side: CaseIterable { case left, right, top, bottom }

    /// One Sutherland–Hodgman pass: keeps the points on the inner side of `side`, adding the
    /// crossing point wherever an edge crosses it.
    private static func clip(_ points: [PixelPoint], _ side: Side, _ rect: PixelRect, into output: inout [PixelPoint]) {
        @inline(__always) func inside(_ p: PixelPoint) -> Bool {
            switch side {
            case .left: p.x >= rect.minX
            case .right: p.x <= rect.maxX
            case .top: p.y >= rect.minY
            case .bottom: p.y <= rect.maxY
            }
        }
        var previous = points[points.count - 1]
        var previousInside = inside(previous)
        for point in points {
            let pointInside = inside(point)
            if pointInside != previousInside { output.append(crossing(previous, point, side, rect)) }
            if pointInside { output.append(point) }
            (previous, previousInside) = (point, pointInside)
        }
    }

    /// Where the edge a–b crosses `side`'s line, computed from its endpoints in a fixed order (not
    /// the ring's direction), so a neighbour that shares the edge gets the same point to the bit;
    /// the coordinate along the side's normal is the side's own.
    static func crossing(_ a: PixelPoint, _ b: PixelPoint, _ side: Side, _ rect: PixelRect) -> PixelPoint {
        let (p, q) = (a.x, a.y) < (b.x, b.y) ? (a, b) : (b, a)
        switch side {
        case .left, .right:
            let x = side == .left ? rect.minX : rect.maxX
            return PixelPoint(x: x, y: p.y + (q.y - p.y) * ((x - p.x) / (q.x - p.x)))
        case .top, .bottom:
            let y = side == .top ? rect.minY : rect.maxY
            return PixelPoint(x: p.x + (q.x - p.x) * ((y - p.y) / (q.y - p.y)), y: y)
        }
    }
}
