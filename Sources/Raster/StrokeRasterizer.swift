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
        let touched = mask.values.withUnsafeMutableBufferPointer { values in
            rasterize(polylines, area, radiusPixels, values.baseAddress!, 0, nil)
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
            return rasterize(polylines, area, RouteAndCasingWriter(radius: radius, values: values, casingRadius: casingRadius, casingValues: casingValues))
        }
        return rasterize(polylines, area, CoverageWriter(radius: radius, values: values))
    }

    /// Walks every segment's capsule; `writer` turns distances into mask values.
    private static func rasterize<Writer: DistanceWriter>(_ polylines: [[PixelPoint]], _ area: Area, _ writer: Writer) -> Touched? {
        let (width, height) = (area.width, area.height)
        var touched = Touched(minX: width, minY: height, maxX: -1, maxY: -1)
        // Canvas pixels to mask pixels.
        func local(_ point: PixelPoint) -> PixelPoint { PixelPoint(x: point.x - area.originX, y: point.y - area.originY) }
        // Two passes: every segment's interior first (plain fills), then the anti-aliased fringes,
        // where a pixel already full from a neighbour's interior (most of each join and cap) is
        // skipped without computing a distance.
        for pass in [Pass.interior, Pass.fringe] {
            for polyline in polylines where !polyline.isEmpty {
                polyline.withUnsafeBufferPointer { points in
                    if points.count == 1 {
                        let a = local(points[0])
                        segment(a, a, width, height, writer, pass, &touched)
                    }
                    for index in points.indices.dropFirst() {
                        segment(local(points[index - 1]), local(points[index]), width, height, writer, pass, &touched)
                    }
                }
            }
        }
        return touched.minX <= touched.maxX ? touched : nil
    }

    @inline(__always)
    private static func segment<Writer: DistanceWriter>(
        _ a: PixelPoint, _ b: PixelPoint, _ width: Int, _ height: Int, _ writer: Writer, _ pass: Pass, _ touched: inout Touched
    ) {
        let outer = CapsuleRows(a, b, radius: writer.reach)
        let inner = CapsuleRows(a, b, radius: writer.interiorRadius)
        let reach = pass == .interior ? inner : outer
        guard reach.radius > 0 else { return }
        let lowY = min(a.y, b.y) - reach.radius - 0.5, highY = max(a.y, b.y) + reach.radius - 0.5
        guard highY >= 0, lowY < Double(height) else { return }
        let rowStart = max(0, ceilInt(lowY)), rowEnd = min(height - 1, floorInt(highY))
        guard rowStart <= rowEnd else { return }
        let outerSquared = outer.radius * outer.radius
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
        for row in rowStart...rowEnd {
            let yc = Double(row) + 0.5
            let rowBase = row * width
            // Pixels well inside the stroke are simply full: filled in the first pass without a
            // distance; the second computes distances only in the anti-aliased fringe either side.
            var fullStart = Int.max, fullEnd = Int.min
            if let inside = inner.columns(yc, width) {
                (fullStart, fullEnd) = inside
            }
            if pass == .interior {
                if fullStart <= fullEnd { writer.fill(rowBase + fullStart, count: fullEnd - fullStart + 1) }
                continue
            }
            guard let (columnStart, columnEnd) = outer.columns(yc, width) else { continue }
            touched.minX = min(touched.minX, columnStart)
            touched.maxX = max(touched.maxX, columnEnd)
            touched.minY = min(touched.minY, row)
            touched.maxY = max(touched.maxY, row)
            let geometry = FringeGeometry(ax: a.x, py: yc - a.y, dx: dx, dy: dy, inverseLengthSquared: inverseLengthSquared, outerSquared: outerSquared)
            if fullStart > fullEnd {
                fringe(writer, geometry, rowBase, columnStart, columnEnd)
            } else {
                fringe(writer, geometry, rowBase, columnStart, fullStart - 1)
                fringe(writer, geometry, rowBase, fullEnd + 1, columnEnd)
            }
        }
    }

    /// One segment's constants on one row, for `fringe`.
    private struct FringeGeometry {
        var ax: Double, py: Double, dx: Double, dy: Double, inverseLengthSquared: Double, outerSquared: Double
    }

    /// Distances for the columns `first...last` of a row (offset `rowBase` in the mask), skipping
    /// pixels already full. A plain function, not a closure: a capturing local function here
    /// cost a context per row.
    @inline(__always)
    private static func fringe<Writer: DistanceWriter>(_ writer: Writer, _ g: FringeGeometry, _ rowBase: Int, _ first: Int, _ last: Int) {
        guard first <= last else { return }
        for column in first...last {
            if writer.isFull(rowBase + column) { continue }
            let px = Double(column) + 0.5 - g.ax
            var t = (px * g.dx + g.py * g.dy) * g.inverseLengthSquared
            t = t < 0 ? 0 : (t > 1 ? 1 : t)
            let ex = px - t * g.dx, ey = g.py - t * g.dy
            let distanceSquared = ex * ex + ey * ey
            if distanceSquared >= g.outerSquared { continue }
            writer.write(rowBase + column, distance: distanceSquared.squareRoot())
        }
    }
}

/// Where each row crosses a capsule (the points within `radius` of segment ab), with the
/// segment's constants computed once. The capsule is convex, so a row meets it in one interval:
/// the union of the two end discs and the band between them.
private struct CapsuleRows {
    let a: PixelPoint, b: PixelPoint, radius: Double
    private let radiusSquared: Double, lengthSquared: Double
    private let bandSlope: Double?, bandHalfWidth: Double
    private let slabSlope: Double?, slabWidth: Double

    @inline(__always)
    init(_ a: PixelPoint, _ b: PixelPoint, radius: Double) {
        self.a = a
        self.b = b
        self.radius = radius
        radiusSquared = radius * radius
        let dx = b.x - a.x, dy = b.y - a.y
        lengthSquared = dx * dx + dy * dy
        let length = lengthSquared.squareRoot()
        // The band |cross(ab, p − a)| ≤ radius·|ab| is centred on the line: x = a.x + (y − a.y)·dx/dy.
        bandSlope = abs(dy) > 1e-12 ? dx / dy : nil
        bandHalfWidth = abs(dy) > 1e-12 ? radius * length / abs(dy) : 0
        // The slab 0 ≤ t ≤ 1: from x = a.x − (y − a.y)·dy/dx, |ab|²/dx wide.
        slabSlope = abs(dx) > 1e-12 ? dy / dx : nil
        slabWidth = abs(dx) > 1e-12 ? lengthSquared / dx : 0
    }

    /// The x interval on the row through `yc`, if the row meets the capsule.
    @inline(__always)
    func interval(_ yc: Double) -> (lo: Double, hi: Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        @inline(__always) func disc(_ end: PixelPoint) {
            let dy = yc - end.y
            let remaining = radiusSquared - dy * dy
            if remaining >= 0 {
                let half = remaining.squareRoot()
                lo = min(lo, end.x - half)
                hi = max(hi, end.x + half)
            }
        }
        disc(a)
        disc(b)
        let py = yc - a.y
        guard lengthSquared > 0 else { return lo <= hi ? (lo, hi) : nil }
        var bandLo = -Double.infinity, bandHi = Double.infinity
        if let bandSlope {
            let center = a.x + py * bandSlope
            bandLo = center - bandHalfWidth
            bandHi = center + bandHalfWidth
        } else if abs(py) > radius {
            return lo <= hi ? (lo, hi) : nil
        }
        if let slabSlope {
            let start = a.x - py * slabSlope, end = start + slabWidth
            bandLo = max(bandLo, min(start, end))
            bandHi = min(bandHi, max(start, end))
        } else {
            let along = py * (b.y - a.y)
            if along < 0 || along > lengthSquared { return lo <= hi ? (lo, hi) : nil }
        }
        if bandLo <= bandHi {
            lo = min(lo, bandLo)
            hi = max(hi, bandHi)
        }
        return lo <= hi ? (lo, hi) : nil
    }

    /// The pixel columns (clipped to `width`) whose centres lie in the row's interval.
    @inline(__always)
    func columns(_ yc: Double, _ width: Int) -> (Int, Int)? {
        guard radius > 0, let (lo, hi) = interval(yc) else { return nil }
        let first = max(0, ceilInt(lo - 0.5)), last = min(width - 1, floorInt(hi - 0.5))
        return first <= last ? (first, last) : nil
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
