import ArchiveOverview
import StyleFile
import Testing

/// The style file's `overview` section: regions named by a box, read with their file names;
/// mistakes named with the file and key path; never part of the images' cache key.
@Suite struct OverviewSectionTests {
    private func settings(_ json: String) throws(StyleError) -> ThumbnailSettings { try readStyle(json) }

    private func error(_ json: String) -> String { styleError(json) }

    @Test func namedRegionsAreReadInOrderAndLeaveTheCacheKeyAlone() throws {
        let read = try settings(
            #"{"version": 1, "overview": {"regions": [{"name": "Zürich", "bounds": [8.4, 47.3, 8.7, 47.5]}, {"name": "Fiji", "bounds": [177, -19, -179, -16]}]}}"#
        )
        #expect(read.overviewRegions.map(\.name) == ["Zürich", "Fiji"])
        #expect(read.overviewRegions.map(\.slug) == ["z-rich", "fiji"])
        #expect(read.overviewRegions[1].boundsDegrees == [177, -19, -179, -16])
        #expect(read.fingerprint == ThumbnailSettings().fingerprint)
        #expect(try settings(#"{"version": 1, "overview": {}}"#).overviewRegions.isEmpty)
    }

    @Test func mistakesNameTheFileAndKeyPath() {
        let region = #"{"name": "A", "bounds": [8, 47, 9, 48]}"#
        #expect(error(#"{"version": 1, "overview": {"region": []}}"#).hasPrefix("style.json: overview.region: unknown key (expected one of regions)"))
        #expect(
            error(#"{"version": 1, "overview": {"regions": {}}}"#).hasPrefix("style.json: overview.regions: expected a list of at most 256 regions"))
        #expect(
            error(#"{"version": 1, "overview": {"regions": [{"bounds": [8, 47, 9, 48]}]}}"#)
                == "style.json: overview.regions[0].name: missing (the name the overview page shows)")
        #expect(
            error(#"{"version": 1, "overview": {"regions": [\#(region), {"name": " ", "bounds": [8, 47, 9, 48]}]}}"#)
                == #"style.json: overview.regions[1].name: expected a name of 1 to 100 characters, found " ""#)
        #expect(
            error(#"{"version": 1, "overview": {"regions": [{"name": "A", "bounds": [8, 47, 9]}]}}"#)
                .hasPrefix("style.json: overview.regions[0].bounds: expected [west, south, east, north] in degrees"))
        #expect(
            error(#"{"version": 1, "overview": {"regions": [{"name": "A", "bounds": [8, 47, 190, 48]}]}}"#)
                == "style.json: overview.regions[0].bounds[2]: expected a number from -180.0 to 180.0, found 190.0")
        #expect(
            error(#"{"version": 1, "overview": {"regions": [{"name": "A", "bounds": [8, 48, 9, 47]}]}}"#)
                == "style.json: overview.regions[0].bounds: south (48.0) must be below north (47.0)")
        #expect(
            error(#"{"version": 1, "overview": {"regions": [\#(region), {"name": "a!", "bounds": [1, 2, 3, 4]}]}}"#)
                == "style.json: overview.regions[1].name: 'a!' has the same file name ('a') as overview.regions[0].name; name it apart")
    }
}
