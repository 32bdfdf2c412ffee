#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MapGeometry

/// Strokes with butt caps (MapLibre's default `line-cap`) and round joins, as filled outlines in an
/// `AreaAccumulator`: each segment is its rectangle, each turn the round wedge on its outer side.
///
/// `StrokeRasterizer` always draws round caps, which reach half the width past each end: harmless
/// where lines meet, but they close the gaps of dashed lines (a 1 px gap between dashes of a line
/// 1 px wide disappears), and a dead end is half a width too long. Here a dash ends where it ends.
///
/// All pieces are added with the same orientation, so where a segment's rectangle overlaps its
/// neighbour (the inner side of a turn) the sum is clamped to full coverage; edges the pieces share
/// (a rectangle's end and the next wedge's side) cancel exactly, leaving no seam. The pieces of
/// one stroke are resolved together; different strokes are resolved one by one (`stroke`), so
/// two roads crossing unite by maximum like `StrokeRasterizer`'s strokes instead of adding their
/// edge pixels.
public enum ButtStroker {
    /// Largest distance, in pixels, between a join's arc and the polygon drawn for it.
    static let arcTolerancePixels = 0.02

    /// Adds each polyline's butt-capped stroke (half width `radiusPixels`) to `mask` (union by
    /// maximum), through `accumulator` (the mask's frame size, empty; left empty). One-point and
    /// zero-length polylines draw nothing.
    public static func stroke(
        _ polylines: [[PixelPoint]], radiusPixels: Double, accumulator: inout AreaAccumulator, into mask: inout CoverageMask
    ) {
        for polyline in polylines {
            add(polyline, radiusPixels: radiusPixels, to: &accumulator)
            accumulator.resolve(into: &mask)
        }
    }

    /// Adds each stroke's butt-capped outline to `mask` (union by maximum between strokes), where
    /// a stroke is several polylines resolved together: the dashes of one line. Dashes of one line
    /// do not overlap (but at a hairpin, where their shared edge pixels add), and resolving a
    /// path's hundred dashes one by one cost more than drawing them (`perf`: the dashed path layer
    /// was 13 ms of a track's 45 ms of vector map).
    public static func stroke(
        strokes: [[[PixelPoint]]], radiusPixels: Double, accumulator: inout AreaAccumulator, into mask: inout CoverageMask
    ) {
        for stroke in strokes {
            for polyline in stroke { add(polyline, radiusPixels: radiusPixels, to: &accumulator) }
            accumulator.resolve(into: &mask)
        }
    }

    /// Adds one polyline's outline pieces to `accumulator` without resolving.
    public static func add(_ polyline: [PixelPoint], radiusPixels radius: Double, to accumulator: inout AreaAccumulator) {
        guard radius > 0, polyline.count >= 2 else { return }
        var incoming: (x: Double, y: Double)? = nil
        var piece: [PixelPoint] = []
        piece.reserveCapacity(8)
        for index in 1..<polyline.count {
            let a = polyline[index - 1], b = polyline[index]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 1e-9, length.isFinite else { continue }
            let direction = (x: dx / length, y: dy / length)
            let normal = PixelPoint(x: -direction.y * radius, y: direction.x * radius)
            if let incoming { addJoin(at: a, from: incoming, to: direction, radius: radius, &piece, &accumulator) }
            // The buffer is refilled, not replaced: a fresh array per segment was a heap allocation
            // per segment of every path and dash.
            piece.removeAll(keepingCapacity: true)
            piece.append(PixelPoint(x: a.x + normal.x, y: a.y + normal.y))
            piece.append(PixelPoint(x: b.x + normal.x, y: b.y + normal.y))
            piece.append(PixelPoint(x: b.x - normal.x, y: b.y - normal.y))
            piece.append(PixelPoint(x: a.x - normal.x, y: a.y - normal.y))
            addPositive(piece, &accumulator)
            incoming = direction
        }
    }

    /// The round wedge on the outer side of a turn at `vertex`, from the end of the incoming
    /// segment's rectangle to the start of the outgoing one's.
    private static func addJoin(
        at vertex: PixelPoint, from incoming: (x: Double, y: Double), to outgoing: (x: Double, y: Double), radius: Double,
        _ piece: inout [PixelPoint], _ accumulator: inout AreaAccumulator
    ) {
        let cross = incoming.x * outgoing.y - incoming.y * outgoing.x
        let dot = incoming.x * outgoing.x + incoming.y * outgoing.y
        let angle = atan2(abs(cross), dot)
        guard angle > 1e-6 else { return }
        // The outer side is opposite the turn: the normal (−y, x) side for a turn the other way.
        let side = cross > 0 ? -1.0 : 1.0
        let maximumStep = 2 * acos(max(1 - arcTolerancePixels / radius, -1))
        let steps = max(1, Int((angle / maximumStep).rounded(.up)))
        let turn = (cross > 0 ? 1.0 : -1.0) * angle / Double(steps)
        let (cosine, sine) = (cos(turn), sin(turn))
        var offset = (x: -incoming.y * radius * side, y: incoming.x * radius * side)
        piece.removeAll(keepingCapacity: true)
        piece.append(vertex)
        piece.append(PixelPoint(x: vertex.x + offset.x, y: vertex.y + offset.y))
        for _ in 0..<steps {
            offset = (offset.x * cosine - offset.y * sine, offset.x * sine + offset.y * cosine)
            piece.append(PixelPoint(x: vertex.x + offset.x, y: vertex.y + offset.y))
        }
        addPositive(piece, &accumulator)
    }

    /// Adds a piece with the orientation every other piece of the stroke gets.
    private static func addPositive(_ piece: [PixelPoint], _ accumulator: inout AreaAccumulator) {
        let orientation: Float = AreaAccumulator.signedArea(piece) < 0 ? -1 : 1
        _ = piece.withUnsafeBufferPointer { accumulator.add(ring: $0, orientation: orientation) }
    }
}
