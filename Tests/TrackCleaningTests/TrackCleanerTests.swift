import Testing
import TrackModel
@testable import TrackCleaning

/// A straight line of fixes going north, `stepMeters` apart, one per second.
private func straightRun(count: Int, stepMeters: Double = 3, start: Double = 1_700_000_000) -> [Fix] {
    (0..<count).map { index in
        Fix(
            latitudeDegrees: 47 + Double(index) * stepMeters / 111_195, longitudeDegrees: 8,
            elevationMeters: 400, timeSeconds: start + Double(index))
    }
}

@Suite struct TrackCleanerTests {
    /// A track alternating 1970 and 9999, and one running backwards (issue 13, item 5): their
    /// times go (counted), the positions stay, and no duration of 70 million hours is computed.
    @Test func implausibleAndBackwardTimesAreDroppedAndCounted() {
        var fixes = straightRun(count: 10)
        for index in stride(from: 0, to: 10, by: 2) { fixes[index].timeSeconds = 0 }  // 1970-01-01
        for index in stride(from: 1, to: 10, by: 2) { fixes[index].timeSeconds = 253_402_300_799 }  // 9999-12-31
        let (cleaned, report) = TrackCleaner.clean(Track(format: .gpx, segments: [TrackSegment(fixes: fixes)]))
        #expect(cleaned.fixCount == 10 && report.timesDropped == 10 && report.total == 0)
        #expect(cleaned.segments[0].fixes.allSatisfy { $0.timeSeconds.isNaN })
        let stats = TrackStatistics.stats(of: cleaned, options: CleaningOptions())
        #expect(stats.durationSeconds == nil && stats.startTimeSeconds == nil)

        var backwards = straightRun(count: 6)
        backwards[3].timeSeconds -= 100  // earlier than the fix before it
        let (kept, backwardReport) = TrackCleaner.clean(Track(format: .gpx, segments: [TrackSegment(fixes: backwards)]))
        #expect(backwardReport.timesDropped == 1 && kept.segments[0].fixes[3].timeSeconds.isNaN)
        let moving = TrackStatistics.stats(of: kept, options: CleaningOptions())
        #expect((moving.movingSeconds ?? 0) > 0 && moving.durationSeconds == 5)
    }

    @Test func dropsInvalidCoordinatesAndCountsThem() {
        var fixes = straightRun(count: 10)
        fixes.insert(Fix(latitudeDegrees: .nan, longitudeDegrees: 8), at: 2)
        fixes.insert(Fix(latitudeDegrees: 91, longitudeDegrees: 8), at: 3)
        fixes.insert(Fix(latitudeDegrees: 47, longitudeDegrees: 1e308), at: 4)
        fixes.insert(Fix(latitudeDegrees: 0, longitudeDegrees: 0), at: 0)
        let (track, report) = TrackCleaner.clean(Track(format: .gpx, segments: [TrackSegment(fixes: fixes)]))
        #expect(report.invalid == 4)
        #expect(track.fixCount == 10)
    }

    @Test func dropsExactRepeatsOnly() {
        var fixes = straightRun(count: 10)
        fixes.insert(fixes[5], at: 6)
        var sameSpotLater = fixes[8]
        sameSpotLater.timeSeconds += 0.5
        fixes.insert(sameSpotLater, at: 9)  // standing still is not a repeat
        let (track, report) = TrackCleaner.clean(Track(format: .gpx, segments: [TrackSegment(fixes: fixes)]))
        #expect(report.duplicates == 1)
        #expect(track.fixCount == 11)
    }

    @Test func dropsTeleportSpikesInTheMiddleAndAtTheEnds() {
        var fixes = straightRun(count: 200)
        fixes[50].latitudeDegrees += 0.05  // 5.5 km away for one second
        fixes[0].longitudeDegrees += 0.1
        fixes[199].longitudeDegrees -= 0.1
        let (track, report) = TrackCleaner.clean(Track(format: .gpx, segments: [TrackSegment(fixes: fixes)]))
        #expect(report.spikes == 3)
        #expect(track.fixCount == 197)
        #expect(!track.segments[0].fixes.contains { $0.latitudeDegrees > 47.04 })
    }

    @Test func keepsAFastButSteadyTrack() {
        // A train at 80 m/s: fast, but every step alike, so nothing is a spike.
        let fixes = straightRun(count: 300, stepMeters: 80)
        let (_, report) = TrackCleaner.clean(Track(format: .gpx, segments: [TrackSegment(fixes: fixes)]))
        #expect(report.total == 0)
    }

    @Test func dropsSpikesWithoutTimesByDistance() {
        var fixes = straightRun(count: 100).map { Fix(latitudeDegrees: $0.latitudeDegrees, longitudeDegrees: $0.longitudeDegrees) }
        fixes[40].longitudeDegrees += 0.2
        let (_, report) = TrackCleaner.clean(Track(format: .csv, segments: [TrackSegment(fixes: fixes)]))
        #expect(report.spikes == 1)
    }

    @Test func removesSegmentsLeftEmpty() {
        let bad = TrackSegment(fixes: [Fix(latitudeDegrees: .infinity, longitudeDegrees: 0)])
        let (track, _) = TrackCleaner.clean(Track(format: .gpx, segments: [bad, TrackSegment(fixes: straightRun(count: 3))]))
        #expect(track.segments.count == 1)
    }
}

@Suite struct TrackStatisticsTests {
    @Test func distanceIsSummedWithinSegmentsOnly() {
        // One degree of latitude on the 6,378,137 m sphere is 111,319.49 m.
        let a = TrackSegment(fixes: [Fix(latitudeDegrees: 0, longitudeDegrees: 10), Fix(latitudeDegrees: 1, longitudeDegrees: 10)])
        let b = TrackSegment(fixes: [Fix(latitudeDegrees: 5, longitudeDegrees: 10), Fix(latitudeDegrees: 6, longitudeDegrees: 10)])
        let stats = TrackStatistics.stats(of: Track(format: .gpx, segments: [a, b]))
        #expect(abs(stats.distanceMeters - 2 * 111_319.49) < 0.1)
        #expect(stats.durationSeconds == nil && stats.elevationGainMeters == nil)
    }

    @Test func durationRunsFromFirstToLastTime() {
        let stats = TrackStatistics.stats(of: Track(format: .gpx, segments: [TrackSegment(fixes: straightRun(count: 61))]))
        #expect(stats.durationSeconds == 60)
        #expect(stats.startTimeSeconds == 1_700_000_000)
    }

    @Test func elevationGainIgnoresNoiseBelowTheHysteresis() {
        let elevations: [Double] = [100, 101, 100, 101.5, 100.5, 105, 104, 110, 90, 95]
        let fixes = elevations.enumerated().map {
            Fix(latitudeDegrees: 1 + Double($0.offset) * 1e-4, longitudeDegrees: 1, elevationMeters: $0.element)
        }
        let stats = TrackStatistics.stats(of: Track(format: .gpx, segments: [TrackSegment(fixes: fixes)]))
        // 100 → 105 (+5), → 110 (+5 from the 105 reference, after dipping to 104: 6), 90 → 95 (+5).
        #expect(stats.elevationGainMeters == 16)
    }

    /// The thresholds' 90th percentiles come from a selection that rearranges the steps; they must
    /// be what sorting gives, for short and long tracks, with ties and with the value repeated.
    @Test(arguments: [1, 2, 10, 601, 602, 5_000, 100_000])
    func spikeThresholdsAreTheSortedNinetiethPercentile(stepCount: Int) {
        var generator = SeededSteps(seed: UInt64(stepCount))
        // Whole metres so many steps tie; times one or two seconds apart.
        let steps = (0..<stepCount).map { _ in Double(generator.next() % 400) }
        var time = 1_700_000_000.0
        let fixes = (0...stepCount).map { _ in
            defer { time += Double(1 + generator.next() % 2) }
            return Fix(latitudeDegrees: 47, longitudeDegrees: 8, timeSeconds: time)
        }
        var options = CleaningOptions()
        options.minimumSpikeSpeedMetersPerSecond = 0
        options.minimumSpikeDistanceMeters = 0
        options.spikeSpeedFactor = 1
        options.spikeDistanceFactor = 1
        let thresholds = SpikeThresholds([TrackSegment(fixes: fixes)], steps: [steps], options)
        let speeds = steps.indices.map { steps[$0] / (fixes[$0 + 1].timeSeconds - fixes[$0].timeSeconds) }
        let index = min(stepCount - 1, stepCount * 9 / 10)
        #expect(thresholds.distanceMeters == steps.sorted()[index])
        #expect(thresholds.speedMetersPerSecond == speeds.sorted()[index])
    }
}

/// A small deterministic generator (SplitMix64) so a failing step list can be reproduced.
private struct SeededSteps {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
