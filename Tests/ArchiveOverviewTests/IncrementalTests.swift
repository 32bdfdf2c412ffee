#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MapGeometry
import Testing

@testable import ArchiveOverview

/// A small wandering route near (47°N, 9.5°E), different for every `seed`, starting `offsetMeters` east.
private func wander(_ id: String, seed: Int, offsetMeters: Double = 0, start: Double? = nil) -> OverviewRoute {
    var points: [MercatorPoint] = []
    let origin = WebMercator.project(latitudeDegrees: 47, longitudeDegrees: 9.5)
    var x = origin.xMeters + offsetMeters * 1.466, y = origin.yMeters
    var heading = Double(seed)
    for step in 0..<200 {
        heading += sin(Double(step * (seed + 3))) * 0.6
        x += cos(heading) * 40
        y += sin(heading) * 40
        points.append(MercatorPoint(xMeters: x, yMeters: y))
    }
    let decoded = RouteCoding.decode(RouteCoding.encode([points]))!
    return OverviewRoute(id: id, segments: decoded, distanceMeters: 8000 + Double(seed), startTime: start ?? Double(seed) * 86_400)!
}

private func extent(_ route: OverviewRoute) -> TrackExtent { TrackExtent(id: route.id, bounds: route.bounds, startTime: route.startTime) }

private var smallOptions: OverviewOptions {
    var options = OverviewOptions()
    options.widthPoints = 400
    options.heightPoints = 300
    options.streetMetersPerPoint = 100  // pictures stay 400×300: fast in a debug build
    return options
}

@Suite struct IncrementalTests {
    @Test func routeTextRoundTripsToTheDecimetreAndRefusesDamage() {
        let segments = [
            [MercatorPoint(xMeters: 1_057_535.123, yMeters: 5_942_074.987), MercatorPoint(xMeters: 1_057_500.04, yMeters: 5_942_100.06)],
            [MercatorPoint(xMeters: -20_037_508.34, yMeters: -30.26)],
        ]
        let text = RouteCoding.encode(segments)
        let decoded = RouteCoding.decode(text)!
        #expect(decoded.count == 2 && decoded[0].count == 2 && decoded[1].count == 1)
        for (a, b) in zip(segments.flatMap { $0 }, decoded.flatMap { $0 }) {
            #expect(abs(a.xMeters - b.xMeters) <= 0.05 && abs(a.yMeters - b.yMeters) <= 0.05)
        }
        #expect(RouteCoding.encode(decoded) == text)
        #expect(RouteCoding.decode(text + "!") == nil)
        // The last character ends the last number: without it, a number is cut off or left unpaired.
        #expect(RouteCoding.decode(String(text.dropLast())) == nil)
    }

    @Test func aKeptStateReadsBackToTheSameCountsAndBytes() throws {
        let routes = (0..<6).map { wander("t\($0)", seed: $0) }
        let region = RegionOverview(routes: routes, options: smallOptions)
        let bytes = region.stateBytes()
        let restored = try #require(RegionOverview(stateBytes: bytes))
        #expect(restored.grids == region.grids)
        #expect(restored.members == region.members && restored.distanceMeters == region.distanceMeters && restored.frame == region.frame)
        #expect(restored.stateBytes() == bytes)
        #expect(bytes.count < region.memoryBytes / 20)
        // (Compared as Bools: a failure prints the value, and a region prints millions of counts.)
        let truncated = RegionOverview(stateBytes: Array(bytes.dropLast())) == nil
        #expect(truncated)
        let otherMagic = RegionOverview(stateBytes: [UInt8(ascii: "X")] + bytes.dropFirst()) == nil
        #expect(otherMagic)
    }

    @Test func aNewTrackInsideTheRegionIsAddedOnTheKeptCountsAndEqualsAColdRun() {
        let old = (0..<5).map { wander("t\($0)", seed: $0) }
        // The new track is one of the old ones shifted a little: inside the extent, so the frame stays.
        let new = OverviewRoute(id: "new", segments: old[2].segments, distanceMeters: 1234, startTime: 1e9)!
        let routes = Dictionary(uniqueKeysWithValues: (old + [new]).map { ($0.id, $0) })
        let before = OverviewAtlas.plan(old.map(extent), options: smallOptions)
        #expect(before.count == 1)
        let (kept, first) = OverviewAtlas.update(nil, to: before[0], scales: smallOptions.scales) { routes[$0] }
        #expect(first == .rebuilt)
        let after = OverviewAtlas.plan((old + [new]).map(extent), options: smallOptions)
        #expect(after[0].frame == before[0].frame && after[0].id == before[0].id)
        let (updated, how) = OverviewAtlas.update(kept, to: after[0], scales: smallOptions.scales) { routes[$0] }
        #expect(how == .incremental(added: 1, removed: 0))
        let (cold, _) = OverviewAtlas.update(nil, to: after[0], scales: smallOptions.scales) { routes[$0] }
        #expect(updated.stateBytes() == cold.stateBytes())
        // And taking it away again gives back the first state, byte for byte.
        let (removed, howRemoved) = OverviewAtlas.update(updated, to: before[0], scales: smallOptions.scales) { routes[$0] }
        #expect(howRemoved == .incremental(added: 0, removed: 1))
        #expect(removed.stateBytes() == kept.stateBytes())
        let (same, howSame) = OverviewAtlas.update(removed, to: before[0], scales: smallOptions.scales) { routes[$0] }
        #expect(howSame == .unchanged && same.stateBytes() == kept.stateBytes())
    }

    @Test func aTrackThatWidensTheRegionRedrawsItFromTheRoutes() {
        let old = (0..<3).map { wander("t\($0)", seed: $0) }
        let far = wander("far", seed: 9, offsetMeters: 6000)
        let routes = Dictionary(uniqueKeysWithValues: (old + [far]).map { ($0.id, $0) })
        let before = OverviewAtlas.plan(old.map(extent), options: smallOptions)
        let (kept, _) = OverviewAtlas.update(nil, to: before[0], scales: smallOptions.scales) { routes[$0] }
        let after = OverviewAtlas.plan((old + [far]).map(extent), options: smallOptions)
        #expect(after.count == 1 && after[0].frame != before[0].frame)
        let (updated, how) = OverviewAtlas.update(kept, to: after[0], scales: smallOptions.scales) { routes[$0] }
        #expect(how == .rebuilt)
        #expect(updated.trackCount == 4)
    }

    @Test func aRecordBoundingBoxAcrossTheAntimeridianIsOneShortExtent() throws {
        let extent = try #require(TrackExtent(id: "x", bboxDegrees: [179.9, -17, -179.9, -16.9], startTime: nil))
        #expect(extent.bounds.width > 0 && extent.bounds.width < 30_000)
        #expect(TrackExtent(id: "y", bboxDegrees: [1, 2, 3], startTime: nil) == nil)
    }

    @Test func theRegionIsNamedAfterItsOldestTrack() {
        let routes = [wander("b", seed: 1, start: 200), wander("a", seed: 2, start: 300), wander("c", seed: 3, start: 100)]
        #expect(OverviewAtlas.plan(routes.map(extent), options: smallOptions).map(\.id) == ["c"])
    }
}
