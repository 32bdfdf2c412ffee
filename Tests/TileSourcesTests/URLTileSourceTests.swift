import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import TestSupport
import Testing
import TileSources
import TrackSynthesis

extension LoopbackTileServer {
    /// Over a generated position-field tile folder (zooms 9-12 of the test region: the views of
    /// `regionTrack` at 320×240 take zoom 9, the nearest).
    convenience init() throws {
        let folder = try temporaryFolder("server")
        try TileSetMaker.writeFolder(folder + "/tiles", kind: .position, boundsLonLat: regionBounds, zooms: 9...12)
        try self.init(folder: folder)
    }
}

/// URL templates: a polite client (User-Agent, max-age, conditional requests, a cap on requests
/// in flight), an on-disk cache shared across workers and runs, `--offline`, and failures that
/// leave the grid and are recorded.
struct URLTileSourceTests {
    func render(_ tiles: BasemapTiles, template: String) throws -> RenderedSnapshot {
        try SnapshotRenderer.render(
            track: regionTrack, options: backgroundOnlyOptions(width: 320, height: 240, scale: 1, source: template), tiles: tiles)
    }

    @Test func tilesAreFetchedPolitelyCachedOnDiskAndRevalidated() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("cache")
        var opener = BasemapOpener(tileCacheDirectory: cache)
        opener.version = "9.9.9"
        let template = server.template("tiles")

        let first = try opener.open(BasemapSettings(source: template))
        let snapshot = try render(first, template: template)
        let source = first.source as! URLTileSource
        let fetched = source.requests
        #expect(fetched > 0 && snapshot.info.basemap?.tiles == fetched && snapshot.info.basemap?.tilesFailed == 0)
        let error = try measureAlignment(snapshot)
        #expect(error.worstPixels <= 0.5 && error.wrongTiles == 0, "\(error)")
        #expect(server.requests().allSatisfy { $0["ua"]?.hasPrefix("TrackSnap/9.9.9 ") == true }, "\(server.requests().first ?? [:])")

        // Another worker (or tomorrow's run within max-age): the disk cache answers, no request.
        let second = try opener.open(BasemapSettings(source: template))
        _ = try render(second, template: template)
        let secondSource = second.source as! URLTileSource
        #expect(secondSource.requests == 0 && secondSource.diskHits == fetched)

        // Two hours later (max-age 3600): conditional requests, answered 304, bodies reused.
        let third = try opener.open(BasemapSettings(source: template))
        let thirdSource = third.source as! URLTileSource
        thirdSource.now = { Date().timeIntervalSince1970 + 7200 }
        let revalidated = try render(third, template: template)
        #expect(thirdSource.requests == fetched && thirdSource.notModified == fetched)
        #expect(revalidated.png == snapshot.png)
        let conditional = server.requests().suffix(fetched)
        #expect(conditional.allSatisfy { $0["inm"]?.hasPrefix("\"") == true }, "\(Array(conditional))")
    }

    @Test func offlineUsesTheCacheOnlyAndSaysWhatIsMissing() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("offline")
        var opener = BasemapOpener(tileCacheDirectory: cache)
        opener.offline = true
        let template = server.template("tiles")
        let tiles = try opener.open(BasemapSettings(source: template))
        let snapshot = try render(tiles, template: template)
        #expect(server.requests().isEmpty)
        let report = try #require(snapshot.info.basemap)
        #expect(report.tiles == 0 && report.tilesFailed > 0)
        #expect(report.problems?.first?.contains("--offline") == true, "\(report)")
        // Filled by an online run, the same offline opener draws every tile.
        opener.offline = false
        _ = try render(try opener.open(BasemapSettings(source: template)), template: template)
        opener.offline = true
        let again = try render(try opener.open(BasemapSettings(source: template)), template: template)
        #expect(again.info.basemap?.tilesFailed == 0 && again.info.basemap!.tiles > 0)
    }

    @Test func aFailingServerLeavesTheGridAndIsRecorded() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        var logged: [String] = []
        let template = server.template("fail")
        let tiles = try BasemapOpener(tileCacheDirectory: try temporaryFolder("fail")).open(BasemapSettings(source: template)) { logged.append($0) }
        let snapshot = try render(tiles, template: template)
        let report = try #require(snapshot.info.basemap)
        #expect(report.tiles == 0 && report.tilesFailed > 0 && report.problems?.first?.contains("HTTP 500") == true, "\(report)")
        #expect(logged.count == 1, "\(logged)")
        // Nothing listens here: a connection error, not a hang.
        let closed = "http://127.0.0.1:9/{z}/{x}/{y}.png"
        let refused = try BasemapOpener(tileCacheDirectory: try temporaryFolder("refused")).open(BasemapSettings(source: closed))
        let started = Date()
        let none = try render(refused, template: closed)
        #expect(none.info.basemap?.tilesFailed ?? 0 > 0 && Date().timeIntervalSince(started) < 20)
    }

    /// Six workers of a run (one cache folder) ask a slow server for tiles at once: never more
    /// than two requests in flight.
    @Test func requestsInFlightAreCappedAcrossWorkers() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("slots")
        let template = server.template("slow")
        let coordinates = TileSetMaker.coordinates(boundsLonLat: regionBounds, zoom: 12)
        #expect(coordinates.count >= 18)
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            guard let source = try? URLTileSource(template: template, cacheDirectory: cache, offline: false, version: "t") else { return }
            for index in 0..<3 { _ = try? source.tileBytes(coordinates[worker * 3 + index], limit: 1 << 20) }
        }
        let requests = server.requests().filter { $0["path"]!.hasPrefix("/slow/") }
        let most = requests.compactMap { Int($0["in_flight"] ?? "") }.max() ?? 0
        #expect(requests.count == 18)
        #expect(most >= 1 && most <= 2, "\(most) requests in flight at once")
    }
}
