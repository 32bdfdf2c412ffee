import FileStore
import Foundation
import MapTiles
import Testing
import TileSources
import TrackSynthesis
import VectorTiles

/// MBTiles → PMTiles (`tracksnap-dev pmtiles`): both files opened with the product's sources
/// give every tile alike; metadata carried over; identical tiles stored once, in runs.
struct PMTilesConversionTests {
    private let gzip: ([UInt8]) -> [UInt8] = { Compression.deflate($0, gzip: true) }

    /// Every tile of `mbtiles` equals the archive's, and a few tiles neither has are absent in both.
    private func expectSameTiles(_ mbtiles: String, _ pmtiles: String) throws {
        let source = try MBTilesSource(path: mbtiles)
        let archive = try PMTilesSource(path: pmtiles)
        let tiles = try allTiles(source)
        for (coordinate, bytes) in tiles { #expect(try archive.tileBytes(coordinate, limit: 1 << 20) == bytes, "\(coordinate)") }
        #expect(!tiles.isEmpty)
        for coordinate in [TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 15, x: 0, y: 0), TileCoordinate(z: 3, x: 7, y: 7)] {
            #expect(try source.tileBytes(coordinate, limit: 1 << 20) == nil && archive.tileBytes(coordinate, limit: 1 << 20) == nil)
        }
        #expect(archive.sourceDescription.kind == source.sourceDescription.kind)
        #expect(archive.sourceDescription.minimumZoom == source.sourceDescription.minimumZoom)
        #expect(archive.sourceDescription.maximumZoom == source.sourceDescription.maximumZoom)
        #expect(archive.sourceDescription.attribution == source.sourceDescription.attribution)
        let mbtilesBounds = try #require(source.sourceDescription.boundsLonLat)
        let archiveBounds = try #require(archive.sourceDescription.boundsLonLat)
        #expect(zip(mbtilesBounds, archiveBounds).allSatisfy { abs($0 - $1) < 1e-6 }, "\(mbtilesBounds) vs \(archiveBounds)")
    }

    @Test func aRasterMBTilesConvertsToAnArchiveOfTheSameTiles() throws {
        let folder = try temporaryFolder("convert-raster")
        let count = try TileSetMaker.writeMBTiles(folder + "/map.mbtiles", kind: .map, boundsLonLat: regionBounds, zooms: 8...11)
        var reports: [(Int, Int)] = []
        let summary = try PMTilesConversion.convert(mbtiles: folder + "/map.mbtiles", to: folder + "/map.pmtiles", compressDirectories: gzip) {
            reports.append(($0, $1))
        }
        let written = try FileStore.readFile(folder + "/map.pmtiles")
        #expect(summary.tiles == count && summary.archiveBytes == written.count)
        #expect(reports.last.map { $0 == (count, count) } == true)
        try expectSameTiles(folder + "/map.mbtiles", folder + "/map.pmtiles")
        let reader = try PMTilesReader(source: written)
        #expect(reader.header.tileType == .png && reader.header.tileCompression == .none && reader.header.internalCompression == .gzip)
        #expect(reader.header.isClustered && reader.header.addressedTileCount == UInt64(count))
        let metadata = try reader.metadata()
        #expect(metadata["name"]?.string == "TrackSnap map tiles" && metadata["attribution"]?.string == "© TrackSnap test tiles")
        #expect(metadata["bounds"] == nil && metadata["format"] == nil, "the header carries them")
    }

    @Test func aVectorMBTilesKeepsItsLayersAndStoresIdenticalTilesOnceInRuns() throws {
        let folder = try temporaryFolder("convert-vector")
        let real = try vectorFixtures()
        let path = folder + "/vaduz.mbtiles"
        let layers = #"{"vector_layers":[{"id":"water","fields":{"class":"String"},"minzoom":0,"maxzoom":14}],"tilestats":{"layerCount":1}}"#
        let writer = try MBTilesWriter(
            path: path,
            metadata: [
                "format": "pbf", "name": "vaduz \"test\"", "attribution": "© OpenMapTiles © OpenStreetMap contributors", "json": layers,
                "bounds": "9.47,47.04,9.64,47.28", "center": "9.52,47.14,10",
            ])
        for (coordinate, bytes) in real { try writer.add(coordinate, bytes: bytes) }
        // The whole of zooms 0–2 with one (ocean) tile: 21 tiles on consecutive ids, one blob, one run.
        let ocean = real[TileCoordinate(z: 8, x: 134, y: 89)]!
        for z in 0...2 { for x in 0..<(1 << z) { for y in 0..<(1 << z) { try writer.add(TileCoordinate(z: z, x: x, y: y), bytes: ocean) } } }
        try writer.add(TileCoordinate(z: 5, x: 16, y: 11), bytes: [])
        try writer.finish()

        let summary = try PMTilesConversion.convert(mbtiles: path, to: folder + "/vaduz.pmtiles", compressDirectories: gzip)
        #expect(summary.tiles == 4 + 21 + 1 && summary.distinctTiles == 4 && summary.emptyTiles == 1, "\(summary)")
        let reader = try PMTilesReader(source: try FileStore.readFile(folder + "/vaduz.pmtiles"))
        #expect(reader.header.tileType == .mvt && reader.header.tileCompression == .gzip)
        #expect(reader.header.tileContentCount == 4 && reader.header.addressedTileCount == 25)
        #expect(reader.rootDirectory.first == PMTilesEntry(tileID: 0, offset: 0, length: UInt32(ocean.count), runLength: 21))
        #expect(reader.header.centerZoom == 10 && reader.header.centerLongitudeE7 == 95_200_000)
        let metadata = try reader.metadata()
        #expect(metadata["name"]?.string == "vaduz \"test\"")
        #expect(metadata["vector_layers"]?.array?.first?.object?["id"]?.string == "water")
        #expect(metadata["tilestats"]?.object?["layerCount"]?.number == 1 && metadata["json"] == nil)
        // The empty tile is left out: absent in the archive, and an empty blob in the MBTiles file.
        #expect(try PMTilesSource(path: folder + "/vaduz.pmtiles").tileBytes(TileCoordinate(z: 5, x: 16, y: 11), limit: 1 << 20) == nil)
        try expectSameTilesSkippingEmpty(path, folder + "/vaduz.pmtiles")
    }

    @Test func aMissingOrDamagedInputIsNamed() throws {
        let folder = try temporaryFolder("convert-bad")
        for (name, bytes) in [
            ("missing.mbtiles", nil), ("garbage.mbtiles", Array("not a database at all, just text".utf8) + [UInt8](repeating: 7, count: 4096)),
        ] {
            if let bytes { try FileStore.writeAtomically(bytes, to: folder + "/" + name) }
            var problem: TileProblem?
            do throws(TileProblem) {
                _ = try PMTilesConversion.convert(mbtiles: folder + "/" + name, to: folder + "/out.pmtiles", compressDirectories: nil)
            } catch {
                problem = error
            }
            #expect(problem?.description.contains(folder + "/" + name) == true, "\(String(describing: problem))")
            #expect(!FileStore.exists(folder + "/out.pmtiles"))
        }
    }

    private func expectSameTilesSkippingEmpty(_ mbtiles: String, _ pmtiles: String) throws {
        let source = try MBTilesSource(path: mbtiles)
        let archive = try PMTilesSource(path: pmtiles)
        for (coordinate, bytes) in try allTiles(source) {
            #expect(try archive.tileBytes(coordinate, limit: 1 << 20) == (bytes.isEmpty ? nil : bytes), "\(coordinate)")
        }
        #expect(archive.sourceDescription.kind == .vector && archive.sourceDescription.attribution == source.sourceDescription.attribution)
    }

    /// Every tile of an MBTiles file.
    private func allTiles(_ source: MBTilesSource) throws -> [(TileCoordinate, [UInt8])] {
        var tiles: [(TileCoordinate, [UInt8])] = []
        try source.forEachTile(limit: 1 << 20) { tiles.append(($0, $1)) }
        return tiles
    }

    /// The four real tiles under `Tests/Fixtures/vector` (gzip-compressed), by coordinate.
    private func vectorFixtures() throws -> [TileCoordinate: [UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/vector")
        var tiles: [TileCoordinate: [UInt8]] = [:]
        for (z, x, y) in [(14, 8624, 5758), (12, 2156, 1437), (10, 539, 359), (8, 134, 89)] {
            tiles[TileCoordinate(z: z, x: x, y: y)] = [UInt8](
                try Data(contentsOf: folder.appendingPathComponent("openmaptiles-liechtenstein-\(z)-\(x)-\(y).pbf.gz")))
        }
        return tiles
    }
}
