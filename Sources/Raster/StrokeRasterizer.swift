import MapGeometry

#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Road-width strokes with round joins and caps and analytic anti-aliasing.
///
/// A pixel's coverage is `clamp(r + 0.5 − d, 0, 1)`, where d is the exact distance from the pixel
/// centre to the nearest segment of the polyline. Taking the maximum over segments gives round
/// joins and caps for free (the union of capsules), and self-crossings are covered once, so a
/// translucent colour blended once per pixel never darkens where the route meets itself. The ramp
/// is a unit box filter across the edge: a straight stroke of width w sums to exactly w per column.
///
/// The route and its casing are filled together (the distance is computed once per pixel).
/// This is the hot loop; it works on raw pointers and stays in this file and its two slices (the
/// pieces, `StrokeRasterizer+Pieces.swift`, and the writers, `StrokeRasterizer+Writers.swift`).
public enum StrokeRasterizer {
    /// Adds the polylines' stroke (half width `radiusPixels`) to `mask`. A one-point polyline is a dot.
    /// Points are in canvas pixels; the mask's origin places it on the canvas. Without
    /// `roundCaps` each polyline ends in a butt cap at its end points (`ButtBandPiece`; joins stay
    /// round) and a one-point polyline draws nothing: MapLibre's default `line-cap`, and a dash's
    /// end. Default: round caps.
    public static func stroke(_ polylines: [[PixelPoint]], radiusPixels: Double, roundCaps: Bool = true, into mask: inout CoverageMask) {
        let area = Area(mask)
        let touched = mask.withBlockMarker { mask, marker in
            mask.values.withUnsafeMutableBufferPointer { values in
                rasterize(polylines, area, CoverageWriter(radius: radiusPixels, values: values.baseAddress!), marker: marker, roundCaps: roundCaps)
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

    /// A line's pixels within reach (`first...last`, empty when `first > last`) and those to
    /// fill (`fillFirst...fillLast`), as `walk` works them out a chunk of lines ahead.
    private struct LineColumns {
        /// Lines worked out at a time (a cone has about eleven, a band by rows or columns 4–24).
        static let chunk = 32
        // 32-bit: a chunk is 512 bytes of stack. Each is a column clipped to a line of the mask,
        // and an image is at most 32,768 pixels a side (`RenderOptions`).
        var first: Int32, last: Int32, fillFirst: Int32, fillLast: Int32
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
    /// Each piece is walked once, line by line (rows; columns for a band that crosses fewer of
    /// them, see `walksByColumns`), every band before every cone: its pixels within
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
        _ polylines: [[PixelPoint]], _ area: Area, _ writer: Writer, marker: BlockMarker = BlockMarker(blocks: nil, blockColumns: 0),
        roundCaps: Bool = true
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
                    if conePass && roundCaps {
                        walk(ConePiece(points[0], incoming: nil, outgoing: nil)!, writer, width, height, &touched, RowLines.self)
                    }
                    continue
                }
                var incoming: PixelPoint? = nil
                for index in points.indices {
                    let outgoing = index + 1 < points.count ? direction(points[index], points[index + 1]) : nil
                    if !conePass, index + 1 < points.count {
                        let capsStart = !roundCaps && index == 0, capsEnd = !roundCaps && index + 2 == points.count
                        let a = points[index], b = points[index + 1], along = outgoing!
                        let byColumns = walksByColumns(a, b, along, reach: writer.reach)
                        if capsStart || capsEnd {
                            if byColumns {
                                let piece = ButtBandPiece(
                                    a.swapped, b.swapped, direction: along.swapped, capsStart: capsStart, capsEnd: capsEnd, reach: writer.reach)
                                walk(piece, writer, width, height, &touched, ColumnLines.self)
                            } else {
                                let piece = ButtBandPiece(a, b, direction: along, capsStart: capsStart, capsEnd: capsEnd, reach: writer.reach)
                                walk(piece, writer, width, height, &touched, RowLines.self)
                            }
                        } else if byColumns {
                            walk(BandPiece(a.swapped, b.swapped, direction: along.swapped), writer, width, height, &touched, ColumnLines.self)
                        } else {
                            walk(BandPiece(a, b, direction: along), writer, width, height, &touched, RowLines.self)
                        }
                    }
                    if conePass, roundCaps || (incoming != nil && outgoing != nil),
                        let cone = ConePiece(points[index], incoming: incoming, outgoing: outgoing)
                    {
                        // Cones stay on rows: a cone is about as tall as wide, and walked by
                        // columns where taller (7% fewer instructions) it measured slower.
                        walk(cone, writer, width, height, &touched, RowLines.self)
                    }
                    incoming = outgoing
                }
            }
        }
        return touched.minX <= touched.maxX ? touched : nil
    }

    /// Whether segment ab's band (unit direction `along`) crosses fewer columns than rows within
    /// `reach`. A dense route's segments are much shorter than the stroke is wide (at 2560×1920
    /// the benchmark's run has 3,264 segments of 2.5 px on average under a 24 px stroke), so a
    /// band along x is 24 rows of 3 or 4 pixels, and a row's fixed cost (its two intervals, four
    /// roundings, the block map) is most of its cost: walked by columns, such a band is about
    /// four lines: the benchmark's bands cost 9.7 M instructions a render instead of 12.6 M
    /// (`callgrind`). Each pixel gets the same distance (the band's arithmetic is symmetric in x
    /// and y), and with `jointOverlap` the same pixels, even a centre exactly on a band's end,
    /// so it draws what a walk by rows draws (`aRouteAndItsMirrorAcrossTheDiagonalGiveMirroredMasks`).
    /// (Cones stay on rows: see `rasterize`.)
    @inline(__always)
    private static func walksByColumns(_ a: PixelPoint, _ b: PixelPoint, _ along: PixelPoint, reach: Double) -> Bool {
        let rows = abs(b.y - a.y) + 2 * reach * abs(along.x), columns = abs(b.x - a.x) + 2 * reach * abs(along.y)
        return columns < rows
    }

    private static func direction(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        return PixelPoint(x: dx / length, y: dy / length)
    }

    /// One piece's lines in one pass: the pixels within the interior radius are filled, the others
    /// within reach get their distance, and the writer keeps the larger value. The lines are the
    /// mask's rows, or its columns for a piece given with x and y swapped (`ColumnLines`).
    @inline(__always)
    private static func walk<Piece: StrokePiece, Writer: DistanceWriter, Lines: LineLayout>(
        _ piece: Piece, _ writer: Writer, _ width: Int, _ height: Int, _ touched: inout Touched, _ lines: Lines.Type
    ) {
        let reach = writer.reach, interior = writer.interiorRadius
        let (lineCount, lineLength) = Lines.byColumns ? (width, height) : (height, width)
        let lineStride = Lines.byColumns ? 1 : width, pixelStride = Lines.byColumns ? width : 1
        guard let (firstLine, lastLine) = piece.rows(radius: reach, height: lineCount) else { return }
        // The piece's extent (along its lines, and which lines), kept in registers and merged
        // into `touched` once.
        var minAlong = Int.max, maxAlong = Int.min, minLine = Int.max, maxLine = Int.min
        // Lines in chunks: first every line's columns (its intervals, square roots and roundings:
        // a chain of long latencies whose branches are predictable, so the processor overlaps
        // consecutive lines), then the writes, whose short runs of unpredictable length are
        // where it mispredicts. Interleaved, each line's chain started after the last line's
        // misprediction.
        withUnsafeTemporaryAllocation(of: LineColumns.self, capacity: LineColumns.chunk) { chunk in
            let columnsOf = chunk.baseAddress!
            var chunkFirst = firstLine
            while chunkFirst <= lastLine {
                let chunkLast = min(lastLine, chunkFirst &+ LineColumns.chunk &- 1)
                for line in chunkFirst...chunkLast {
                    let yc = Double(line) + 0.5
                    var found = LineColumns(first: 0, last: -1, fillFirst: 0, fillLast: -1)
                    if let spans = piece.intervals(yc, inner: interior, outer: reach), let (first, last) = columns(spans.outer, lineLength) {
                        found.first = Int32(truncatingIfNeeded: first)
                        found.last = Int32(truncatingIfNeeded: last)
                        if let inner = spans.inner, let (fullFirst, fullLast) = columns(inner, lineLength) {
                            found.fillFirst = Int32(truncatingIfNeeded: max(fullFirst, first))
                            found.fillLast = Int32(truncatingIfNeeded: min(fullLast, last))
                        }
                    }
                    columnsOf[line &- chunkFirst] = found
                }
                for line in chunkFirst...chunkLast {
                    let found = columnsOf[line &- chunkFirst]
                    let first = Int(found.first), last = Int(found.last)
                    guard first <= last else { continue }
                    let yc = Double(line) + 0.5
                    minAlong = min(minAlong, first)
                    maxAlong = max(maxAlong, last)
                    minLine = min(minLine, line)
                    maxLine = max(maxLine, line)
                    if Lines.byColumns {
                        touched.marker.mark(column: line, firstRow: first, lastRow: last)
                    } else {
                        touched.marker.mark(row: line, first: first, last: last)
                    }
                    let lineBase = line &* lineStride
                    let fillFirst = Int(found.fillFirst), fillLast = Int(found.fillLast)
                    if fillFirst <= fillLast {
                        edge(piece, writer, yc, lineBase, first, fillFirst &- 1, pixelStride)
                        if Lines.byColumns {
                            writer.fill(lineBase &+ fillFirst &* pixelStride, count: fillLast &- fillFirst &+ 1, stride: pixelStride)
                        } else {
                            writer.fill(lineBase &+ fillFirst, count: fillLast &- fillFirst &+ 1)
                        }
                        edge(piece, writer, yc, lineBase, fillLast &+ 1, last, pixelStride)
                    } else {
                        edge(piece, writer, yc, lineBase, first, last, pixelStride)
                    }
                }
                chunkFirst = chunkLast &+ 1
            }
        }
        if minLine <= maxLine {
            let (minX, maxX, minY, maxY) = Lines.byColumns ? (minLine, maxLine, minAlong, maxAlong) : (minAlong, maxAlong, minLine, maxLine)
            touched.minX = min(touched.minX, minX)
            touched.maxX = max(touched.maxX, maxX)
            touched.minY = min(touched.minY, minY)
            touched.maxY = max(touched.maxY, maxY)
        }
    }

    /// Distances for the pixels `first...last` of a line starting at mask offset `lineBase`
    /// whose pixels are `pixelStride` apart (none when `first > last`).
    @inline(__always)
    private static func edge<Piece: StrokePiece, Writer: DistanceWriter>(
        _ piece: Piece, _ writer: Writer, _ yc: Double, _ lineBase: Int, _ first: Int, _ last: Int, _ pixelStride: Int
    ) {
        var column = first, x = Double(first) + 0.5, index = lineBase &+ first &* pixelStride
        while column <= last {
            if Piece.skipsFullPixels && writer.isFull(index) {
                column &+= 1
                x += 1
                index &+= pixelStride
                continue
            }
            writer.write(index, distance: piece.distance(x, yc))
            column &+= 1
            x += 1
            index &+= pixelStride
        }
    }

    /// The pixels of a line (clipped to its `width` pixels) whose centres lie in an x interval.
    @inline(__always)
    private static func columns(_ interval: (lo: Double, hi: Double), _ width: Int) -> (Int, Int)? {
        let first = max(0, ceilInt(interval.lo - 0.5)), last = min(width - 1, floorInt(interval.hi - 0.5))
        return first <= last ? (first, last) : nil
    }
}

// Swift's `max(x, y)` is `y >= x ? y : x`: NaN and the order of equal values make it a
// four-instruction blend on x86-64 (`cmplesd`, `andpd`, `andnpd`, `orpd`), where these two are one
// `maxsd` or `minsd`. They differ from `max` and `min` only for NaN and for +0 against -0, which
// the stroke's finite coordinates and the floor and ceiling taken of them cannot tell apart
// (`callgrind`: a fifth of a band row's instructions were such blends).

/// The larger of two finite values (`maxsd`).
@inline(__always)
func larger(_ a: Double, _ b: Double) -> Double { a > b ? a : b }

/// The smaller of two finite values (`minsd`).
@inline(__always)
func smaller(_ a: Double, _ b: Double) -> Double { a < b ? a : b }

// `rounded(.down)` and `.up` call libm's floor/ceil through the PLT on baseline x86-64 (no
// SSE4.1 `roundsd`): a third of the per-row cost here. Values are clamped to ±2^52 first.
// (Reading the nearest integer from the bits of x + 1.5 · 2^52 instead, which drops the checks
// of `Int(_:)`, took fewer instructions but made the stroke 40% slower: a longer chain from the
// value to the column, through the integer unit and back.)

/// ⌊x⌋ as an Int, for |x| < 2^52 (larger values are clamped).
@inline(__always)
func floorInt(_ x: Double) -> Int {
    let clamped = smaller(larger(x, -4.5e15), 4.5e15)
    let truncated = truncatedInt(clamped)
    return truncated &- (Double(truncated) > clamped ? 1 : 0)
}

/// ⌈x⌉ as an Int, for |x| < 2^52 (larger values are clamped).
@inline(__always)
func ceilInt(_ x: Double) -> Int {
    let clamped = smaller(larger(x, -4.5e15), 4.5e15)
    let truncated = truncatedInt(clamped)
    return truncated &+ (Double(truncated) < clamped ? 1 : 0)
}

// `Int(_:)` of a Double checks that the value is finite and in range before its `cvttsd2si`: a
// mask, a compare and two `ucomisd` with their branches, about ten instructions a conversion, and
// the stroke converts four times a row (the columns of its two intervals) and twice an edge pixel
// (its two ramps). Every value converted here is clamped or bounded first, so the checks cannot
// fail; the SSE2 instruction alone (baseline x86-64) gives the same integer.

/// x truncated toward zero, for |x| < 2^63 (callers clamp or bound it first); without the checks
/// of `Int(_:)` on x86-64, where an out-of-range value gives Int.min instead of a trap.
@inline(__always)
func truncatedInt(_ x: Double) -> Int {
    #if arch(x86_64)
    return Int(_mm_cvttsd_si64(_mm_set_sd(x)))
    #else
    return Int(x)
    #endif
}
