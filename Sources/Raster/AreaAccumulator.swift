import MapGeometry

/// Polygon coverage with exact analytic anti-aliasing, by accumulating signed area.
///
/// Every edge adds, to each pixel cell it passes through, the signed area it sweeps there; one
/// running sum along each row then gives, per pixel, the winding-weighted area of the polygons
/// inside it, and coverage is `min(1, |sum|)`. Because this is linear in the edges:
///
/// - a hole wound opposite to its exterior ring cancels it exactly (holes stay empty), and a ring
///   of either overall orientation fills the same pixels;
/// - pieces of one polygon cut anywhere (`RectangleClip.clip(ring:to:)` at tile edges) and added to
///   the same accumulator sum to exactly the whole polygon: no seam, no hairline, no edge blended
///   twice. Add every piece of a layer first, then `resolve(into:)` once.
///
/// Overlapping rings of the same orientation count 1 (the nonzero rule, clamped); their shared
/// anti-aliased edge pixels add instead of uniting, which only matters where such rings overlap.
///
/// Coordinates are pixels of a `width`×`height` frame (pixel (i, j) covers [i, i+1) × [j, j+1)).
/// Edges are clipped to the frame as they are added: points far outside cost nothing beyond the
/// clip arithmetic. Cost of a ring: O(vertices + Σ over its edges, clipped to the frame's rows, of
/// (rows spanned + columns spanned)), i.e. its vertex count plus its boundary length in pixels. A ring
/// whose bound exceeds `cellVisitLimitPerRing` is refused (see `add(ring:)`), so a hostile ring of
/// two million vertices zigzagging across the frame costs one O(n) pass, not hours. `resolve` costs
/// the columns between each touched row's first and last written cell.
///
/// The buffers are kept between images (`reshape(width:height:)`); `resolve` leaves them zeroed.
public struct AreaAccumulator: Sendable {
    /// Frame width in pixels.
    public private(set) var width: Int
    /// Frame height in pixels.
    public private(set) var height: Int
    /// Largest estimated cell visits beyond a constant per vertex (3 × the rows plus the columns
    /// each edge spans in the frame, summed over the ring) a ring may cost; a costlier ring is refused. Default: 16 × width × height, so a
    /// legitimate ring (whose boundary crosses the frame far fewer than 16 times per pixel) is never
    /// refused and the worst ring costs about as much as 16 full-frame fills.
    public var cellVisitLimitPerRing: Int
    /// Signed area per cell: `height` rows of `width + 2` cells (the two extra columns take the
    /// right-hand remainders of edges at the frame's right edge, so nothing wraps to the next row).
    var cells: [Float]
    /// First and last written cell of each row; `rowFirst[y] > rowLast[y]` for an untouched row.
    var rowFirst: [Int32]
    var rowLast: [Int32]
    /// Touched rows, inclusive; empty when `firstRow > lastRow`.
    var firstRow: Int, lastRow: Int
    /// Cell visits since the accumulator was made (for render statistics and benchmarks).
    public internal(set) var cellVisits: Int = 0

    /// An empty accumulator for a `width`×`height` frame.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative frame")
        self.width = width
        self.height = height
        cellVisitLimitPerRing = Self.defaultCellVisitLimit(width: width, height: height)
        cells = [Float](repeating: 0, count: (width + 2) * height)
        rowFirst = [Int32](repeating: Int32.max, count: height)
        rowLast = [Int32](repeating: -1, count: height)
        firstRow = height
        lastRow = -1
    }

    /// The default `cellVisitLimitPerRing` of a frame: 16 visits per pixel.
    public static func defaultCellVisitLimit(width: Int, height: Int) -> Int { 16 * max(width * height, 1024) }

    /// Whether nothing has been added since the last `resolve`.
    public var isEmpty: Bool { firstRow > lastRow }

    /// Makes the accumulator a `width`×`height` frame, keeping its storage when large enough. Only
    /// an empty accumulator (nothing added, or resolved) is reshaped; the limit is reset to its default.
    public mutating func reshape(width: Int, height: Int) {
        precondition(isEmpty, "reshape after resolve")
        let count = (width + 2) * height
        if cells.count < count { cells = LargeBuffer.zeroed(Float.self, count: count) }
        if rowFirst.count < height {
            rowFirst = [Int32](repeating: Int32.max, count: height)
            rowLast = [Int32](repeating: -1, count: height)
        }
        self.width = width
        self.height = height
        cellVisitLimitPerRing = Self.defaultCellVisitLimit(width: width, height: height)
        firstRow = height
        lastRow = -1
    }

    /// Adds a closed ring (the last point joins the first; repeating the first point is fine).
    /// Rings of fewer than three distinct points add nothing. Returns false, adding nothing, when
    /// a coordinate is not finite or beyond ±1e300, or when the ring's cost bound exceeds
    /// `cellVisitLimitPerRing`: the caller reports it as a problem.
    @discardableResult
    public mutating func add(ring: [PixelPoint]) -> Bool {
        ring.withUnsafeBufferPointer { add(ring: $0, orientation: 1) }
    }

    /// Adds the ring stored at `range` of a flat point buffer that holds many rings back to back.
    @discardableResult
    public mutating func add(points: [PixelPoint], ring range: Range<Int>) -> Bool {
        points.withUnsafeBufferPointer { add(ring: UnsafeBufferPointer(rebasing: $0[range]), orientation: 1) }
    }

    /// Adds a polygon: `rings[0]` is the exterior, the rest are its holes. Each hole is added with
    /// the orientation opposite to the exterior's, and every exterior with the same orientation,
    /// whatever the stored windings, so holes stay empty even in tiles whose winding is reversed
    /// and overlapping polygons never cancel. Returns false, adding nothing, when any ring
    /// would be refused by `add(ring:)`.
    @discardableResult
    public mutating func add(polygon rings: [[PixelPoint]]) -> Bool {
        guard !rings.isEmpty else { return true }
        var oriented: [(ring: [PixelPoint], orientation: Float)] = []
        for (index, ring) in rings.enumerated() {
            guard ring.withUnsafeBufferPointer({ isAcceptable($0) }) else { return false }
            let area = Self.signedArea(ring)
            // Every exterior counts positive and every hole negative, whatever the stored winding:
            // overlapping polygons of one layer (features wound either way) then add, never cancel.
            let wanted = index == 0 ? 1.0 : -1.0
            oriented.append((ring, area * wanted < 0 ? -1 : 1))
        }
        for (ring, orientation) in oriented where ring.count >= 3 {
            ring.withUnsafeBufferPointer { accumulate($0, orientation: orientation) }
        }
        return true
    }

    /// The shoelace area of a ring in square pixels, positive when the ring turns
    /// clockwise on screen (y down), negative when counter-clockwise.
    public static func signedArea(_ ring: [PixelPoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += (previous.x - point.x) * (previous.y + point.y)
            previous = point
        }
        return sum / 2
    }

    /// Adds a ring with its edges' signs multiplied by `orientation` (±1), after the checks.
    mutating func add(ring: UnsafeBufferPointer<PixelPoint>, orientation: Float) -> Bool {
        guard ring.count >= 3 else { return true }
        guard isAcceptable(ring) else { return false }
        accumulate(ring, orientation: orientation)
        return true
    }

    /// Whether a ring's coordinates are usable and its cost bound is within the limit. Past a
    /// constant per edge, an edge costs at most 3 × the rows plus the columns it spans in the frame;
    /// the bound needs a pass over the ring only when the ring could exceed the limit at all
    /// (every edge spanning the whole frame), so ordinary rings skip it.
    func isAcceptable(_ ring: UnsafeBufferPointer<PixelPoint>) -> Bool {
        let limit = 1e300
        for point in ring where !(abs(point.x) <= limit && abs(point.y) <= limit) { return false }
        guard ring.count > cellVisitLimitPerRing / max(3 * height + width, 1) else { return true }
        let (frameWidth, frameHeight) = (Double(width), Double(height))
        var bound = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            bound += 3 * min(abs(point.y - previous.y), frameHeight) + min(abs(point.x - previous.x), frameWidth)
            previous = point
        }
        return bound <= Double(cellVisitLimitPerRing)
    }
}
