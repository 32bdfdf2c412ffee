import MapGeometry

/// The pixels of a grid that a track's route passes through, each pixel once however many
/// segments or fixes fall in it: what one track adds to a `DensityGrid`.
package struct TrackFootprint: Sendable, Equatable {
    /// Row-major pixel indices (`y * width + x`) in the order the route first reaches them.
    package var pixelIndices: [UInt32]

    /// A footprint of the given pixels.
    package init(pixelIndices: [UInt32]) { self.pixelIndices = pixelIndices }

    /// How many pixels the track touches.
    package var pixelCount: Int { pixelIndices.count }
}

/// Traces routes through a `width`×`height` pixel grid as thin polylines: a segment touches every
/// pixel its line passes through (a grid walk, Amanatides and Woo's traversal, after clipping the
/// segment to the grid), and a lone point touches its own pixel. Pixel (i, j) covers
/// [i, i+1) × [j, j+1), as in `PixelPoint`.
///
/// Keeps one bit per pixel of scratch (cleared after every trace by walking the footprint, so a
/// trace costs its length, not the grid's area); use one tracer per thread. This is the hot loop
/// of the overview; it works on raw pointers and stays in this file.
package struct FootprintTracer: Sendable {
    /// Grid width in pixels.
    package let width: Int
    /// Grid height in pixels.
    package let height: Int
    private var seen: [UInt64]

    /// A tracer for a `width`×`height` grid.
    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width * height <= Int(UInt32.max), "grid size out of range")
        self.width = width
        self.height = height
        seen = [UInt64](repeating: 0, count: (width * height + 63) / 64)
    }

    /// The pixels `polylines` (points in grid pixels) pass through, each once.
    package mutating func trace(_ polylines: [[PixelPoint]]) -> TrackFootprint {
        var indices: [UInt32] = []
        let width = self.width, height = self.height
        seen.withUnsafeMutableBufferPointer { bits in
            var visit = Visitor(bits: bits.baseAddress!, width: width, output: [])
            for polyline in polylines {
                guard let first = polyline.first else { continue }
                if polyline.count == 1 {
                    let x = first.x, y = first.y
                    if x >= 0, y >= 0, x < Double(width), y < Double(height) { visit.pixel(Int(x), Int(y)) }
                    continue
                }
                for index in 1..<polyline.count {
                    Self.walk(from: polyline[index - 1], to: polyline[index], width: width, height: height, visit: &visit)
                }
            }
            indices = visit.output
            for index in indices { bits[Int(index) >> 6] &= ~(1 << UInt64(index & 63)) }
        }
        return TrackFootprint(pixelIndices: indices)
    }

    /// Records each pixel the first time it is reached.
    private struct Visitor {
        let bits: UnsafeMutablePointer<UInt64>
        let width: Int
        var output: [UInt32]

        @inline(__always)
        mutating func pixel(_ x: Int, _ y: Int) {
            let index = y * width + x
            let mask: UInt64 = 1 << UInt64(index & 63)
            if bits[index >> 6] & mask != 0 { return }
            bits[index >> 6] |= mask
            output.append(UInt32(index))
        }
    }

    /// Visits the pixels of segment a→b inside the grid.
    private static func walk(from a: PixelPoint, to b: PixelPoint, width: Int, height: Int, visit: inout Visitor) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite,
            let (start, end) = clip(a, b, width: Double(width), height: Double(height))
        else { return }
        var x = min(max(Int(start.x.rounded(.down)), 0), width - 1)
        var y = min(max(Int(start.y.rounded(.down)), 0), height - 1)
        let endX = min(max(Int(end.x.rounded(.down)), 0), width - 1)
        let endY = min(max(Int(end.y.rounded(.down)), 0), height - 1)
        let dx = end.x - start.x, dy = end.y - start.y
        let stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1
        let deltaX = dx == 0 ? Double.infinity : 1 / abs(dx)
        let deltaY = dy == 0 ? Double.infinity : 1 / abs(dy)
        // The parameter t (0 at start, 1 at end) where the segment next crosses a column or row edge.
        var nextX = dx == 0 ? Double.infinity : (dx > 0 ? Double(x + 1) - start.x : start.x - Double(x)) * deltaX
        var nextY = dy == 0 ? Double.infinity : (dy > 0 ? Double(y + 1) - start.y : start.y - Double(y)) * deltaY
        visit.pixel(x, y)
        // Exactly |Δcolumn| + |Δrow| steps, each toward the end pixel: rounding can never walk
        // past it or loop (a step along an axis already at its end column or row is not taken).
        var remaining = abs(endX - x) + abs(endY - y)
        while remaining > 0 {
            if y == endY || (x != endX && nextX < nextY) {
                x += stepX
                nextX += deltaX
            } else {
                y += stepY
                nextY += deltaY
            }
            visit.pixel(x, y)
            remaining -= 1
        }
    }

    /// Segment a→b clipped to [0, width] × [0, height] (Liang and Barsky); nil when it misses.
    private static func clip(_ a: PixelPoint, _ b: PixelPoint, width: Double, height: Double) -> (PixelPoint, PixelPoint)? {
        var low = 0.0, high = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        // One edge of the rectangle: the segment is inside where p·t ≤ q.
        func keep(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 {
                if t > high { return false }
                low = max(low, t)
            } else {
                if t < low { return false }
                high = min(high, t)
            }
            return true
        }
        guard keep(-dx, a.x), keep(dx, width - a.x), keep(-dy, a.y), keep(dy, height - a.y) else { return nil }
        return (PixelPoint(x: a.x + low * dx, y: a.y + low * dy), PixelPoint(x: a.x + high * dx, y: a.y + high * dy))
    }
}
