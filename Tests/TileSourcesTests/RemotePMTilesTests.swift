import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import TestSupport
import Testing
import TileSources
import TrackSynthesis
import VectorTiles

/// A PMTiles archive on a server, read by range requests (`--basemap https://…/area.pmtiles`):
/// the local file's tiles, every range cached on disk, a server that ignores `Range` refused,
/// and a server having a bad minute costing failed tiles that a later run draws.
struct RemotePMTilesTests {
    /// Position-field PNG tiles of the test region, zooms 10–12, as `tiles/region.pmtiles` on the
    /// server, with leaf directories of eight entries (so lookups read leaves by range too).
    private func regionArchive(on server: LoopbackTileServer) throws -> (path: String, coordinates: [TileCoordinate]) {
        let coordinates = (10...12).flatMap { TileSetMaker.coordinates(boundsLonLat: regionBounds, zoom: $0) }
        let tiles = try coordinates.map { PMTilesWriter.Tile(z: $0.z, x: $0.x, y: $0.y, bytes: try TileSetMaker.encodedTile($0, kind: .position)) }
        var options = PMTilesWriter.Options()
        options.header.tileType = .png
        options.header.tileCompression = .none
        options.entriesPerLeaf = 8
        options.metadata = Array(#"{"attribution":"test tiles"}"#.utf8)
        let path = server.folder + "/tiles/region.pmtiles"
        try FileStore.writeAtomically(try PMTilesWriter.write(tiles, options: options), to: path)
        return (path, coordinates)
    }

    private func render(_ tiles: BasemapTiles, source: String) throws -> RenderedSnapshot {
        try SnapshotRenderer.render(
            track: regionTrack, options: backgroundOnlyOptions(width: 320, height: 240, scale: 1, source: source), tiles: tiles)
    }

    @Test func anArchiveOverHTTPGivesTheLocalFilesTilesAndASecondOpenAsksNothing() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let (path, coordinates) = try regionArchive(on: server)
        let url = server.url("ranges", file: "region.pmtiles")
        let opener = BasemapOpener(tileCacheDirectory: try temporaryFolder("pmtiles-http"))
        let local = try PMTilesSource(path: path)
        let remote = try #require(try opener.openSource(BasemapSettings(source: url)) as? RemotePMTilesSource)
        #expect(remote.sourceDescription == local.sourceDescription && remote.sourceDescription.attribution == "test tiles")
        let outside = [TileCoordinate(z: 12, x: 0, y: 0), TileCoordinate(z: 9, x: 266, y: 180), TileCoordinate(z: 13, x: 4250, y: 2880)]
        for coordinate in coordinates + outside {
            #expect(try remote.tileBytes(coordinate, limit: 1 << 20) == (try local.tileBytes(coordinate, limit: 1 << 20)), "\(coordinate)")
        }
        // The head once, then leaves and tiles by range, each after the head with If-Match.
        let asked = server.requests()
        // At most one request a tile and a leaf (ranges inside the first 16 KiB come with the head).
        let most = 1 + coordinates.count + (coordinates.count + 7) / 8
        #expect(remote.ranges.requests == asked.count && asked.count > coordinates.count / 2 && asked.count <= most, "\(asked.count) requests")
        #expect(asked.first?["range"] == "bytes=0-16383" && asked.first?["im"] == "")
        #expect(asked.dropFirst().allSatisfy { $0["range"]!.hasPrefix("bytes=") && $0["im"]!.hasPrefix("\"") }, "\(asked.prefix(3))")

        // Drawn through the basemap, tiles line up as the local file's do.
        let snapshot = try render(try opener.open(BasemapSettings(source: url)), source: url)
        #expect(snapshot.info.basemap?.tiles ?? 0 > 0 && snapshot.info.basemap?.tilesFailed == 0, "\(String(describing: snapshot.info.basemap))")
        let error = try measureAlignment(snapshot)
        #expect(error.worstPixels <= 0.5 && error.wrongTiles == 0, "\(error)")

        // Another worker, or the next run within max-age: the disk cache answers everything.
        let before = server.requests().count
        let again = try #require(try opener.openSource(BasemapSettings(source: url)) as? RemotePMTilesSource)
        for coordinate in coordinates {
            #expect(try again.tileBytes(coordinate, limit: 1 << 20) == (try local.tileBytes(coordinate, limit: 1 << 20)))
        }
        let redrawn = try render(try opener.open(BasemapSettings(source: url)), source: url)
        #expect(again.ranges.requests == 0 && again.ranges.diskHits > 0 && server.requests().count == before)
        #expect(redrawn.png == snapshot.png)
        // The content stamp is the archive's identity, the same from the cache as from the server.
        #expect(again.contentStamp == remote.contentStamp && opener.contentStamp(of: url) == remote.contentStamp)
        #expect(remote.contentStamp.hasPrefix("pmtiles ") && server.requests().count == before)

        // --offline: the cache only; an archive never cached is refused, naming it.
        var offline = opener
        offline.offline = true
        let cachedOnly = try #require(try offline.openSource(BasemapSettings(source: url)) as? RemotePMTilesSource)
        #expect(try cachedOnly.tileBytes(coordinates[0], limit: 1 << 20) == (try local.tileBytes(coordinates[0], limit: 1 << 20)))
        let other = server.url("ranges", file: "other.pmtiles")
        #expect(throws: TileProblem("'\(other)' is not in the tile cache, and --offline forbids fetching it")) {
            _ = try offline.openSource(BasemapSettings(source: other))
        }
        #expect(server.requests().count == before)
    }

    @Test func aDamagedCachedRangeIsFetchedOnceMoreAndDrawn() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let (path, coordinates) = try regionArchive(on: server)
        let url = server.url("ranges", file: "region.pmtiles")
        let opener = BasemapOpener(tileCacheDirectory: try temporaryFolder("pmtiles-damaged"))
        let first = try #require(try opener.openSource(BasemapSettings(source: url)) as? RemotePMTilesSource)
        // A tile past the first 16 KiB: its bytes are a range of their own in the cache.
        let local = try PMTilesReader(source: try FileStore.readFile(path))
        let (coordinate, entry) = try #require(
            coordinates.lazy.compactMap { c in (try? local.entry(z: c.z, x: c.x, y: c.y)).flatMap { $0 }.map { (c, $0) } }
                .first { local.header.tileDataOffset + $0.1.offset >= UInt64(HTTPByteRanges.headBytes) })
        let bytes = try #require(try first.tileBytes(coordinate, limit: 1 << 20))
        let offset = local.header.tileDataOffset + entry.offset
        let cached = "\(first.ranges.cacheFolder)/\(first.ranges.identity)/\(offset >> 24)/\(offset)+\(entry.length)"
        #expect(try FileStore.readFile(cached) == bytes)
        try FileStore.writeAtomically([UInt8](repeating: 0x42, count: bytes.count), to: cached)

        let tiles = try opener.open(BasemapSettings(source: url))
        guard case .image = tiles.tile(coordinate) else {
            Issue.record("the damaged cached tile was not fetched again")
            return
        }
        let source = try #require(tiles.source as? RemotePMTilesSource)
        let refetched = try FileStore.readFile(cached)
        #expect(source.ranges.requests == 1 && refetched == bytes)
    }

    @Test func aChangedArchiveIsNotMixedWithTheCachedOne() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let (path, coordinates) = try regionArchive(on: server)
        let url = server.url("ranges", file: "region.pmtiles")
        let cache = try temporaryFolder("pmtiles-changed")
        let first = try RemotePMTilesSource(url: url, cacheDirectory: cache, offline: false, version: "t")
        // Replaced on the server while a run reads it: If-Match fails, the tile is failed (not absent, not mixed).
        var bytes = try FileStore.readFile(path)
        bytes[bytes.count - 1] ^= 0xFF
        try FileStore.writeAtomically(bytes, to: path)
        var failure: TileProblem?
        do throws(TileProblem) {
            _ = try first.tileBytes(coordinates[coordinates.count / 2], limit: 1 << 20)
        } catch {
            failure = error
        }
        #expect(failure?.kind == .unavailable && failure?.description.contains("changed on the server") == true, "\(String(describing: failure))")
        // The next run past max-age reads the new head: a new identity, a new stamp.
        let later = try HTTPByteRanges(url: url, cacheDirectory: cache, offline: false, version: "t", now: Date().timeIntervalSince1970 + 7200)
        #expect(later.identity != first.ranges.identity && later.requests == 1)
    }

    @Test func aServerThatIgnoresRangeIsRefusedAtOpenNamingTheURL() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        _ = try regionArchive(on: server)
        let url = server.url("norange", file: "region.pmtiles")
        let opener = BasemapOpener(tileCacheDirectory: try temporaryFolder("pmtiles-norange"))
        var refusal: TileProblem?
        do throws(TileProblem) {
            _ = try opener.openSource(BasemapSettings(source: url))
        } catch {
            refusal = error
        }
        let message = refusal?.description ?? ""
        #expect(message.contains("ignored the Range request") && message.contains(url) && message.contains("HTTP 200"), "\(message)")
        let missing = server.url("ranges", file: "nowhere.pmtiles")
        #expect(throws: TileProblem.self) { _ = try opener.openSource(BasemapSettings(source: missing)) }
    }

    @Test func aServerDownForAWhileGivesFailedTilesThatALaterRunDraws() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let (path, _) = try regionArchive(on: server)
        let url = server.url("flaky", file: "region.pmtiles")
        let opener = BasemapOpener(tileCacheDirectory: try temporaryFolder("pmtiles-flaky"))
        try FileStore.writeAtomically([], to: path + ".down")
        var logged: [String] = []
        let down = try render(try opener.open(BasemapSettings(source: url)) { logged.append($0) }, source: url)
        let report = try #require(down.info.basemap)
        #expect(report.tilesFailed > 0 && report.tilesAbsent == 0, "\(report)")
        #expect(report.problems?.contains { $0.contains("HTTP 503") } == true, "\(report)")
        #expect(logged.count == 1 && logged[0].contains("503"), "\(logged)")

        try FileStore.remove(path + ".down")
        let up = try render(try opener.open(BasemapSettings(source: url)), source: url)
        let later = try #require(up.info.basemap)
        #expect(later.tilesFailed == 0 && later.tiles == report.tiles + report.tilesFailed, "\(later)")
        let error = try measureAlignment(up)
        #expect(error.worstPixels <= 0.5 && error.wrongTiles == 0, "\(error)")
    }
}
