import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import Testing
import TileSources
import TrackSynthesis

func temporaryFolder(_ label: String) throws -> String {
    let path = NSTemporaryDirectory() + "tracksnap-tiles-\(label)-\(UUID().uuidString)"
    try FileStore.createDirectories(path)
    return path
}

/// The region the source tests use: around Bern, zooms 9–13 (a 40 km track lands at zoom 11–12).
let regionBounds = [7.2, 46.8, 7.8, 47.3]
let regionTrack = straightTrack(from: (46.90, 7.30), to: (47.20, 7.70))

/// MBTiles files and tile folders, read through the real decoders, land where they belong: the
/// position field checks the TMS row order of MBTiles and the XYZ order of folders pixel by pixel.
struct SourceTests {
    @Test func mbtilesRowsAreReadInTMSOrderAndAlign() throws {
        let folder = try temporaryFolder("mbtiles")
        let path = folder + "/position.mbtiles"
        try TileSetMaker.writeMBTiles(path, kind: .position, boundsLonLat: regionBounds, zooms: 9...13)
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: path))
        #expect(tiles.sourceDescription.minimumZoom == 9 && tiles.sourceDescription.maximumZoom == 13)
        #expect(tiles.sourceDescription.attribution == "© TrackSnap test tiles")
        #expect(tiles.sourceDescription.boundsLonLat == regionBounds)
        for scale in [1.0, 2.0] {
            let snapshot = try SnapshotRenderer.render(
                track: regionTrack, options: backgroundOnlyOptions(width: 320, height: 240, scale: scale, source: path), tiles: tiles)
            let error = try measureAlignment(snapshot)
            #expect(snapshot.info.basemap?.tilesFailed == 0)
            #expect(error.worstPixels <= 0.5 && error.wrongTiles == 0 && error.tileChecked > 1000, "@\(scale)x: \(error)")
        }
    }

    @Test func tileFoldersAreReadInXYZOrderAndAlign() throws {
        let folder = try temporaryFolder("folder")
        try TileSetMaker.writeFolder(folder + "/tiles", kind: .position, boundsLonLat: regionBounds, zooms: 10...12)
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: folder + "/tiles"))
        #expect(tiles.sourceDescription.minimumZoom == 10 && tiles.sourceDescription.maximumZoom == 12)
        let snapshot = try SnapshotRenderer.render(
            track: regionTrack, options: backgroundOnlyOptions(width: 320, height: 240, scale: 1), tiles: tiles)
        let error = try measureAlignment(snapshot)
        #expect(error.worstPixels <= 0.5 && error.wrongTiles == 0 && error.tileChecked > 1000, "\(error)")
    }

    /// JPEG tiles (aerial imagery is usually JPEG) decode through libjpeg.
    @Test func jpegTilesAreDecoded() throws {
        let folder = try temporaryFolder("jpeg")
        let path = folder + "/aerial.mbtiles"
        try TileSetMaker.writeMBTiles(path, kind: .position, boundsLonLat: regionBounds, zooms: 10...12, jpeg: true)
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: path))
        var options = RenderOptions()
        options.basemap = BasemapSettings(source: path)
        let snapshot = try SnapshotRenderer.render(track: regionTrack, options: options, tiles: tiles)
        let report = try #require(snapshot.info.basemap)
        #expect(report.tiles > 0 && report.tilesFailed == 0, "\(report)")
        #expect(report.attribution == "© TrackSnap test tiles")
    }

    /// Outside the source's bounds and below its lowest zoom the grid shows, and no tile is asked for.
    @Test func outsideTheSourceTheGridShows() throws {
        let folder = try temporaryFolder("outside")
        let path = folder + "/small.mbtiles"
        try TileSetMaker.writeMBTiles(path, kind: .position, boundsLonLat: regionBounds, zooms: 11...13)
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: path))
        var options = RenderOptions()
        options.basemap = BasemapSettings(source: path)
        // True colour, as `gridOnly`: the same bytes (a raster-map image is otherwise reduced to a palette).
        options.png.layout = .trueColor
        // A 600 km track: zoom 7, below the source's 11.
        let wide = try SnapshotRenderer.render(track: straightTrack(from: (44.0, 2.0), to: (48.5, 8.0)), options: options, tiles: tiles)
        #expect(wide.info.basemap?.zoom == nil && wide.info.basemap?.tiles == 0)
        #expect(wide.info.basemap?.problems?.first?.contains("lowest zoom 11") == true)
        #expect(wide.png == (try SnapshotRenderer.render(track: straightTrack(from: (44.0, 2.0), to: (48.5, 8.0)), options: gridOnly(options))).png)
        // A track far from the bounds: every tile outside, none read.
        let before = tiles.tilesRead
        let away = try SnapshotRenderer.render(track: straightTrack(from: (40.0, -3.7), to: (40.3, -3.3)), options: options, tiles: tiles)
        #expect(away.info.basemap?.tiles == 0 && away.info.basemap!.tilesAbsent > 0 && tiles.tilesRead == before)
    }

    private func gridOnly(_ options: RenderOptions) -> RenderOptions {
        var grid = options
        grid.basemap = nil
        grid.png.layout = .trueColor
        return grid
    }

    @Test func anMBTilesOfAnUnknownTileFormatIsRefusedNamingIt() throws {
        let folder = try temporaryFolder("webp")
        let path = folder + "/webp.mbtiles"
        let writer = try MBTilesWriter(path: path, metadata: ["format": "webp", "name": "planet"])
        try writer.finish()
        #expect {
            _ = try BasemapOpener(tileCacheDirectory: folder).openSource(BasemapSettings(source: path))
        } throws: { error in
            "\(error)".contains("format 'webp'") && "\(error)".contains(path) && "\(error)".contains("pbf (vector tiles)")
        }
    }
}
