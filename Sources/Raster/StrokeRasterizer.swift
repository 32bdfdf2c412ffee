import MapGeometry

/// Road-width strokes with round joins and caps and analytic anti-aliasing.
///
/// A pixel's coverage is `clamp(r + 0.5 − d, 0, 1)`, where d is the exact distance from the pixel
/// centre to the nearest segment of the polyline. Taking the maximum over segments gives round
/// joins and caps for free (the union of capsules), and self-crossings are covered once, so a
/// translucent colour blended once per pixel never darkens where the route meets itself. The ramp
/// is a unit box filter across the edge: a straight stroke of width w sums to exactly w per column.
///
/// The route and its casing are filled together (the distance is computed once per pixel).
/// This is the hot loop; it works on raw pointers and stays in this file.
public enum StrokeRasterizer {
    /// Adds the polylines' stroke (half width `radiusPixels`) to `mask`. A one-point polyline is a dot.
    /// Points are in canvas pixels; the mask's origin places it on the canvas.
    public static func stroke(_ polylines: [[PixelPoint]], radiusPixels: Double, into mask: inout CoverageMask) {
        let area = Area(mask)
        let touched = mask.withBlockMarker { mask, marker in
            mask.values.withUnsafeMutableBufferPointer { values in
                rasterize(polylines, area, CoverageWriter(radius: radiusPixels, values: values.baseAddress!), marker: marker)
            }
        }
        if let touched { mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY) }
    }

    /// Adds the polylines' stroke to `mask` and a wider stroke (half width `casingRadiusPixels`) to
    /// `casing`, in one pass.
    public static func stroke(
        _ polylines: [[PixelPoint]], radiusPixels: Double, into mask: inout CoverageMask,
        casingRadiusPixels: Double, casing: inout CoverageMask
    ) {
        let area = Area(mask)
        precondition(area == Area(casing), "route and casing masks must cover the same pixels")
        // The route's mask may keep a block map (the renderer's scratch mask does); the casing's
        // is read by its touched rectangle.
        let touched = mask.withBlockMarker { mask, marker in
            mask.values.withUnsafeMutableBufferPointer { values in
                casing.values.withUnsafeMutableBufferPointer { casingValues in
                    rasterize(
                        polylines, area,
                        RouteAndCasingWriter(
                            radius: radiusPixels, values: values.baseAddress!, casingRadius: casingRadiusPixels,
                            casingValues: casingValues.baseAddress!),
                        marker: marker)
                }
            }
        }
        if let touched {
            mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY)
            casing.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY)
        }
    }

    /// The pixels a mask covers on the canvas.
    private struct Area: Equatable {
        var width: Int, height: Int, originX: Double, originY: Double
        init(_ mask: CoverageMask) {
            width = mask.width
            height = mask.height
            originX = Double(mask.originX)
            originY = Double(mask.originY)
        }
    }

    private struct Touched {
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        /// Marks the blocks of a mask that keeps a block map.
        var marker = BlockMarker(blocks: nil, blockColumns: 0)

    }

    /// Adds the stroke of a route with an optional casing to `mask` as ramp levels (see
    /// `StrokeRamp`): one value per pixel that says both coverages, for drawing into a palette.
    public static func stroke(_ polylines: [[PixelPoint]], ramp: StrokeRamp, into mask: inout CoverageMask) {
        let area = Area(mask)
        let touched = mask.withBlockMarker { mask, marker in
            mask.values.withUnsafeMutableBufferPointer { values in
                rasterize(polylines, area, RampWriter(ramp: ramp, values: values.baseAddress!), marker: marker)
            }
        }
        if let touched { mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY) }
    }

    /// Walks the stroke piece by piece; `writer` turns distances into mask values.
    ///
    /// The union of a polyline's capsules is cut into pieces that each know their distance in
    /// closed form: per segment, the band between the perpendiculars at its ends (distance to the
    /// line, no square root), and per vertex, the cone where that vertex is the nearest point of
    /// both its segments (the outer side of a turn, or the cap at an end; distance to the point).
    /// The nearest point of the polyline to any pixel is inside a segment or at a vertex, so the
    /// maximum over these pieces is the maximum over the capsules. A vertex of a gentle turn has
    /// a thin cone and costs a few rows, where its two capsules' end discs cost the full height:
    /// at 2560×1920 (3,265 vertices, 23 px casing) this halved the rows walked.
    ///
    /// Each piece is walked once, row by row, every band before every cone: its pixels within
    /// the interior radius (full whatever else is near) are filled, a cone's as well as a
    /// band's, and the others within reach get their distance. A band writes its edge pixels
    /// without a test of what is there; a cone first skips those already full, which after
    /// all the bands are most of them, and each costs a square root otherwise (see
    /// `StrokePiece.skipsFullPixels`). This replaced two passes (all band interiors, then every
    /// piece's fringe, skipping pixels already full): a dense route's bands are a few pixels
    /// long, so that walked every band's rows twice, and the cones, which had no interior fill,
    /// tested each of their pixels. At 2560×1920 (the benchmark's 7,200-fix run: 3,264 bands a
    /// few pixels long, turns of 57° on average) that is 89,000 rows instead of 130,000, and the
    /// stroke alone 3.8 → 3.2 ms. The maximum over the pieces is the same, so the mask is the
    /// same byte for byte.
    private static func rasterize<Writer: DistanceWriter>(
        _ polylines: [[PixelPoint]], _ area: Area, _ writer: Writer, marker: BlockMarker = BlockMarker(blocks: nil, blockColumns: 0)
    ) -> Touched? {
        let (width, height) = (area.width, area.height)
        var touched = Touched(minX: width, minY: height, maxX: -1, maxY: -1, marker: marker)
        // Canvas pixels to mask pixels, without repeated points (a zero-length segment has no
        // direction).
        let locals: [[PixelPoint]] = polylines.map { polyline in
            var points: [PixelPoint] = []
            points.reserveCapacity(polyline.count)
            for point in polyline {
                let local = PixelPoint(x: point.x - area.originX, y: point.y - area.originY)
                if let last = points.last, abs(last.x - local.x) < 1e-9, abs(last.y - local.y) < 1e-9 { continue }
                points.append(local)
            }
            return points
        }
        for conePass in [false, true] {
            for points in locals where !points.isEmpty {
                if points.count == 1 {
                    if conePass { walk(ConePiece(points[0], incoming: nil, outgoing: nil)!, writer, width, height, &touched) }
                    continue
                }
                var incoming: PixelPoint? = nil
                for index in points.indices {
                    let outgoing = index + 1 < points.count ? direction(points[index], points[index + 1]) : nil
                    if !conePass, index + 1 < points.count {
                        walk(BandPiece(points[index], points[index + 1], direction: outgoing!), writer, width, height, &touched)
                    }
                    if conePass, let cone = ConePiece(points[index], incoming: incoming, outgoing: outgoing) {
                        walk(cone, writer, width, height, &touched)
                    }
                    incoming = outgoing
                }
            }
        }
        return touched.minX <= touched.maxX ? touched : nil
    }

    private static func direction(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        return PixelPoint(x: dx / length, y: dy / length)
    }

    /// One piece's rows in one pass: the pixels within the interior radius are filled, the others
    /// within reach get their distance, and the writer keeps the larger value.
    @inline(__always)
    private static func walk<Piece: StrokePiece, Writer: DistanceWriter>(
        _ piece: Piece, _ writer: Writer, _ width: Int, _ height: Int, _ touched: inout Touched
    ) {
        let reach = writer.reach, interior = writer.interiorRadius
        guard let (firstRow, lastRow) = piece.rows(radius: reach, height: height) else { return }
        // The piece's extent, kept in registers and merged into `touched` once.
        var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
        for row in firstRow...lastRow {
            let yc = Double(row) + 0.5
            guard let spans = piece.intervals(yc, inner: interior, outer: reach), let (first, last) = columns(spans.outer, width) else { continue }
            minX = min(minX, first)
            maxX = max(maxX, last)
            minY = min(minY, row)
            maxY = max(maxY, row)
            touched.marker.mark(row: row, first: first, last: last)
            let rowBase = row &* width
            if let inner = spans.inner, let (fullFirst, fullLast) = columns(inner, width) {
                let fillFirst = max(fullFirst, first), fillLast = min(fullLast, last)
                if fillFirst <= fillLast {
                    edge(piece, writer, yc, rowBase, first, fillFirst &- 1)
                    writer.fill(rowBase &+ fillFirst, count: fillLast &- fillFirst &+ 1)
                    edge(piece, writer, yc, rowBase, fillLast &+ 1, last)
                    continue
                }
            }
            edge(piece, writer, yc, rowBase, first, last)
        }
        if minY <= maxY {
            touched.minX = min(touched.minX, minX)
            touched.maxX = max(touched.maxX, maxX)
            touched.minY = min(touched.minY, minY)
            touched.maxY = max(touched.maxY, maxY)
        }
    }

    /// Distances for the columns `first...last` of a row (none when `first > last`).
    @inline(__always)
    private static func edge<Piece: StrokePiece, Writer: DistanceWriter>(
        _ piece: Piece, _ writer: Writer, _ yc: Double, _ rowBase: Int, _ first: Int, _ last: Int
    ) {
        var column = first, x = Double(first) + 0.5
        while column <= last {
            if Piece.skipsFullPixels && writer.isFull(rowBase &+ column) {
                column &+= 1
                x += 1
                continue
            }
            writer.write(rowBase &+ column, distance: piece.distance(x, yc))
            column &+= 1
            x += 1
        }
    }

    /// The pixel columns (clipped to `width`) whose centres lie in an x interval.
    @inline(__always)
    private static func columns(_ interval: (lo: Double, hi: Double), _ width: Int) -> (Int, Int)? {
        let first = max(0, ceilInt(interval.lo - 0.5)), last = min(width - 1, floorInt(interval.hi - 0.5))
        return first <= last ? (first, last) : nil
    }
}

/// A part of a stroke whose distance is known in closed form (see `rasterize`).
private protocol StrokePiece {
    /// Whether an edge pixel already full is skipped rather than given its distance: for
    /// cones, drawn after the bands, whose distance is a square root. A band's is a
    /// multiply-add, cheaper than the test's unpredictable branch.
    static var skipsFullPixels: Bool { get }
    /// The first and last rows (clipped to the mask) with a pixel centre within `radius`.
    func rows(radius: Double, height: Int) -> (Int, Int)?
    /// The x intervals on the row through `yc` within `outer` and within `inner` of the piece,
    /// inside its region; nil when the outer one is empty (the inner one is nil when empty or
    /// when `inner` is not positive).
    func intervals(_ yc: Double, inner: Double, outer: Double) -> (outer: (lo: Double, hi: Double), inner: (lo: Double, hi: Double)?)?
    /// The distance from (x, yc), a point of the piece's region, to the route.
    func distance(_ x: Double, _ yc: Double) -> Double
}

/// The rows clipped to the mask that have pixel centres in [low, high].
@inline(__always)
private func rowRange(_ low: Double, _ high: Double, _ height: Int) -> (Int, Int)? {
    let first = max(0, ceilInt(low - 0.5)), last = min(height - 1, floorInt(high - 0.5))
    return first <= last ? (first, last) : nil
}

/// The points of the plane whose nearest point on segment ab is inside it: between the
/// perpendiculars at a and b. Distance: to the line.
private struct BandPiece: StrokePiece {
    static var skipsFullPixels: Bool { false }
    let a: PixelPoint, b: PixelPoint, ux: Double, uy: Double, length: Double
    // Reciprocals, so a row costs multiplications only (0 when the component is ~0).
    private let inverseUx: Double, inverseUy: Double

    @inline(__always)
    init(_ a: PixelPoint, _ b: PixelPoint, direction: PixelPoint) {
        self.a = a
        self.b = b
        ux = direction.x
        uy = direction.y
        length = (b.x - a.x) * ux + (b.y - a.y) * uy
        inverseUx = abs(ux) > 1e-12 ? 1 / ux : 0
        inverseUy = abs(uy) > 1e-12 ? 1 / uy : 0
    }

    @inline(__always)
    func rows(radius: Double, height: Int) -> (Int, Int)? {
        // The band within `radius` is a rectangle; its corners are the ends moved ±radius along
        // the normal (-uy, ux).
        let spread = radius * abs(ux)
        return rowRange(min(a.y, b.y) - spread, max(a.y, b.y) + spread, height)
    }

    @inline(__always)
    func intervals(_ yc: Double, inner: Double, outer: Double) -> (outer: (lo: Double, hi: Double), inner: (lo: Double, hi: Double)?)? {
        let py = yc - a.y
        var lo = -Double.infinity, hi = Double.infinity
        // Along the segment: 0 ≤ (x − a.x)·ux + py·uy ≤ length.
        if inverseUx != 0 {
            let start = a.x - py * uy * inverseUx, end = a.x + (length - py * uy) * inverseUx
            lo = min(start, end)
            hi = max(start, end)
        } else if py * uy < 0 || py * uy > length {
            return nil
        }
        // Across it: |py·ux − (x − a.x)·uy| ≤ radius.
        guard let outerSpan = across(py, lo, hi, radius: outer) else { return nil }
        return (outerSpan, inner > 0 ? across(py, lo, hi, radius: inner) : nil)
    }

    /// The part of [lo, hi] within `radius` of the segment's line, on the row `py` below a.
    @inline(__always)
    private func across(_ py: Double, _ lo: Double, _ hi: Double, radius: Double) -> (lo: Double, hi: Double)? {
        var lo = lo, hi = hi
        if inverseUy != 0 {
            let near = a.x + (py * ux - radius) * inverseUy, far = a.x + (py * ux + radius) * inverseUy
            lo = max(lo, min(near, far))
            hi = min(hi, max(near, far))
        } else if abs(py * ux) > radius {
            return nil
        }
        return lo <= hi ? (lo, hi) : nil
    }

    @inline(__always)
    func distance(_ x: Double, _ yc: Double) -> Double { abs((yc - a.y) * ux - (x - a.x) * uy) }
}

/// The points whose nearest point on the route is the vertex v: the cone beyond the end of the
/// incoming segment and before the start of the outgoing one (q·in ≥ 0, q·out ≤ 0 for q = p − v),
/// a half-plane at an end of the route, everything for a lone point. Distance: to v.
private struct ConePiece: StrokePiece {
    static var skipsFullPixels: Bool { true }
    let v: PixelPoint
    // The cone as q·c ≥ 0 for up to two vectors c (incoming, and the reverse of outgoing); a
    // missing one is (0, 0), which every q satisfies. Plain values, no optionals or arrays: this
    // runs per row.
    private let c1x: Double, c1y: Double, c2x: Double, c2y: Double

    /// Nil for a straight vertex, whose cone is only a line (the bands on both sides cover it).
    @inline(__always)
    init?(_ v: PixelPoint, incoming: PixelPoint?, outgoing: PixelPoint?) {
        if let incoming, let outgoing, incoming.x * outgoing.x + incoming.y * outgoing.y > 1 - 1e-12 { return nil }
        self.v = v
        c1x = incoming?.x ?? 0
        c1y = incoming?.y ?? 0
        c2x = -(outgoing?.x ?? 0)
        c2y = -(outgoing?.y ?? 0)
    }

    /// Whether direction w points into the cone.
    @inline(__always)
    private func contains(_ wx: Double, _ wy: Double) -> Bool {
        wx * c1x + wy * c1y >= -1e-12 && wx * c2x + wy * c2y >= -1e-12
    }

    @inline(__always)
    func rows(radius: Double, height: Int) -> (Int, Int)? {
        // The sector's extent: the vertex, the ends of its boundary rays (perpendicular to the
        // constraint vectors), and the top or bottom of the circle where that direction is inside.
        var low = v.y, high = v.y
        @inline(__always) func boundary(_ wx: Double, _ wy: Double) {
            guard wx != 0 || wy != 0, contains(wx, wy) else { return }
            low = min(low, v.y + radius * wy)
            high = max(high, v.y + radius * wy)
        }
        boundary(-c1y, c1x)
        boundary(c1y, -c1x)
        boundary(-c2y, c2x)
        boundary(c2y, -c2x)
        if contains(0, -1) { low = v.y - radius }
        if contains(0, 1) { high = v.y + radius }
        return rowRange(low, high, height)
    }

    @inline(__always)
    func intervals(_ yc: Double, inner: Double, outer: Double) -> (outer: (lo: Double, hi: Double), inner: (lo: Double, hi: Double)?)? {
        let dy = yc - v.y
        let remaining = outer * outer - dy * dy
        guard remaining >= 0 else { return nil }
        // The cone's sides, shared by both circles.
        var lo = -Double.infinity, hi = Double.infinity
        @inline(__always) func limit(_ cx: Double, _ cy: Double) -> Bool {
            if cx > 1e-12 {
                lo = max(lo, v.x - dy * cy / cx)
            } else if cx < -1e-12 {
                hi = min(hi, v.x - dy * cy / cx)
            } else if dy * cy < -1e-12 {
                return false
            }
            return true
        }
        guard limit(c1x, c1y), limit(c2x, c2y) else { return nil }
        let half = remaining.squareRoot()
        let outerSpan = (lo: max(v.x - half, lo), hi: min(v.x + half, hi))
        guard outerSpan.lo <= outerSpan.hi else { return nil }
        let innerRemaining = inner * inner - dy * dy
        guard inner > 0, innerRemaining >= 0 else { return (outerSpan, nil) }
        let innerHalf = innerRemaining.squareRoot()
        let innerSpan = (lo: max(v.x - innerHalf, lo), hi: min(v.x + innerHalf, hi))
        return (outerSpan, innerSpan.lo <= innerSpan.hi ? innerSpan : nil)
    }

    @inline(__always)
    func distance(_ x: Double, _ yc: Double) -> Double {
        let dx = x - v.x, dy = yc - v.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// Turns a pixel's distance to one piece into mask values, keeping the maximum (the union).
/// `write` has no branch: which of a row's pixels are already full, inside or at the edge is
/// unpredictable (`perf`: for a band, a skip test per pixel cost more than the distance it saved).
private protocol DistanceWriter {
    /// How far from a piece anything is written: the outer radius + 0.5 px.
    var reach: Double { get }
    /// Pixels whose centre is within this distance get the largest value (a fill, no distance).
    var interiorRadius: Double { get }
    /// Sets `count` values from `index` on to the largest.
    func fill(_ index: Int, count: Int)
    /// Whether the value at `index` is already the largest (nothing can raise it).
    func isFull(_ index: Int) -> Bool
    /// Raises the value at mask offset `index` to the one for `distance` where that is larger.
    func write(_ index: Int, distance: Double)
}

/// Coverage in 1/255 units: (r + 0.5 − d) · 255.
private struct CoverageWriter: DistanceWriter {
    let bias: Double, values: UnsafeMutablePointer<UInt8>, reach: Double, interiorRadius: Double
    init(radius: Double, values: UnsafeMutablePointer<UInt8>) {
        bias = (radius + 0.5) * 255
        self.values = values
        reach = radius + 0.5
        // Coverage rounds to 255 from r + 0.5 − d ≥ 254.5/255: d ≤ r − 0.5 is safely full.
        interiorRadius = radius - 0.5
    }
    @inline(__always) func fill(_ index: Int, count: Int) { fillBytes(values + index, count, 255) }
    @inline(__always) func isFull(_ index: Int) -> Bool { values[index] == 255 }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        // Clamped to 0...255 and rounded: nothing below zero, 255 from 254.5 on.
        let value = min(max(bias - distance * 255, 0), 255)
        values[index] = max(values[index], UInt8(value + 0.5))
    }
}

/// Route and casing coverage from one distance.
private struct RouteAndCasingWriter: DistanceWriter {
    let route: CoverageWriter, casing: CoverageWriter, reach: Double, interiorRadius: Double
    init(radius: Double, values: UnsafeMutablePointer<UInt8>, casingRadius: Double, casingValues: UnsafeMutablePointer<UInt8>) {
        route = CoverageWriter(radius: radius, values: values)
        casing = CoverageWriter(radius: casingRadius, values: casingValues)
        reach = max(radius, casingRadius) + 0.5
        interiorRadius = min(route.interiorRadius, casing.interiorRadius)
    }
    @inline(__always) func fill(_ index: Int, count: Int) {
        route.fill(index, count: count)
        casing.fill(index, count: count)
    }
    @inline(__always) func isFull(_ index: Int) -> Bool { route.isFull(index) && casing.isFull(index) }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        route.write(index, distance: distance)
        casing.write(index, distance: distance)
    }
}

/// Ramp levels (see `StrokeRamp`); larger is closer, so the maximum is still the union.
private struct RampWriter: DistanceWriter {
    let values: UnsafeMutablePointer<UInt8>, reach: Double, interiorRadius: Double
    // `StrokeRamp.level`'s terms, taken out of the pixel loop.
    private let routeBias: Double, casingBias: Double, casingLevels: Int, full: UInt8
    init(ramp: StrokeRamp, values: UnsafeMutablePointer<UInt8>) {
        self.values = values
        reach = ramp.outerRadiusPixels + 0.5
        // The top level needs (r + 0.5 − d)·L + 0.5 ≥ L: d ≤ r − 0.5 is safely there.
        interiorRadius = ramp.routeRadiusPixels - 0.5
        full = UInt8(ramp.maximumLevel)
        routeBias = ramp.routeRadiusPixels + 0.5
        // Without a casing its ramp starts below zero and every level of it is 0.
        casingBias = (ramp.casingRadiusPixels ?? -1) + 0.5
        casingLevels = ramp.casingRadiusPixels == nil ? 0 : StrokeRamp.levelsPerRamp
    }
    @inline(__always) func fill(_ index: Int, count: Int) { fillBytes(values + index, count, full) }
    @inline(__always) func isFull(_ index: Int) -> Bool { values[index] == full }
    /// `StrokeRamp.level(distance:)`, the same arithmetic, with both ramps computed and one
    /// chosen without a branch.
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        let steps = Double(StrokeRamp.levelsPerRamp)
        let route = Int((routeBias - distance) * steps + 0.5), casing = Int((casingBias - distance) * steps + 0.5)
        let routeLevel = casingLevels &+ min(route, StrokeRamp.levelsPerRamp)
        let casingLevel = min(max(casing, 0), StrokeRamp.levelsPerRamp)
        let level = UInt8(truncatingIfNeeded: route >= 1 ? routeLevel : casingLevel)
        values[index] = max(values[index], level)
    }
}

/// Sets `count` bytes from `start` to `value`. A row's fill is a few bytes (a band of a dense
/// route is a few pixels long): a loop, where `update(repeating:count:)` called `memset`.
@inline(__always)
private func fillBytes(_ start: UnsafeMutablePointer<UInt8>, _ count: Int, _ value: UInt8) {
    var index = 0
    while index < count {
        start[index] = value
        index &+= 1
    }
}

// `rounded(.down)` and `.up` call libm's floor/ceil through the PLT on baseline x86-64 (no
// SSE4.1 `roundsd`): a third of the per-row cost here. Values are clamped to ±2^52 first.

/// ⌊x⌋ as an Int, for |x| < 2^52 (larger values are clamped).
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let clamped = min(max(x, -4.5e15), 4.5e15)
    let truncated = Int(clamped)
    return truncated &- (Double(truncated) > clamped ? 1 : 0)
}

/// ⌈x⌉ as an Int, for |x| < 2^52 (larger values are clamped).
@inline(__always)
func ceilInt(_ x: Double) -> Int {
    let clamped = min(max(x, -4.5e15), 4.5e15)
    let truncated = Int(clamped)
    return truncated &+ (Double(truncated) < clamped ? 1 : 0)
}
