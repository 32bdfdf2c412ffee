import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import Testing
import TileSources
import TrackSynthesis
import VectorTiles

/// Vector tiles from every local source kind: the same real tiles (Tests/Fixtures/vector, ODbL)
/// in an MBTiles file, a PMTiles archive and a tile folder decode alike and draw the same image.
struct VectorSourceTests {
    /// The four real tiles, gzip-compressed as tilemaker stores them, by z/x/y.
    private func fixtureTiles() throws -> [TileCoordinate: [UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/vector")
        var tiles: [TileCoordinate: [UInt8]] = [:]
        for (z, x, y) in [(14, 8624, 5758), (12, 2156, 1437), (10, 539, 359), (8, 134, 89)] {
            let name = "openmaptiles-liechtenstein-\(z)-\(x)-\(y).pbf.gz"
            tiles[TileCoordinate(z: z, x: x, y: y)] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return tiles
    }

    private func mbtiles(_ tiles: [TileCoordinate: [UInt8]], in folder: String) throws -> String {
        let path = folder + "/vaduz.mbtiles"
        let writer = try MBTilesWriter(
            path: path, metadata: ["format": "pbf", "name": "vaduz", "minzoom": "8", "maxzoom": "14", "attribution": "© OpenStreetMap contributors"])
        for (coordinate, bytes) in tiles { try writer.add(coordinate, bytes: bytes) }
        try writer.finish()
        return path
    }

    @Test func anMBTilesOfPBFTilesOpensAsAVectorSourceAndDecodesItsTiles() throws {
        let folder = try temporaryFolder("vector-mbtiles")
        let path = try mbtiles(try fixtureTiles(), in: folder)
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: path))
        #expect(tiles.sourceDescription.kind == .vector)
        #expect(tiles.sourceDescription.minimumZoom == 8 && tiles.sourceDescription.maximumZoom == 14)
        guard case .vector(let decoded) = tiles.tile(TileCoordinate(z: 14, x: 8624, y: 5758)) else {
            Issue.record("the zoom-14 tile did not decode as a vector tile")
            return
        }
        #expect(decoded.layer(named: "transportation") != nil && decoded.skippedFeatureCount == 0)
        guard case .absent = tiles.tile(TileCoordinate(z: 14, x: 1, y: 1)) else {
            Issue.record("a tile the file does not have was not absent")
            return
        }
    }

    @Test func mbtilesPMTilesAndAFolderOfTheSameTilesDrawTheSameImage() throws {
        let folder = try temporaryFolder("vector-kinds")
        let tiles = try fixtureTiles()
        let mbtilesPath = try mbtiles(tiles, in: folder)
        // The same tiles as a PMTiles archive (our writer) and as a z/x/y.pbf folder.
        let pmtilesPath = folder + "/vaduz.pmtiles"
        var options = PMTilesWriter.Options()
        options.metadata = Array(#"{"attribution":"© OpenStreetMap contributors"}"#.utf8)
        options.header.minimumLongitudeE7 = 94_700_000
        options.header.maximumLongitudeE7 = 96_400_000
        options.header.minimumLatitudeE7 = 470_400_000
        options.header.maximumLatitudeE7 = 472_800_000
        let archive = try PMTilesWriter.write(
            tiles.map { PMTilesWriter.Tile(z: $0.key.z, x: $0.key.x, y: $0.key.y, bytes: $0.value) }, options: options)
        try FileStore.writeAtomically(archive, to: pmtilesPath)
        for (coordinate, bytes) in tiles {
            try FileStore.createDirectories("\(folder)/tree/\(coordinate.z)/\(coordinate.x)")
            try FileStore.writeAtomically(bytes, to: "\(folder)/tree/\(coordinate.z)/\(coordinate.x)/\(coordinate.y).pbf")
        }
        let track = try SnapshotRenderer.decode(trackBytes: Array(vaduzTrack.utf8), fileName: "balzers.gpx")
        var images: [[UInt8]] = []
        for source in [mbtilesPath, pmtilesPath, folder + "/tree"] {
            var options = RenderOptions()
            options.widthPoints = 320
            options.heightPoints = 240
            var settings = BasemapSettings(source: source)
            settings.attribution = ""
            options.basemap = settings
            let opened = try BasemapOpener(tileCacheDirectory: folder).open(settings)
            #expect(opened.sourceDescription.kind == .vector, "\(source)")
            let snapshot = try SnapshotRenderer.render(track: track, options: options, tiles: opened)
            #expect(snapshot.info.basemap?.kind == "vector" && (snapshot.info.basemap?.tiles ?? 0) > 0, "\(source)")
            #expect((snapshot.info.basemap?.featuresDrawn ?? 0) > 10, "\(source)")
            images.append(snapshot.png)
        }
        #expect(images[0] == images[1], "MBTiles and PMTiles differ")
        #expect(images[0] == images[2], "MBTiles and the folder differ")
    }

    /// Four tiles around one corner, three of them bad: each is a problem naming its tile in the
    /// render info, and the good tile and the good features of a damaged one are drawn.
    @Test func badVectorTilesAreNamedAndTheRestIsDrawn() throws {
        typealias Feature = SyntheticVectorTile.Feature
        let folder = try temporaryFolder("bad-vector")
        let whole = Feature.polygon(rings: [[(0, 0), (4096, 0), (4096, 4096), (0, 4096)]])
        let good = SyntheticVectorTile.encode([.init(name: "water", features: [whole])])
        // A feature whose command count is 2^28 and one far outside the extent, beside a good one.
        let huge = Feature(type: 2, geometry: [SyntheticVectorTile.command(1, count: 1), 2, 2, SyntheticVectorTile.command(2, count: 1 << 28), 2, 2])
        let far = Feature.lines([[(0, 0), (2_000_000_000, 5)]])
        let tiles: [(x: Int, y: Int, bytes: [UInt8], problem: String)] = [
            (2150, 1430, good, ""),
            (2151, 1430, Array(good.dropLast(5)), "12/2151/1430"),
            // 64 MiB of zeros, gzip-compressed to 64 KB: over the 32 MiB a tile may inflate to.
            (2150, 1431, Compression.deflate([UInt8](repeating: 0, count: 64 << 20), gzip: true, level: 9), "12/2150/1431"),
            (2151, 1431, SyntheticVectorTile.encode([.init(name: "water", features: [huge, whole, far])]), "12/2151/1431"),
        ]
        for tile in tiles {
            try FileStore.createDirectories("\(folder)/tiles/12/\(tile.x)")
            try FileStore.writeAtomically(tile.bytes, to: "\(folder)/tiles/12/\(tile.x)/\(tile.y).pbf")
        }
        var options = RenderOptions()
        options.widthPoints = 256
        options.heightPoints = 256
        options.basemap = BasemapSettings(source: folder + "/tiles")
        let opened = try BasemapOpener(tileCacheDirectory: folder).open(options.basemap!)
        // A debug build inflating the bomb's 32 MiB on a loaded machine can take longer than an
        // image's 15 s for tiles; the time budget has its own tests, this one is about bad bytes.
        opened.budget.imageSeconds = 3_600
        opened.budget.trackSeconds = 3_600
        // A track around the tiles' shared corner (9.0527 E, 47.5765 N), seen at zoom 12.
        let track = straightTrack(from: (47.566, 9.035), to: (47.587, 9.07))
        let report = try #require(try SnapshotRenderer.render(track: track, options: options, tiles: opened).info.basemap)
        #expect(report.zoom == 12 && report.tiles == 2 && report.tilesFailed == 2, "\(report)")
        let problems = (report.problems ?? []).joined(separator: "\n")
        for tile in tiles where !tile.problem.isEmpty { #expect(problems.contains(tile.problem), "\(tile.problem): \(problems)") }
        #expect(problems.contains("33554432") && problems.contains("2 feature(s) skipped"), "\(problems)")
        #expect(report.featuresDrawn == 2, "the good tile's water and the damaged tile's good feature: \(report)")
    }

    /// A short walk in Balzers, inside the zoom-14 fixture tile 14/8624/5758.
    private let vaduzTrack = """
        <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
        <trkpt lat="47.06563" lon="9.49878"></trkpt><trkpt lat="47.06339" lon="9.50098"></trkpt>
        <trkpt lat="47.06264" lon="9.50427"></trkpt><trkpt lat="47.06114" lon="9.50757"></trkpt>
        </trkseg></trk></gpx>
        """
}
