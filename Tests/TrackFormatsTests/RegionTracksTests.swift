import Testing
import TrackFormats
import TrackModel
import TrackSynthesis

/// The vector benchmark's tracks (`RegionTracks`): readable GPX loops that stay on the region's
/// map, the same for the same arguments.
@Suite struct RegionTracksTests {
    /// The Liechtenstein extract's extent: narrow (12 km east-west), so a loop easily leaves it.
    static let liechtenstein = [9.4711, 47.0477, 9.6362, 47.2713]

    @Test func everyFixOfEveryKindStaysInsideANarrowRegion() throws {
        let files = RegionTracks.files(boundsLonLat: Self.liechtenstein, count: 8)
        #expect(files.count == 8)
        for file in files {
            let track = try TrackDecoder.decode(Array(file.contents.utf8))
            let fixes = track.segments.flatMap(\.fixes)
            #expect(fixes.count >= 900, "\(file.name): \(fixes.count) fixes")
            let outside = fixes.filter {
                $0.longitudeDegrees < Self.liechtenstein[0] || $0.longitudeDegrees > Self.liechtenstein[2]
                    || $0.latitudeDegrees < Self.liechtenstein[1] || $0.latitudeDegrees > Self.liechtenstein[3]
            }
            #expect(outside.isEmpty, "\(file.name): \(outside.count) fixes outside, first \(String(describing: outside.first))")
        }
    }

    @Test func namesAreNumberedByKindAndUnique() {
        let names = RegionTracks.files(boundsLonLat: Self.liechtenstein, count: 5).map(\.name)
        #expect(names == ["region-000-walk.gpx", "region-001-run.gpx", "region-002-hike.gpx", "region-003-ride.gpx", "region-004-walk.gpx"])
    }

    @Test func theSameArgumentsGiveTheSameFilesAndAnotherSeedOthers() {
        let first = RegionTracks.files(boundsLonLat: Self.liechtenstein, count: 3).map(\.contents)
        let again = RegionTracks.files(boundsLonLat: Self.liechtenstein, count: 3).map(\.contents)
        let other = RegionTracks.files(boundsLonLat: Self.liechtenstein, count: 3, seed: 24).map(\.contents)
        #expect(first == again)
        #expect(first != other)
    }
}
