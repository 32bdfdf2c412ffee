import MapGeometry
import Testing

@testable import ArchiveOverview

/// Regions named by a box: a track whose extent's centre is in the box joins it however far
/// from the others, the rest are grouped as before; names become file names that cannot be
/// taken for an automatic region's.
@Suite struct NamedRegionTests {
    /// A track of about 2 km east from (`latitude`, `longitude`).
    private func extent(_ id: String, latitude: Double, longitude: Double, start: Double) -> TrackExtent {
        TrackExtent(id: id, bboxDegrees: [longitude, latitude, longitude + 0.03, latitude + 0.01], startTime: start)!
    }

    @Test func tracksInANamedBoxJoinItAndTheOthersAreGroupedAutomatically() {
        var options = OverviewOptions()
        // A box over both Zürich and Winterthur (20 km apart), and one over nothing.
        options.namedRegions = [
            NamedRegion(name: "Zürich and around", boundsDegrees: [8.3, 47.2, 8.9, 47.6]), NamedRegion(name: "Empty", boundsDegrees: [0, 0, 1, 1]),
        ]
        let tracks = [
            extent("a-zurich", latitude: 47.37, longitude: 8.53, start: 30), extent("b-winterthur", latitude: 47.5, longitude: 8.72, start: 20),
            // Its centre is outside the box (it starts inside): grouped automatically, with its neighbour.
            extent("c-edge", latitude: 47.59, longitude: 8.89, start: 10), extent("d-near-edge", latitude: 47.62, longitude: 8.95, start: 5),
            extent("e-vienna", latitude: 48.2, longitude: 16.37, start: 1),
        ]
        let plans = OverviewAtlas.plan(tracks, options: options)
        #expect(plans.map(\.members) == [["a-zurich", "b-winterthur"], ["c-edge", "d-near-edge"], ["e-vienna"]])
        #expect(plans.map { $0.named?.name } == ["Zürich and around", nil, nil])
        // Its id stays its oldest track's; its frame is fitted to its tracks, not to the box.
        #expect(plans[0].id == "b-winterthur")
        #expect(plans[0].frame == RegionFrame(fitting: union(tracks[0].bounds, tracks[1].bounds), options: options))
        // Without names the same tracks group by distance alone: Zürich, Winterthur and the edge are one chain.
        let automatic = OverviewAtlas.plan(tracks, options: OverviewOptions())
        #expect(automatic.map(\.members) == [["a-zurich", "b-winterthur", "c-edge", "d-near-edge"], ["e-vienna"]])
    }

    @Test func aBoxAcrossTheAntimeridianHoldsTracksOnBothSides() {
        let fiji = NamedRegion(name: "Fiji", boundsDegrees: [177, -19, -179, -16])
        #expect(fiji.contains(WebMercator.project(latitudeDegrees: -17, longitudeDegrees: 178)))
        #expect(fiji.contains(WebMercator.project(latitudeDegrees: -17, longitudeDegrees: -179.5)))
        // A track across the line has its extent's east side unwrapped past 180°.
        #expect(fiji.contains(WebMercator.project(latitudeDegrees: -17, longitudeDegrees: 180.5)))
        #expect(!fiji.contains(WebMercator.project(latitudeDegrees: -17, longitudeDegrees: 170)))
        #expect(!fiji.contains(WebMercator.project(latitudeDegrees: -20, longitudeDegrees: 178)))
    }

    @Test func namesBecomeFileNamesUnlikeAnAutomaticRegionsName() {
        #expect(NamedRegion.slug("Zürich Nord") == "z-rich-nord")
        #expect(NamedRegion.slug("  The Alps (2020–2024)! ") == "the-alps-2020-2024")
        #expect(NamedRegion.slug("東京") == "region")
        #expect(NamedRegion.slug("DEADBEEF00112233") == "deadbeef00112233-region")
    }

    @Test func aThumbnailIsTheListingsSizeForAFrameOfAnySize() {
        let options = OverviewOptions()
        for (width, height) in [(1280, 960), (960, 1280), (2115, 1586)] {
            let frame = RegionFrame(
                widthPoints: width, heightPoints: height, mapRect: MapRect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height)),
                latitudeDegrees: 0)
            let sizes = options.thumbnailScales(for: frame).map { frame.viewport(scale: $0) }.map { [$0.widthPixels, $0.heightPixels] }
            #expect(sizes.map { Set($0) } == [[320, 240], [640, 480]], "\(width)×\(height): \(sizes)")
        }
    }
}
