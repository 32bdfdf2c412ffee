import MapGeometry

/// Cuts polylines into their dashes by arc length, keeping its place in the pattern between calls:
/// the phase runs on across vertices and from one call to the next, so the pieces of one line
/// (in order) are dashed as the whole line would be. Use one walker per line.
///
/// The dashes are polylines for `StrokeRasterizer` (round caps, which reach half the width past a
/// dash's end) or `ButtStroker` (butt caps, MapLibre's default). A zero-length "on" length gives
/// a one-point dash (a dot with round caps, nothing with butt caps).
///
/// Work: O(vertices + dashes inside `visible`): a segment's stretches outside the visible
/// rectangle are skipped in one step, whatever their length and however short the period.
public struct DashWalker: Sendable {
    /// The pattern being walked.
    public let pattern: DashPattern
    /// Index of the current length in `pattern.lengthsPixels` (even: drawn, odd: skipped).
    public private(set) var index = 0
    /// What is left of the current length, in pixels.
    public private(set) var remainingPixels: Double

    /// A walker at the start of `pattern`, moved on by `phasePixels` along it.
    public init(pattern: DashPattern, phasePixels: Double = 0) {
        self.pattern = pattern
        remainingPixels = pattern.lengthsPixels.first ?? 0
        if phasePixels > 0 { skip(phasePixels) }
    }

    /// Appends the dashes of `polyline` to `dashes`, continuing the pattern from the previous call.
    /// Only the dashes within `visible` (grow the canvas or tile square by the stroke's reach) are
    /// produced; the pattern still advances along the rest. A solid pattern appends the polyline.
    public mutating func dash(_ polyline: [PixelPoint], visible: PixelRect, into dashes: inout [[PixelPoint]]) {
        guard !pattern.isSolid else {
            dashes.append(contentsOf: RectangleClip.clip(polyline: polyline, to: visible))
            return
        }
        var current: [PixelPoint] = []
        for segment in polyline.indices.dropFirst() {
            let a = polyline[segment - 1], b = polyline[segment]
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            guard length > 0, length.isFinite else { continue }
            guard let (enter, _, leave, _) = RectangleClip.visibleInterval(a, b, visible) else {
                close(&current, into: &dashes)
                skip(length)
                continue
            }
            if enter > 0 {
                close(&current, into: &dashes)
                skip(enter * length)
            }
            walk(a, b, length, from: enter * length, to: leave * length, &current, &dashes)
            if leave < 1 {
                close(&current, into: &dashes)
                skip((1 - leave) * length)
            }
        }
        close(&current, into: &dashes)
    }

    /// Moves the walker `pixels` along the pattern without producing dashes, in O(pattern length).
    public mutating func skip(_ pixels: Double) {
        guard pattern.periodPixels > 0, pixels > 0 else { return }
        let lengths = pattern.lengthsPixels
        var distance = pixels
        if distance >= remainingPixels {
            distance -= remainingPixels
            index = (index + 1) % lengths.count
            // Whole periods are skipped at once, so a long skip costs the same as a short one.
            distance = distance.truncatingRemainder(dividingBy: pattern.periodPixels)
            while distance >= lengths[index] {
                distance -= lengths[index]
                index = (index + 1) % lengths.count
            }
            remainingPixels = lengths[index]
        }
        remainingPixels -= distance
    }

    /// Walks a → b from `start` to `end` pixels along it, extending and closing dashes.
    private mutating func walk(
        _ a: PixelPoint, _ b: PixelPoint, _ length: Double, from start: Double, to end: Double,
        _ current: inout [PixelPoint], _ dashes: inout [[PixelPoint]]
    ) {
        let lengths = pattern.lengthsPixels
        @inline(__always) func at(_ distance: Double) -> PixelPoint {
            let t = distance / length
            return PixelPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
        var position = start
        while true {
            let drawing = index % 2 == 0
            if drawing && current.isEmpty { current.append(at(position)) }
            let step = min(remainingPixels, end - position)
            position += step
            remainingPixels -= step
            if drawing && step > 0 { current.append(position >= length ? b : at(position)) }
            guard remainingPixels <= 0 else { break }
            if drawing { close(&current, into: &dashes) }
            index = (index + 1) % lengths.count
            remainingPixels = lengths[index]
            if position >= end && remainingPixels > 0 { break }
        }
    }

    private func close(_ current: inout [PixelPoint], into dashes: inout [[PixelPoint]]) {
        guard !current.isEmpty else { return }
        dashes.append(current)
        current = []
    }
}
