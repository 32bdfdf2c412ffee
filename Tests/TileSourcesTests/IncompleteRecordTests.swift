import FileStore
import MapTiles
import SnapshotRendering
import BatchRun
import StyleFile
import Testing
import ThumbnailCache
import TileSources
import TrackSynthesis

/// Issue 21 item 2, the pieces under the run: a track drawn while tiles failed gets a record
/// marked incomplete with a cause shared by every such track; tiles absent by design (outside
/// the source's coverage) leave it complete.
struct IncompleteRecordTests {
    static let gpx = Array(SampleCatalog.benchmarkRun(fixCount: 60, seed: 3).utf8)

    private func renderer(_ root: String, source: String) -> ThumbnailRenderer {
        var settings = ThumbnailSettings()
        settings.images = [ImageSpec(widthPoints: 160, heightPoints: 120, scale: 1)]
        settings.options.basemap = BasemapSettings(source: source)
        return ThumbnailRenderer(root: root, settings: settings)
    }

    @Test func offlineWithAnEmptyCacheIsIncompleteAndSaysWhy() throws {
        let folder = try temporaryFolder("incomplete-offline")
        var opener = BasemapOpener(tileCacheDirectory: folder + "/cache")
        opener.offline = true
        let template = "http://127.0.0.1:9/{z}/{x}/{y}.png"
        let tiles = try opener.open(BasemapSettings(source: template))
        let renderer = renderer(folder + "/out", source: template), store = renderer.store
        try store.prepare()
        let key = store.key(forTrackBytes: Self.gpx)
        let (pngs, record) = try renderer.render(trackBytes: Self.gpx, fileName: "run.gpx", key: key, tiles: tiles)
        #expect(record.incomplete == "offline, not in the tile cache", "\(String(describing: record.basemap))")
        try store.publish(key: key, pngs: pngs, record: record)
        #expect(store.isPublished(key) && store.isIncomplete(key) && !store.isComplete(key))
        #expect(store.record(key)?.incomplete == "offline, not in the tile cache")
    }

    @Test func tilesOutsideTheCoverageLeaveItComplete() throws {
        let folder = try temporaryFolder("incomplete-coverage")
        // Tiles for a corner of the view only: the rest is absent by design.
        let path = folder + "/corner.mbtiles"
        try TileSetMaker.writeMBTiles(path, kind: .position, boundsLonLat: [2.30, 48.83, 2.31, 48.84], zooms: 10...16)
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: path))
        let renderer = renderer(folder + "/out", source: path), store = renderer.store
        try store.prepare()
        let key = store.key(forTrackBytes: Self.gpx)
        let (pngs, record) = try renderer.render(trackBytes: Self.gpx, fileName: "run.gpx", key: key, tiles: tiles)
        #expect(
            (record.basemap?.tilesAbsent ?? 0) > 0 && record.basemap?.tilesFailed == 0 && record.incomplete == nil,
            "\(String(describing: record.basemap))")
        try store.publish(key: key, pngs: pngs, record: record)
        #expect(store.isComplete(key) && !FileStore.exists(store.incompletePath(key)))
    }

    @Test func causesAreSharedAcrossTiles() {
        func cause(_ problem: String) -> String? { BasemapReport(zoom: 12, tilesFailed: 1, problems: [problem]).failureCause }
        #expect(cause("tile 14/8593/5743: HTTP 503 from https://tiles.example.org/14/8593/5743.png") == "HTTP 503")
        #expect(
            cause("tile 3/1/2: MBTiles read failed: database is locked (locked by another process; waited 2 s)")
                == "the MBTiles file was locked by another process")
        #expect(cause("tile 3/1/2: cannot read /maps/3/1/2.png: Permission denied") == "cannot read tile files: Permission denied")
        #expect(cause("tile 3/1/2: bad PNG: read beyond end of data") == "bad PNG")
        #expect(cause("tile 3/1/2 is 128x128 pixels; the source's tiles are 256x256") == "tiles of the wrong size")
        #expect(BasemapReport(zoom: 12, tilesAbsent: 4).failureCause == nil)
    }
}
