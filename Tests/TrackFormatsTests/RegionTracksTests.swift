import Testing
import TrackFormats
import TrackModel
import TrackSynthesis

/// The vector benchmark's tracks (`RegionTracks`): readable GPX loops that stay on the region's
/// map, the same for the same arguments.
@Suite struct RegionTracksTests {
    @Test func everyFixOfEveryKindStaysInsideLiechtensteinsBorder() throws {
        let files = RegionTracks.files(count: 8)
        #expect(files.count == 8)
        for file in files {
            let track = try TrackDecoder.decode(Array(file.contents.utf8))
            let fixes = track.segments.flatMap(\.fixes)
            #expect(fixes.count >= 900, "\(file.name): \(fixes.count) fixes")
            let outside = fixes.filter {
                !RegionTracks.contains(RegionTracks.liechtenstein, longitude: $0.longitudeDegrees, latitude: $0.latitudeDegrees)
            }
            #expect(outside.isEmpty, "\(file.name): \(outside.count) fixes outside, first \(String(describing: outside.first))")
        }
    }

    @Test func theOutlineHoldsVaduzAndLeavesOutTheSwissAndAustrianPartsOfItsBox() {
        #expect(RegionTracks.contains(RegionTracks.liechtenstein, longitude: 9.521, latitude: 47.141))  // Vaduz
        #expect(RegionTracks.contains(RegionTracks.liechtenstein, longitude: 9.600, latitude: 47.100))  // Malbun
        #expect(!RegionTracks.contains(RegionTracks.liechtenstein, longitude: 9.480, latitude: 47.130))  // Sevelen (CH), west of the Rhine
        #expect(!RegionTracks.contains(RegionTracks.liechtenstein, longitude: 9.620, latitude: 47.250))  // Feldkirch (AT)
    }

    @Test func aBoxOutlineContainsItsInsideOnly() {
        let box = RegionTracks.outline(boundsLonLat: [8.0, 46.0, 9.0, 47.0])
        #expect(RegionTracks.contains(box, longitude: 8.5, latitude: 46.5))
        #expect(!RegionTracks.contains(box, longitude: 9.1, latitude: 46.5))
        #expect(!RegionTracks.contains(box, longitude: 8.5, latitude: 45.9))
    }

    @Test func namesAreNumberedByKindAndUnique() {
        let names = RegionTracks.files(count: 5).map(\.name)
        #expect(names == ["region-000-walk.gpx", "region-001-run.gpx", "region-002-hike.gpx", "region-003-ride.gpx", "region-004-walk.gpx"])
    }

    @Test func theSameArgumentsGiveTheSameFilesAndAnotherSeedOthers() {
        let first = RegionTracks.files(count: 3).map(\.contents)
        let again = RegionTracks.files(count: 3).map(\.contents)
        let other = RegionTracks.files(count: 3, seed: 24).map(\.contents)
        #expect(first == again)
        #expect(first != other)
    }
}
