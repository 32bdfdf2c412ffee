import MapGeometry

/// Road-width strokes with round joins and caps and analytic anti-aliasing.
///
/// A pixel's coverage is `clamp(r + 0.5 − d, 0, 1)`, where d is the exact distance from the pixel
/// centre to the nearest segment of the polyline. Taking the maximum over segments gives round
/// joins and caps for free (the union of capsules), and self-crossings are covered once, so a
/// translucent colour blended once per pixel never darkens where the route meets itself. The ramp
/// is a unit box filter across the edge: a straight stroke of width w sums to exactly w per column.
///
/// The route and its casing are filled in one pass (the distance is computed once per pixel).
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
        let touched = mask.values.withUnsafeMutableBufferPointer { values in
            casing.values.withUnsafeMutableBufferPointer { casingValues in
                rasterize(polylines, area, radiusPixels, values.baseAddress!, casingRadiusPixels, casingValues.baseAddress!)
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

        /// Records that columns `first...last` of `row` may have been written.
        @inline(__always)
        mutating func add(row: Int, first: Int, last: Int) {
            minX = min(minX, first)
            maxX = max(maxX, last)
            minY = min(minY, row)
            maxY = max(maxY, row)
            marker.mark(row: row, first: first, last: last)
        }
    }

    /// Adds the stroke of a route with an optional casing to `mask` as ramp levels (see
    /// `StrokeRamp`): one value per pixel that says both coverages, for drawing into a palette.
    public static func stroke(_ polylines: [[PixelPoint]], ramp: StrokeRamp, into mask: inout CoverageMask) {
        let area = Area(mask)
        let touched = mask.values.withUnsafeMutableBufferPointer { values in
            rasterize(polylines, area, RampWriter(ramp: ramp, values: values.baseAddress!))
        }
        if let touched { mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY) }
    }

    private static func rasterize(
        _ polylines: [[PixelPoint]], _ area: Area,
        _ radius: Double, _ values: UnsafeMutablePointer<UInt8>,
        _ casingRadius: Double, _ casingValues: UnsafeMutablePointer<UInt8>?
    ) -> Touched? {
        if let casingValues {
            return rasterize(
                polylines, area, RouteAndCasingWriter(radius: radius, values: values, casingRadius: casingRadius, casingValues: casingValues))
        }
        return rasterize(polylines, area, CoverageWriter(radius: radius, values: values))
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
        // Two passes: every piece's interior first (plain fills), then the anti-aliased fringes,
        // where a pixel already full from a neighbour's interior is skipped without a distance.
        for pass in [Pass.interior, Pass.fringe] {
            for points in locals where !points.isEmpty {
                if points.count == 1 {
                    walk(ConePiece(points[0], incoming: nil, outgoing: nil)!, writer, pass, width, height, &touched)
                    continue
                }
                var incoming: PixelPoint? = nil
                for index in points.indices {
                    let outgoing = index + 1 < points.count ? direction(points[index], points[index + 1]) : nil
                    if index + 1 < points.count {
                        walk(BandPiece(points[index], points[index + 1], direction: outgoing!), writer, pass, width, height, &touched)
                    }
                    if let cone = ConePiece(points[index], incoming: incoming, outgoing: outgoing) {
                        walk(cone, writer, pass, width, height, &touched)
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

    /// One piece's rows: in the interior pass, fill the pixels within the interior radius; in the
    /// fringe pass, compute the distance of the others within reach that are not full yet.
    @inline(__always)
    private static func walk<Piece: StrokePiece, Writer: DistanceWriter>(
        _ piece: Piece, _ writer: Writer, _ pass: Pass, _ width: Int, _ height: Int, _ touched: inout Touched
    ) {
        // A cone is thin (the outer side of a gentle turn) and mostly under its bands' fills: its
        // few inner pixels get their distance in the fringe pass instead of a pass of their own.
        let interior = Piece.fillsInterior ? writer.interiorRadius : 0, reach = writer.reach
        if pass == .interior && interior <= 0 { return }
        guard let (firstRow, lastRow) = piece.rows(radius: pass == .interior ? interior : reach, height: height) else { return }
        for row in firstRow...lastRow {
            let yc = Double(row) + 0.5
            let rowBase = row * width
            var fullStart = Int.max, fullEnd = Int.min
            if interior > 0, let inside = piece.interval(yc, radius: interior), let columns = columns(inside, width) {
                (fullStart, fullEnd) = columns
            }
            if pass == .interior {
                if fullStart <= fullEnd { writer.fill(rowBase + fullStart, count: fullEnd - fullStart + 1) }
                continue
            }
            guard let outside = piece.interval(yc, radius: reach), let (columnStart, columnEnd) = columns(outside, width) else { continue }
            touched.add(row: row, first: columnStart, last: columnEnd)
            if fullStart > fullEnd {
                fringe(piece, writer, yc, rowBase, columnStart, columnEnd)
            } else {
                fringe(piece, writer, yc, rowBase, columnStart, fullStart - 1)
                fringe(piece, writer, yc, rowBase, fullEnd + 1, columnEnd)
            }
        }
    }

    /// Distances for the columns `first...last` of a row, skipping pixels already full.
    @inline(__always)
    private static func fringe<Piece: StrokePiece, Writer: DistanceWriter>(
        _ piece: Piece, _ writer: Writer, _ yc: Double, _ rowBase: Int, _ first: Int, _ last: Int
    ) {
        guard first <= last else { return }
        let reach = writer.reach
        for column in first...last {
            if writer.isFull(rowBase + column) { continue }
            let distance = piece.distance(Double(column) + 0.5, yc)
            if distance < reach { writer.write(rowBase + column, distance: distance) }
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
    /// Whether the interior pass fills this kind of piece.
    static var fillsInterior: Bool { get }
    /// The first and last rows (clipped to the mask) with a pixel centre within `radius`.
    func rows(radius: Double, height: Int) -> (Int, Int)?
    /// The x interval on the row through `yc` within `radius`, inside the piece's region.
    func interval(_ yc: Double, radius: Double) -> (lo: Double, hi: Double)?
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
    static var fillsInterior: Bool { true }
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
    func interval(_ yc: Double, radius: Double) -> (lo: Double, hi: Double)? {
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
    static var fillsInterior: Bool { false }
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
    func interval(_ yc: Double, radius: Double) -> (lo: Double, hi: Double)? {
        let dy = yc - v.y
        let remaining = radius * radius - dy * dy
        guard remaining >= 0 else { return nil }
        let half = remaining.squareRoot()
        var lo = v.x - half, hi = v.x + half
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
        return lo <= hi ? (lo, hi) : nil
    }

    @inline(__always)
    func distance(_ x: Double, _ yc: Double) -> Double {
        let dx = x - v.x, dy = yc - v.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// The two passes over the segments.
private enum Pass {
    /// Fill the pixels well inside each segment's stroke.
    case interior
    /// Compute the anti-aliased edge pixels around them.
    case fringe
}

/// Turns a pixel's distance to one segment into mask values, keeping the maximum (the union).
private protocol DistanceWriter {
    /// How far from a segment anything is written: the outer radius + 0.5 px.
    var reach: Double { get }
    /// Pixels whose centre is within this distance get the largest value (fill, not write).
    var interiorRadius: Double { get }
    /// Writes the value for `distance` at mask offset `index` where it exceeds the stored one.
    func write(_ index: Int, distance: Double)
    /// Whether the value at `index` is already the largest (nothing can raise it).
    func isFull(_ index: Int) -> Bool
    /// Sets `count` values from `index` on to the largest.
    func fill(_ index: Int, count: Int)
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
    @inline(__always) func isFull(_ index: Int) -> Bool { values[index] == 255 }
    @inline(__always) func fill(_ index: Int, count: Int) { (values + index).update(repeating: 255, count: count) }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        let value = bias - distance * 255
        guard value > 0 else { return }
        let coverage: UInt8 = value >= 255 ? 255 : UInt8(value + 0.5)
        if coverage > values[index] { values[index] = coverage }
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
    @inline(__always) func isFull(_ index: Int) -> Bool { route.isFull(index) && casing.isFull(index) }
    @inline(__always) func fill(_ index: Int, count: Int) {
        route.fill(index, count: count)
        casing.fill(index, count: count)
    }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        route.write(index, distance: distance)
        casing.write(index, distance: distance)
    }
}

/// Ramp levels (see `StrokeRamp`); larger is closer, so the maximum is still the union.
private struct RampWriter: DistanceWriter {
    let ramp: StrokeRamp, values: UnsafeMutablePointer<UInt8>, reach: Double, interiorRadius: Double, full: UInt8
    init(ramp: StrokeRamp, values: UnsafeMutablePointer<UInt8>) {
        self.ramp = ramp
        self.values = values
        reach = ramp.outerRadiusPixels + 0.5
        // The top level needs (r + 0.5 − d)·L + 0.5 ≥ L: d ≤ r − 0.5 is safely there.
        interiorRadius = ramp.routeRadiusPixels - 0.5
        full = UInt8(ramp.maximumLevel)
    }
    @inline(__always) func isFull(_ index: Int) -> Bool { values[index] == full }
    @inline(__always) func fill(_ index: Int, count: Int) { (values + index).update(repeating: full, count: count) }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        let level = ramp.level(distance: distance)
        if level > values[index] { values[index] = level }
    }
}

// `rounded(.down)` and `.up` call libm's floor/ceil through the PLT on baseline x86-64 (no
// SSE4.1 `roundsd`): a third of the per-row cost here. Values are clamped to ±2^52 first.

/// ⌊x⌋ as an Int, for |x| < 2^52 (larger values are clamped).
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let clamped = min(max(x, -4.5e15), 4.5e15)
    let truncated = Int(clamped)
    return Double(truncated) > clamped ? truncated - 1 : truncated
}

/// ⌈x⌉ as an Int, for |x| < 2^52 (larger values are clamped).
@inline(__always)
func ceilInt(_ x: Double) -> Int {
    let clamped = min(max(x, -4.5e15), 4.5e15)
    let truncated = Int(clamped)
    return Double(truncated) < clamped ? truncated + 1 : truncated
}
