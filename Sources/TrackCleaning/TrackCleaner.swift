#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrackModel

/// Drops fixes that would draw lies: invalid coordinates, exact repeats, and teleport spikes.
/// Segments left empty are removed. Pure: a track in, a cleaned track and a report out.
public enum TrackCleaner {
    /// Cleans every segment of `track`.
    public static func clean(_ track: Track, options: CleaningOptions = CleaningOptions()) -> (track: Track, report: CleaningReport) {
        var report = CleaningReport()
        var segments = track.segments.map { segment in
            TrackSegment(fixes: dropInvalidAndRepeats(segment.fixes, options, &report))
        }
        // Step lengths between neighbours are computed once and used twice: for the thresholds
        // and for the neighbour tests of the spike pass.
        let steps = segments.map { segment in
            segment.fixes.indices.dropFirst().map { SpikeThresholds.stepMeters(segment.fixes[$0 - 1], segment.fixes[$0]) }
        }
        let thresholds = SpikeThresholds(segments, steps: steps, options)
        segments = zip(segments, steps).map { TrackSegment(fixes: dropSpikes($0.fixes, steps: $1, thresholds, &report)) }
        var cleaned = track
        cleaned.segments = segments.filter { !$0.fixes.isEmpty }
        return (cleaned, report)
    }

    private static func dropInvalidAndRepeats(_ fixes: [Fix], _ options: CleaningOptions, _ report: inout CleaningReport) -> [Fix] {
        var kept: [Fix] = []
        kept.reserveCapacity(fixes.count)
        var latestTime = -Double.infinity
        for var fix in fixes {
            let lat = fix.latitudeDegrees
            let lon = fix.longitudeDegrees
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180,
                !(options.dropNullIsland && lat == 0 && lon == 0)
            else {
                report.invalid += 1
                continue
            }
            // A corrupt elevation or time loses only that value, not the position.
            if !fix.elevationMeters.isFinite || abs(fix.elevationMeters) > 20_000 { fix.elevationMeters = .nan }
            if !fix.timeSeconds.isFinite { fix.timeSeconds = .nan }
            // An impossible time (1970, 9999) or one running backwards would give a date of
            // 1970, a duration of 70 million hours, or a moving time of 0: the time goes, the
            // position stays, and the render info counts it.
            if !fix.timeSeconds.isNaN {
                if !options.plausibleTimes.contains(fix.timeSeconds) || fix.timeSeconds < latestTime {
                    fix.timeSeconds = .nan
                    report.timesDropped += 1
                } else {
                    latestTime = fix.timeSeconds
                }
            }
            if let last = kept.last, last == fix {
                report.duplicates += 1
                continue
            }
            kept.append(fix)
        }
        return kept
    }

    /// Removes single-fix excursions: a fix far from both neighbours while the neighbours are
    /// close to each other (or, at a segment end, far from the one neighbour that is itself in line).
    /// `steps[k]` is the length from fix k to fix k+1.
    private static func dropSpikes(_ fixes: [Fix], steps: [Double], _ thresholds: SpikeThresholds, _ report: inout CleaningReport) -> [Fix] {
        guard fixes.count >= 3 else { return fixes }
        var kept: [Fix] = []
        kept.reserveCapacity(fixes.count)
        let n = fixes.count
        var previousIndex = -1  // index in `fixes` of the last kept fix
        // A jump between fixes i and j, reusing the neighbour step when they are adjacent.
        func isJump(_ i: Int, _ j: Int) -> Bool {
            j == i + 1 ? thresholds.isJump(fixes[i], fixes[j], meters: steps[i]) : thresholds.isJump(fixes[i], fixes[j])
        }
        for i in 0..<n {
            let hasNext = i + 1 < n
            var isSpike = false
            if previousIndex >= 0, hasNext {
                isSpike = isJump(previousIndex, i) && isJump(i, i + 1) && !isJump(previousIndex, i + 1)
            } else if previousIndex < 0, hasNext, i + 2 < n {
                isSpike = isJump(i, i + 1) && !isJump(i + 1, i + 2)
            } else if previousIndex >= 0, !hasNext, kept.count >= 2 {
                isSpike = isJump(previousIndex, i) && !thresholds.isJump(kept[kept.count - 2], kept[kept.count - 1])
            }
            if isSpike {
                report.spikes += 1
            } else {
                kept.append(fixes[i])
                previousIndex = i
            }
        }
        return kept
    }
}

/// The speed and distance above which a step between two fixes counts as a jump for one track.
struct SpikeThresholds {
    var speedMetersPerSecond: Double
    var distanceMeters: Double

    init(_ segments: [TrackSegment], steps: [[Double]], _ options: CleaningOptions) {
        var speeds: [Double] = []
        var distances: [Double] = []
        for (segment, segmentSteps) in zip(segments, steps) where segment.fixes.count >= 2 {
            for k in 1..<segment.fixes.count {
                let a = segment.fixes[k - 1], b = segment.fixes[k]
                let distance = segmentSteps[k - 1]
                distances.append(distance)
                let dt = b.timeSeconds - a.timeSeconds
                if dt > 0 { speeds.append(distance / dt) }
            }
        }
        speedMetersPerSecond = max(options.minimumSpikeSpeedMetersPerSecond, options.spikeSpeedFactor * Self.percentile90(&speeds))
        distanceMeters = max(options.minimumSpikeDistanceMeters, options.spikeDistanceFactor * Self.percentile90(&distances))
    }

    /// Whether going from `a` to `b` is faster (or, without times, longer) than the track allows.
    func isJump(_ a: Fix, _ b: Fix) -> Bool {
        isJump(a, b, meters: Self.stepMeters(a, b))
    }

    /// The same, with the distance already known.
    @inline(__always)
    func isJump(_ a: Fix, _ b: Fix, meters distance: Double) -> Bool {
        let dt = b.timeSeconds - a.timeSeconds
        if dt > 0 { return distance / dt > speedMetersPerSecond }
        return distance > distanceMeters
    }

    /// Equirectangular distance: within 0.5% of the great circle for steps under 100 km, which is
    /// all a threshold comparison needs, at a third of the haversine's cost.
    @inline(__always)
    static func stepMeters(_ a: Fix, _ b: Fix) -> Double {
        let radians = Double.pi / 180
        var dLon = b.longitudeDegrees - a.longitudeDegrees
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let x = dLon * radians * cos((a.latitudeDegrees + b.latitudeDegrees) * (radians / 2))
        let y = (b.latitudeDegrees - a.latitudeDegrees) * radians
        return GreatCircle.earthRadiusMeters * (x * x + y * y).squareRoot()
    }

    private static func percentile90(_ values: inout [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let index = min(values.count - 1, values.count * 9 / 10)
        // Selection instead of a full sort: O(n) on average for a million steps.
        return values.withUnsafeMutableBufferPointer { select($0, index) }
    }

    /// The `k`-th smallest of `values` (which hold no NaN), rearranging them: Floyd and Rivest's
    /// selection. A random pivot lands anywhere and a 90th percentile then takes about 3.4 n
    /// comparisons; here a range over 600 values first selects within a small sample around
    /// the expected position, so the pivot lands next to the `k`-th value and one partition
    /// of the whole range is nearly all the work (5% of an 18,000-fix track's time before).
    private static func select(_ values: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var left = 0, right = values.count - 1
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1), i = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i < n / 2 ? -1 : 1)
                let sampleLeft = max(left, Int(Double(k) - i * s / n + sd))
                let sampleRight = min(right, Int(Double(k) + (n - i) * s / n + sd))
                _ = select(UnsafeMutableBufferPointer(rebasing: values[sampleLeft...sampleRight]), k - sampleLeft)
            }
            // Partition around values[k], with the range's ends as sentinels.
            let pivot = values[k]
            var i = left, j = right
            values.swapAt(left, k)
            if values[right] > pivot { values.swapAt(right, left) }
            while i < j {
                values.swapAt(i, j)
                i += 1
                j -= 1
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
            }
            if values[left] == pivot {
                values.swapAt(left, j)
            } else {
                j += 1
                values.swapAt(j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
        return values[k]
    }
}
