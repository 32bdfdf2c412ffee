import MapGeometry
import TrackCleaning
import TrackModel

/// The route cut into quantized bands of speed or elevation along its length. Each step between
/// two consecutive fixes gets a band; consecutive steps of one band form one run (runs of
/// neighbouring bands share their boundary fix, so the line has no gap). Values are spread over
/// the bands between their 5th and 95th percentiles, so one GPS glitch does not squash the rest.
struct RouteBands {
    /// One polyline of one band.
    struct Run {
        /// Band index, 0 = slowest or lowest.
        var band: Int
        /// The run's points.
        var points: [MercatorPoint]
    }

    /// The runs, in route order.
    var runs: [Run]

    /// Cuts `projection` (the cleaned track `track` projected; same segments and fixes) into
    /// `count` bands; nil when the track lacks what `coloring` needs (times or elevations), in
    /// which case the route is drawn in one colour.
    init?(track: Track, projection: ProjectedTrack, coloring: RouteColoring, count: Int) {
        guard coloring != .single, count > 0 else { return nil }
        let values = track.segments.map { Self.stepValues($0.fixes, coloring: coloring) }
        let known = values.flatMap { $0 }.filter { !$0.isNaN }.sorted()
        guard !known.isEmpty else { return nil }
        let low = known[Int(Double(known.count - 1) * 0.05)], high = known[Int(Double(known.count - 1) * 0.95)]
        func band(_ value: Double) -> Int {
            guard high > low else { return count / 2 }
            return min(count - 1, max(0, Int(((value - low) / (high - low) * Double(count)).rounded(.down))))
        }
        runs = []
        for (segment, steps) in zip(projection.segments, values) {
            guard segment.count > 1 else {
                if let only = segment.first { runs.append(Run(band: count / 2, points: [only])) }
                continue
            }
            // A step without a value (no time, no elevation) continues the band before it.
            var previous = steps.first { !$0.isNaN }.map(band) ?? count / 2
            var raw: [Int] = []
            raw.reserveCapacity(steps.count)
            for value in steps {
                previous = value.isNaN ? previous : band(value)
                raw.append(previous)
            }
            let smoothed = Self.median(raw, radius: Self.bandMedianRadius)
            var current = Run(band: smoothed[0], points: [segment[0]])
            for (index, stepBand) in smoothed.enumerated() {
                if stepBand != current.band {
                    runs.append(current)
                    current = Run(band: stepBand, points: [segment[index]])
                }
                current.points.append(segment[index + 1])
            }
            runs.append(current)
        }
    }

    /// Each value replaced by the median of those within `radius` of it.
    static func median(_ values: [Int], radius: Int) -> [Int] {
        guard values.count > 2, radius > 0 else { return values }
        return values.indices.map { index in
            let window = values[max(0, index - radius)...min(values.count - 1, index + radius)].sorted()
            return window[window.count / 2]
        }
    }

    /// Seconds of track either side of a step that its speed is averaged over.
    static let halfWindowSeconds = 30.0
    /// Steps either side whose bands vote for a step's band (a median), so a lone step never
    /// changes colour for a few pixels.
    static let bandMedianRadius = 3

    /// One value per step (fixes.count − 1): the speed over the track within `halfWindowSeconds`
    /// around it (m/s), or the mean elevation of its two fixes. NaN when unknown.
    static func stepValues(_ fixes: [Fix], coloring: RouteColoring) -> [Double] {
        guard fixes.count > 1 else { return [] }
        let stepCount = fixes.count - 1
        switch coloring {
        case .single:
            return []
        case .elevation:
            return (0..<stepCount).map { k in
                let a = fixes[k], b = fixes[k + 1]
                switch (a.hasElevation, b.hasElevation) {
                case (true, true): return (a.elevationMeters + b.elevationMeters) / 2
                case (true, false): return a.elevationMeters
                case (false, true): return b.elevationMeters
                case (false, false): return .nan
                }
            }
        case .speed:
            // Speed over the fixes within `halfWindowSeconds` either side of the step: per-fix GPS
            // jitter would otherwise flicker between bands every few metres.
            var along = [Double](repeating: 0, count: fixes.count)
            for k in 1..<fixes.count { along[k] = along[k - 1] + GreatCircle.distanceMeters(fixes[k - 1], fixes[k]) }
            var low = 0, high = 0
            return (0..<stepCount).map { k in
                let start = fixes[k].timeSeconds, end = fixes[k + 1].timeSeconds
                guard start.isFinite, end.isFinite else { return .nan }
                while low < k, !(fixes[low].timeSeconds >= start - halfWindowSeconds) { low += 1 }
                high = max(high, k + 1)
                while high + 1 < fixes.count, fixes[high + 1].timeSeconds <= end + halfWindowSeconds { high += 1 }
                let seconds = fixes[high].timeSeconds - fixes[low].timeSeconds
                return seconds > 0 ? (along[high] - along[low]) / seconds : .nan
            }
        }
    }
}
