import MapGeometry
import Testing

@testable import MapTiles

/// Which tiles a source's declared bounds admit, and the tile address arithmetic.
struct TileCoverageTests {
    @Test func boundsPastTheWorldAreClampedToIt() {
        let clamped = TileCoverage.boundsClampedToWorld([-400, -91, 1e300, 89])
        #expect(clamped == [-180, -WebMercator.maximumLatitudeDegrees, 180, WebMercator.maximumLatitudeDegrees])
    }

    @Test(arguments: [[1.0, 2.0, 3.0], [10.0, 0.0, 5.0, 1.0], [0.0, 5.0, 1.0, 2.0], [0.0, 0.0, .nan, 1.0], [0.0, 0.0, .infinity, 1.0]])
    func boundsThatAreNotARectangleMeanNoCoverage(bounds: [Double]) {
        // A non-finite number is refused before any clamping: it never reaches an integer conversion.
        #expect(TileCoverage.boundsClampedToWorld(bounds) == nil)
        #expect(TileCoverage(boundsLonLat: bounds, zoom: 5) == nil)
    }

    @Test func liechtensteinsBoundsAtZoom14AdmitItsTilesOnly() throws {
        // Vaduz (47.14 N, 9.52 E) lies in tile 14/8625/5753; a tile of Zürich (8.54 E) does not.
        let coverage = try #require(TileCoverage(boundsLonLat: [9.47, 47.04, 9.64, 47.28], zoom: 14))
        #expect(coverage.contains(TileCoordinate(z: 14, x: 8625, y: 5753)))
        #expect(!coverage.contains(TileCoordinate(z: 14, x: 8580, y: 5737)))
    }

    @Test func aZoomOutsideZeroToThirtyHasNoCoverage() {
        #expect(TileCoverage(boundsLonLat: [0, 0, 1, 1], zoom: 31) == nil)
        #expect(TileCoverage(boundsLonLat: [0, 0, 1, 1], zoom: -1) == nil)
    }

    @Test func theTMSRowCountsFromTheSouth() {
        #expect(TileCoordinate(z: 0, x: 0, y: 0).tmsRow == 0)
        #expect(TileCoordinate(z: 3, x: 1, y: 0).tmsRow == 7)
        #expect(TileCoordinate(z: 14, x: 8625, y: 5753).tmsRow == 16383 - 5753)
        #expect(TileCoordinate(z: 14, x: 8625, y: 5753).description == "14/8625/5753")
    }

    @Test func aTracksReportsCombineIntoOne() throws {
        let reports = [
            BasemapReport(zoom: nil, problems: ["a", "b"]),
            BasemapReport(zoom: 12, tiles: 4, tilesAbsent: 1, attribution: "© OSM", problems: ["b", "c"]),
            BasemapReport(zoom: 13, tiles: 6, tilesFailed: 2, problems: ["d", "e", "f"]),
        ]
        let combined = try #require(BasemapReport.combined(reports))
        #expect(combined.zoom == 12)
        #expect(combined.tiles == 10 && combined.tilesAbsent == 1 && combined.tilesFailed == 2)
        #expect(combined.attribution == "© OSM")
        #expect(combined.problems == ["a", "b", "c", "d", "e"])
        #expect(BasemapReport.combined([]) == nil)
    }

    @Test func attributionsLoseTheirHTMLAndBidiControls() {
        #expect(TextForImage.plain("<a href=\"x\">&copy; OpenStreetMap</a>\u{202E} contributors") == "© OpenStreetMap contributors")
        var settings = BasemapSettings(source: "tiles.mbtiles")
        var description = TileSourceDescription()
        description.attribution = "© Source"
        #expect(settings.attribution(over: description) == "© Source")
        settings.attribution = ""
        #expect(settings.attribution(over: description) == nil)
        settings.attribution = "<b>Mine</b>"
        #expect(settings.attribution(over: description) == "Mine")
    }
}
