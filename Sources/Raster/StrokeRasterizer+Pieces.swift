import MapGeometry

// The pieces `StrokeRasterizer.rasterize` cuts a stroke into, each with its distance in closed
// form.

/// A part of a stroke whose distance is known in closed form (see `StrokeRasterizer.rasterize`).
/// Its rows and x are the mask's rows and x, or its columns and y for a piece made of swapped
/// points and walked by columns (`LineLayout`).
protocol StrokePiece {
    /// Whether an edge pixel already full is skipped rather than given its distance: for
    /// cones, drawn after the bands, whose distance is a square root. A band's is a
    /// multiply-add, cheaper than the test's unpredictable branch.
    static var skipsFullPixels: Bool { get }
    /// The first and last rows (clipped to `height` rows) with a pixel centre within `radius`.
    func rows(radius: Double, height: Int) -> (Int, Int)?
    /// The x intervals on the row through `yc` within `outer` and within `inner` of the piece,
    /// inside its region; nil when the outer one is empty (the inner one is nil when empty or
    /// when `inner` is not positive).
    func intervals(_ yc: Double, inner: Double, outer: Double) -> (outer: (lo: Double, hi: Double), inner: (lo: Double, hi: Double)?)?
    /// The distance from (x, yc), a point of the piece's region, to the route.
    func distance(_ x: Double, _ yc: Double) -> Double
}

/// Whether `StrokeRasterizer.walk` goes along the mask's rows or its columns. A piece walked by
/// columns is made from points with x and y swapped (`PixelPoint.swapped`): its "rows" are the
/// mask's columns, and its x runs down them.
protocol LineLayout {
    /// Whether the lines are the mask's columns.
    static var byColumns: Bool { get }
}

/// Lines along the mask's rows.
enum RowLines: LineLayout {
    static var byColumns: Bool { false }
}

/// Lines down the mask's columns.
enum ColumnLines: LineLayout {
    static var byColumns: Bool { true }
}

extension PixelPoint {
    /// The point with x and y exchanged: where a piece walked by columns has it.
    var swapped: PixelPoint { PixelPoint(x: y, y: x) }
}

/// How far (pixels, along the segment) a band reaches past the perpendicular at a joint. The
/// band and the cone beyond it are cut by the same line, but each works out its own side of it
/// with its own rounding: a pixel centre exactly on the line (integer and half-integer
/// coordinates, as tests and vector tiles have) could fall outside both and be left a hole, and
/// which side it falls on changed with the walking direction. Overlapping by far less than a
/// pixel covers it twice instead; there the band's distance (to the line) and the cone's (to the
/// vertex) differ by about overlap² / distance, nothing.
let jointOverlap = 1e-9

/// The rows clipped to the mask that have pixel centres in [low, high].
@inline(__always)
func rowRange(_ low: Double, _ high: Double, _ height: Int) -> (Int, Int)? {
    let first = max(0, ceilInt(low - 0.5)), last = min(height - 1, floorInt(high - 0.5))
    return first <= last ? (first, last) : nil
}

/// The points of the plane whose nearest point on segment ab is inside it: between the
/// perpendiculars at a and b. Distance: to the line.
struct BandPiece: StrokePiece {
    static var skipsFullPixels: Bool { false }
    /// The segment's ends, its unit direction and its length, in mask pixels.
    let a: PixelPoint, b: PixelPoint, ux: Double, uy: Double, length: Double
    // Reciprocals, so a row costs multiplications only (0 when the component is ~0).
    private let inverseUx: Double, inverseUy: Double

    /// The band of segment ab, whose unit direction is `direction`.
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
        // Along the segment: 0 ≤ (x − a.x)·ux + py·uy ≤ length, widened by `jointOverlap`.
        if inverseUx != 0 {
            let start = a.x + (-jointOverlap - py * uy) * inverseUx, end = a.x + (length + jointOverlap - py * uy) * inverseUx
            lo = smaller(start, end)
            hi = larger(start, end)
        } else if py * uy < -jointOverlap || py * uy > length + jointOverlap {
            return nil
        }
        // Across it: |py·ux − (x − a.x)·uy| ≤ radius.
        guard let outerSpan = across(py, lo, hi, radius: outer) else { return nil }
        return (outerSpan, inner > 0 ? across(py, lo, hi, radius: inner) : nil)
    }

    /// The part of [lo, hi] within `radius` of the segment's line, on the row `py` below a.
    @inline(__always)
    private func across(_ py: Double, _ lo: Double, _ hi: Double, radius: Double) -> (lo: Double, hi: Double)? {
        clipAcross(py, lo, hi, radius: radius, x: a.x, ux: ux, inverseUy: inverseUy)
    }

    @inline(__always)
    func distance(_ x: Double, _ yc: Double) -> Double { abs((yc - a.y) * ux - (x - a.x) * uy) }
}

/// The points whose nearest point on the route is the vertex v: the cone beyond the end of the
/// incoming segment and before the start of the outgoing one (q·in ≥ 0, q·out ≤ 0 for q = p − v),
/// a half-plane at an end of the route, everything for a lone point. Distance: to v.
struct ConePiece: StrokePiece {
    static var skipsFullPixels: Bool { true }
    /// The vertex, in mask pixels.
    let v: PixelPoint
    // The cone as q·c ≥ 0 for up to two vectors c (incoming, and the reverse of outgoing); a
    // missing one is (0, 0), which every q satisfies. Plain values, no optionals or arrays.
    private let c1x: Double, c1y: Double, c2x: Double, c2y: Double
    // The same constraints as a row sees them, worked out once per cone: a cone is walked for
    // about eleven rows with one or two pixels left to compute in each (the 2560×1920 bench:
    // 36,000 rows, 46,000 pixels), so its per-row cost is its cost. Each constraint is a lower
    // or an upper bound on x, `base + dy · slope` (an unused bound has base ∓1e300 and slope 0),
    // or, for a side along the x axis, a bound on dy itself. This replaced two divisions and
    // two three-way branches per row.
    private let lowBase1: Double, lowSlope1: Double, lowBase2: Double, lowSlope2: Double
    private let highBase1: Double, highSlope1: Double, highBase2: Double, highSlope2: Double
    private let dyLow: Double, dyHigh: Double

    /// Nil for a straight vertex, whose cone is only a line (the bands on both sides cover it).
    @inline(__always)
    init?(_ v: PixelPoint, incoming: PixelPoint?, outgoing: PixelPoint?) {
        if let incoming, let outgoing, incoming.x * outgoing.x + incoming.y * outgoing.y > 1 - 1e-12 { return nil }
        self.v = v
        c1x = incoming?.x ?? 0
        c1y = incoming?.y ?? 0
        c2x = -(outgoing?.x ?? 0)
        c2y = -(outgoing?.y ?? 0)
        // q·c ≥ 0 on the row dy: (x − v.x)·cx ≥ −dy·cy, a bound on x, or on dy where cx ≈ 0
        // (with the tolerance `contains` has).
        @inline(__always) func bound(_ cx: Double, _ cy: Double) -> (low: (Double, Double), high: (Double, Double), dy: (Double, Double)) {
            let none = (low: (-1e300, 0.0), high: (1e300, 0.0), dy: (-Double.infinity, Double.infinity))
            if cx > 1e-12 { return (low: (v.x, -cy / cx), high: none.high, dy: none.dy) }
            if cx < -1e-12 { return (low: none.low, high: (v.x, -cy / cx), dy: none.dy) }
            if cy > 0 { return (low: none.low, high: none.high, dy: (-1e-12 / cy, .infinity)) }
            if cy < 0 { return (low: none.low, high: none.high, dy: (-.infinity, -1e-12 / cy)) }
            return none
        }
        let first = bound(c1x, c1y), second = bound(c2x, c2y)
        (lowBase1, lowSlope1) = first.low
        (lowBase2, lowSlope2) = second.low
        (highBase1, highSlope1) = first.high
        (highBase2, highSlope2) = second.high
        dyLow = max(first.dy.0, second.dy.0)
        dyHigh = min(first.dy.1, second.dy.1)
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
        guard remaining >= 0, dy >= dyLow, dy <= dyHigh else { return nil }
        // The cone's sides, shared by both circles.
        let lo = larger(lowBase1 + dy * lowSlope1, lowBase2 + dy * lowSlope2)
        let hi = smaller(highBase1 + dy * highSlope1, highBase2 + dy * highSlope2)
        let half = remaining.squareRoot()
        let outerSpan = (lo: larger(v.x - half, lo), hi: smaller(v.x + half, hi))
        guard outerSpan.lo <= outerSpan.hi else { return nil }
        let innerRemaining = inner * inner - dy * dy
        guard inner > 0, innerRemaining >= 0 else { return (outerSpan, nil) }
        let innerHalf = innerRemaining.squareRoot()
        let innerSpan = (lo: larger(v.x - innerHalf, lo), hi: smaller(v.x + innerHalf, hi))
        return (outerSpan, innerSpan.lo <= innerSpan.hi ? innerSpan : nil)
    }

    @inline(__always)
    func distance(_ x: Double, _ yc: Double) -> Double {
        let dx = x - v.x, dy = yc - v.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// A segment's band with butt ends: like `BandPiece`, but at a capped end the stroke stops at
/// the perpendicular through the end point, anti-aliased across it. A pixel's coverage is the
/// across ramp (`clamp(r + 0.5 − d)`) times the along one: the part of the pixel's unit interval
/// along the segment, [t − 0.5, t + 0.5], that lies on the segment (exact for a stroke along an
/// axis, as the across ramp is). The band reaches half a pixel past a capped end and is full
/// only half a pixel inside it. An end that is a joint (not capped) is cut at the perpendicular
/// as a `BandPiece`'s, for the cone of the join.
struct ButtBandPiece: StrokePiece {
    static var skipsFullPixels: Bool { false }
    /// The segment's start, its unit direction and its length, in mask pixels.
    let a: PixelPoint, ux: Double, uy: Double, length: Double
    /// The writer's reach (r + 0.5): a partial pixel's distance is the one whose ramp is the
    /// across ramp times the along ramp.
    let reach: Double
    /// The along range within reach (outer) and the one of full pixels (inner).
    private let outerLow: Double, outerHigh: Double, innerLow: Double, innerHigh: Double
    /// Where along the segment the along ramp is cut: −∞ / +∞ at a joint.
    private let startCut: Double, endCut: Double
    private let inverseUx: Double, inverseUy: Double

    /// The band of segment ab (unit direction `direction`), butt-capped at the ends named.
    @inline(__always)
    init(_ a: PixelPoint, _ b: PixelPoint, direction: PixelPoint, capsStart: Bool, capsEnd: Bool, reach: Double) {
        self.a = a
        ux = direction.x
        uy = direction.y
        length = (b.x - a.x) * ux + (b.y - a.y) * uy
        self.reach = reach
        // A joint (an end not capped) overlaps the cone beyond it by `jointOverlap`.
        outerLow = capsStart ? -0.5 : -jointOverlap
        outerHigh = capsEnd ? length + 0.5 : length + jointOverlap
        innerLow = capsStart ? 0.5 : -jointOverlap
        innerHigh = capsEnd ? length - 0.5 : length + jointOverlap
        startCut = capsStart ? 0 : -.infinity
        endCut = capsEnd ? length : .infinity
        inverseUx = abs(ux) > 1e-12 ? 1 / ux : 0
        inverseUy = abs(uy) > 1e-12 ? 1 / uy : 0
    }

    @inline(__always)
    func rows(radius: Double, height: Int) -> (Int, Int)? {
        let y0 = a.y + outerLow * uy, y1 = a.y + outerHigh * uy
        let spread = radius * abs(ux)
        return rowRange(min(y0, y1) - spread, max(y0, y1) + spread, height)
    }

    @inline(__always)
    func intervals(_ yc: Double, inner: Double, outer: Double) -> (outer: (lo: Double, hi: Double), inner: (lo: Double, hi: Double)?)? {
        let py = yc - a.y
        guard let outerSpan = span(py, outerLow, outerHigh, radius: outer) else { return nil }
        guard inner > 0, innerLow <= innerHigh else { return (outerSpan, nil) }
        return (outerSpan, span(py, innerLow, innerHigh, radius: inner))
    }

    /// The x interval on the row `py` below a where low ≤ t ≤ high along and |across| ≤ radius.
    @inline(__always)
    private func span(_ py: Double, _ low: Double, _ high: Double, radius: Double) -> (lo: Double, hi: Double)? {
        var lo = -Double.infinity, hi = Double.infinity
        if inverseUx != 0 {
            let start = a.x + (low - py * uy) * inverseUx, end = a.x + (high - py * uy) * inverseUx
            lo = smaller(start, end)
            hi = larger(start, end)
        } else if py * uy < low || py * uy > high {
            return nil
        }
        return clipAcross(py, lo, hi, radius: radius, x: a.x, ux: ux, inverseUy: inverseUy)
    }

    @inline(__always)
    func distance(_ x: Double, _ yc: Double) -> Double {
        let across = abs((yc - a.y) * ux - (x - a.x) * uy)
        let t = (x - a.x) * ux + (yc - a.y) * uy
        let along = smaller(smaller(t + 0.5, endCut) - larger(t - 0.5, startCut), 1)
        guard along < 1 else { return across }
        // The across ramp clamped to 1 before it is scaled: past the interior it exceeds 1.
        return reach - smaller(reach - across, 1) * larger(along, 0)
    }
}

/// The part of [lo, hi] on the row `py` below a segment's start (at column `x`, direction (ux, uy),
/// `inverseUy` = 1 / uy or 0) within `radius` of the segment's line: |py·ux − (column − x)·uy| ≤
/// radius. Shared by the bands with round and with butt ends.
@inline(__always)
func clipAcross(_ py: Double, _ lo: Double, _ hi: Double, radius: Double, x: Double, ux: Double, inverseUy: Double) -> (lo: Double, hi: Double)? {
    var lo = lo, hi = hi
    if inverseUy != 0 {
        let near = x + (py * ux - radius) * inverseUy, far = x + (py * ux + radius) * inverseUy
        lo = larger(lo, smaller(near, far))
        hi = smaller(hi, larger(near, far))
    } else if abs(py * ux) > radius {
        return nil
    }
    return lo <= hi ? (lo, hi) : nil
}
