import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import StyleFile
import TestSupport
import Testing
import ThumbnailCache
import TileSources
import TrackSynthesis

/// Tile servers that hang, drip, lie in their headers or send what a tile is not; templates
/// checked at start; secrets kept out of messages and files. Loopback only (`tile_server.py`).
struct TileServerHazardTests {
    func render(_ tiles: BasemapTiles, template: String) throws -> RenderedSnapshot {
        try SnapshotRenderer.render(
            track: regionTrack, options: backgroundOnlyOptions(width: 320, height: 240, scale: 1, source: template), tiles: tiles)
    }

    /// A server that never answers, one that drips its body and one that drips its headers: each
    /// image gives up on its tiles at its deadline, the breaker opens after 3 failed requests and
    /// later images ask nothing; every tile not drawn is counted failed, none absent.
    @Test(arguments: ["hang", "drip", "driphead"])
    func aStuckServerCostsEachImageItsDeadlineThenNothing(kind: String) throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        var opener = BasemapOpener(tileCacheDirectory: try temporaryFolder("stuck-\(kind)"))
        opener.imageDeadlineSeconds = 1
        let template = server.template(kind)
        let tiles = try opener.open(BasemapSettings(source: template))
        let source = try #require(tiles.source as? URLTileSource)
        var reports: [BasemapReport] = []
        for _ in 0..<5 { reports.append(try #require(try render(tiles, template: template).info.basemap)) }
        #expect(reports.allSatisfy { $0.tiles == 0 && $0.tilesAbsent == 0 && $0.tilesFailed > 0 }, "\(reports)")
        #expect(source.breakerReason != nil && source.requests == 3, "\(source.requests) requests")
        #expect(reports.last?.problems?.first?.contains("not asked again") == true, "\(reports.last!)")
        #expect(reports[0].problems?.first?.contains("timed out") == true, "\(reports[0])")
    }

    /// Another worker sharing the tile cache (started before the breaker opened) stops asking too.
    @Test func theBreakerIsSharedThroughTheTileCache() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("shared-breaker")
        let template = server.template("fail")
        let first = try URLTileSource(template: template, cacheDirectory: cache, offline: false, version: "t")
        let second = try URLTileSource(template: template, cacheDirectory: cache, offline: false, version: "t")
        let coordinates = TileSetMaker.coordinates(boundsLonLat: regionBounds, zoom: 12)
        for coordinate in coordinates.prefix(4) { _ = try? first.tileBytes(coordinate, limit: 1 << 20) }
        #expect(first.breakerReason != nil && first.requests == 3)
        #expect(throws: TileProblem.self) { try second.tileBytes(coordinates[5], limit: 1 << 20) }
        #expect(second.requests == 0 && second.breakerReason?.contains("HTTP 500") == true)
        // A source created after the breaker opened (the next run) asks again.
        let later = try URLTileSource(template: template, cacheDirectory: cache, offline: false, version: "t")
        _ = try? later.tileBytes(coordinates[6], limit: 1 << 20)
        #expect(later.requests == 1)
    }

    /// `max-age=9223372036854775807` and friends used to trap converting the freshness to an Int
    /// when the tile was stored; now any value is bounded to a year, and an unreadable one is stale.
    @Test(arguments: ["9223372036854775807", "1e24", "99999999999999999999999999", "-5", "18446744073709551616", "%20"])
    func extremeMaxAgeFromAServerIsStoredBounded(value: String) throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("maxage")
        let source = try URLTileSource(template: server.template("maxage/" + value), cacheDirectory: cache, offline: false, version: "t")
        let coordinate = TileSetMaker.coordinates(boundsLonLat: regionBounds, zoom: 11)[0]
        #expect(try source.tileBytes(coordinate, limit: 1 << 20) != nil)
        let meta = String(
            decoding: try FileStore.readFile("\(source.cacheFolder)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y).meta"), as: UTF8.self)
        let freshUntil = try #require(meta.split(separator: "\n").first { $0.hasPrefix("fresh-until ") }.flatMap { Double($0.dropFirst(12)) })
        let now = Date().timeIntervalSince1970
        #expect(freshUntil >= now - 5 && freshUntil <= now + HTTPCachePolicy.longestFreshSeconds + 5, "\(meta)")
        if value.hasPrefix("-") || value.contains("e") || value.contains("%") { #expect(freshUntil <= now + 5, "stale at once: \(meta)") }
    }

    /// The pure parser under random and extreme header values: never a trap, always a freshness
    /// within 0 … a year of now, and the documented answers for the known cases.
    @Test func theCachePolicyParserBoundsEveryHeaderValue() {
        var generator = SplitMix64(seed: 21)
        let now = 1_790_000_000.0
        let extremes = [
            "", "0", "-0", "-5", "9223372036854775807", "9223372036854775808", "1e24", "1e308", "inf", "nan", "0x7fffffff",
            String(repeating: "9", count: 400), "+60", "\"60\"", "60, max-age=-1", " 60", "٣٠", "60;x", "4294967296",
        ]
        let dates = [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 99999999999 08:49:37 GMT", "Sun, 06 Nov -9999999999 08:49:37 GMT",
            "Sun, 06 Nov 1994 99999999999:49:37 GMT", "Sun, 06 Nov 1994 08:-1:37 GMT", "Fri, 31 Dec 9999 23:59:60 GMT",
            "Thu, 01 Jan 1970 00:00:00 GMT", "Mon, 0 Jan 0 0:0:0", "", "garbage", "Sun, 06 Nov 1994 08:49 GMT",
        ]
        func random(_ pool: [String]) -> String {
            switch generator.next() % 4 {
            case 0: return pool[Int(generator.next() % UInt64(pool.count))]
            case 1: return String(generator.next()) + (generator.next() % 2 == 0 ? "" : String(generator.next()))
            case 2: return String(Int64(bitPattern: generator.next()))
            default:
                let length = Int(generator.next() % 40)
                return String(decoding: (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }, as: UTF8.self)
            }
        }
        for _ in 0..<20_000 {
            let control =
                ["max-age=", "public, max-age=", "no-cache, max-age=", "s-maxage=1, max-age=", ""][Int(generator.next() % 5)] + random(extremes)
            let policy = HTTPCachePolicy(cacheControl: control, expires: random(dates), date: random(dates), lastModified: random(dates), now: now)
            #expect(policy.freshUntil >= now && policy.freshUntil <= now + HTTPCachePolicy.longestFreshSeconds, "\(control) → \(policy.freshUntil)")
            if policy.freshUntil < now || policy.freshUntil > now + HTTPCachePolicy.longestFreshSeconds { break }
        }
        func fresh(_ control: String, expires: String = "", date: String = "", modified: String = "") -> Double {
            HTTPCachePolicy(cacheControl: control, expires: expires, date: date, lastModified: modified, now: now).freshUntil - now
        }
        #expect(fresh("max-age=3600") == 3600)
        #expect(fresh("max-age=\"60\"") == 60)
        #expect(fresh("max-age=-5", modified: "Sun, 06 Nov 1994 08:49:37 GMT") == 0)
        #expect(fresh("max-age=1e24") == 0)
        #expect(fresh("max-age=9223372036854775807") == HTTPCachePolicy.longestFreshSeconds)
        #expect(fresh("no-cache") == 0)
        #expect(fresh("", expires: "Sun, 06 Nov 1994 09:49:37 GMT", date: "Sun, 06 Nov 1994 08:49:37 GMT") == 3600)
        #expect(fresh("", expires: "Fri, 31 Dec 9999 23:59:59 GMT", date: "Sun, 06 Nov 1994 08:49:37 GMT") == HTTPCachePolicy.longestFreshSeconds)
        #expect(fresh("") == 86_400)
    }

    /// Templates are checked when the basemap is opened, with a message naming the template and
    /// the problem; `HTTP://` is a URL; `{s}` takes a, b, c (or the style's list).
    @Test func templatesAreCheckedAtStart() throws {
        func problem(_ template: String) -> String? {
            do {
                _ = try TileURLTemplate(template)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem("http://127.0.0.1:99999/{z}/{x}/{y}.png")?.contains("port '99999'") == true)
        #expect(problem("http://127.0.0.1:/{z}/{x}/{y}.png")?.contains("port") == true)
        #expect(problem("ftp://tiles.example.org/{z}/{x}/{y}.png")?.contains("scheme 'ftp'") == true)
        #expect(problem("https://tiles.example.org/{z}/{x}/{y}.png?key={apikey}")?.contains("{apikey}") == true)
        #expect(problem("https:///{z}/{x}/{y}.png")?.contains("no host") == true)
        #expect(problem("https://tiles.example.org/{z}/{x}.png")?.contains("{y}") == true)
        #expect(problem("https://{s}.tile.example.org/{z}/{x}/{y}.png") == nil)
        let message = try #require(problem("https://user:hunter2@tiles.example.org:70000/{z}/{x}/{y}.png?api_key=SECRET"))
        #expect(
            message.contains("https://tiles.example.org:70000/{z}/{x}/{y}.png?api_key=…") && !message.contains("hunter2")
                && !message.contains("SECRET"), "\(message)")
        #expect(
            TileURLTemplate.redact("https://u@t.example.org/{z}/{x}/{y}.png?SECRETTOKEN&style=dark&y={y}#frag")
                == "https://t.example.org/{z}/{x}/{y}.png?…&style=…&y={y}")

        let upper = try TileURLTemplate("HTTP://Tiles.example.org/{z}/{x}/{y}.png")
        #expect(upper.url(TileCoordinate(z: 1, x: 0, y: 1)) == "http://Tiles.example.org/1/0/1.png")
        let leaflet = try TileURLTemplate("https://{s}.tile.example.org/{z}/{x}/{y}.png")
        let hosts = Set((0..<6).map { leaflet.url(TileCoordinate(z: 5, x: $0, y: 3)).split(separator: ".").first! })
        #expect(hosts == ["https://a", "https://b", "https://c"])
        let chosen = try TileURLTemplate("https://{s}.tile.example.org/{z}/{x}/{y}.png", subdomains: ["t1", "t2"])
        #expect(chosen.url(TileCoordinate(z: 5, x: 1, y: 0)) == "https://t2.tile.example.org/5/1/0.png")

        // Upper case is a URL for the opener too, never "does not exist".
        let opener = BasemapOpener(tileCacheDirectory: try temporaryFolder("upper"))
        #expect(BasemapOpener.isURL("HTTP://127.0.0.1:8/{z}/{x}/{y}.png"))
        #expect(throws: Never.self) { _ = try opener.openSource(BasemapSettings(source: "HTTP://127.0.0.1:8/{z}/{x}/{y}.png")) }
        do {
            _ = try opener.openSource(BasemapSettings(source: "HTTPS://127.0.0.1:99999/{z}/{x}/{y}.png"))
            Issue.record("port 99999 accepted")
        } catch {
            #expect(error.description.contains("99999") && !error.description.contains("does not exist"), "\(error)")
        }
    }

    /// The style's `basemap.subdomains` in Leaflet's two forms; unset, the cache key is the one
    /// a style without the field always had.
    @Test func theStyleSetsTheSubdomains() throws {
        func settings(_ basemap: String) throws -> ThumbnailSettings {
            try StyleFile.settings(
                from: Array(#"{"version": 1, "basemap": {"source": "https://{s}.t.example.org/{z}/{x}/{y}.png""#.utf8) + Array(basemap.utf8)
                    + Array("}}".utf8), file: "style.json", theme: nil)
        }
        #expect(try settings(#", "subdomains": "abcd""#).options.basemap?.subdomains == ["a", "b", "c", "d"])
        #expect(try settings(#", "subdomains": ["t1", "t2"]"#).options.basemap?.subdomains == ["t1", "t2"])
        let plain = try settings("")
        #expect(plain.options.basemap?.subdomains == nil)
        let encoded = String(decoding: try JSONEncoder().encode(try #require(plain.options.basemap)), as: UTF8.self)
        #expect(!encoded.contains("subdomains"), "\(encoded)")
        for bad in [#", "subdomains": 5"#, #", "subdomains": []"#, #", "subdomains": [1]"#] {
            #expect(throws: StyleError.self) { try settings(bad) }
        }
    }

    /// `{s}` end to end: `a.localhost`, `b.localhost`… all reach the loopback server.
    @Test func subdomainsAreFetched() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let template = "http://{s}.localhost:\(server.port)/tiles/{z}/{x}/{y}.png"
        var settings = BasemapSettings(source: template)
        settings.subdomains = ["a", "b"]
        let tiles = try BasemapOpener(tileCacheDirectory: try temporaryFolder("subdomains")).open(settings)
        let report = try #require(try render(tiles, template: template).info.basemap)
        #expect(report.tilesFailed == 0 && report.tiles > 1, "\(report)")
        let hosts = Set(server.requests().compactMap { $0["host"]?.split(separator: ".").first.map(String.init) })
        #expect(hosts == ["a", "b"], "\(hosts)")
    }

    /// A cached tile marked fresh whose bytes no longer decode is dropped and fetched once more.
    @Test func aCorruptFreshCachedTileIsFetchedAgain() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("corrupt-cache")
        let opener = BasemapOpener(tileCacheDirectory: cache)
        let template = server.template("tiles")
        let first = try opener.open(BasemapSettings(source: template))
        _ = try render(first, template: template)
        let folder = (first.source as! URLTileSource).cacheFolder
        let damaged = try #require(FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.first { $0.hasSuffix(".tile") })
        try FileStore.writeAtomically(Array("not a tile any more".utf8), to: folder + "/" + damaged)
        let second = try opener.open(BasemapSettings(source: template))
        let report = try #require(try render(second, template: template).info.basemap)
        #expect(report.tilesFailed == 0, "\(report)")
        #expect((second.source as! URLTileSource).requests == 1)
        let third = try opener.open(BasemapSettings(source: template))
        _ = try render(third, template: template)
        #expect((third.source as! URLTileSource).requests == 0, "the refetched tile was stored")
    }

    /// A body sent with `Content-Encoding: gzip` is stored and drawn as the image it encodes.
    @Test func gzipEncodedTilesAreDecoded() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let template = server.template("gzip")
        let tiles = try BasemapOpener(tileCacheDirectory: try temporaryFolder("gzip")).open(BasemapSettings(source: template))
        let snapshot = try render(tiles, template: template)
        let report = try #require(snapshot.info.basemap)
        #expect(report.tilesFailed == 0 && report.tiles > 0, "\(report)")
        let error = try measureAlignment(snapshot)
        #expect(error.wrongTiles == 0, "\(error)")
    }

    /// A 1 MiB response header is refused with a message that says so, not "Out of memory".
    @Test func hugeResponseHeadersAreRefusedClearly() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let source = try URLTileSource(
            template: server.template("bigheader"), cacheDirectory: try temporaryFolder("bigheader"), offline: false, version: "t")
        do {
            _ = try source.tileBytes(TileCoordinate(z: 11, x: 1065, y: 723), limit: 1 << 20)
            Issue.record("a 1 MiB header was accepted")
        } catch {
            #expect(error.description.contains("headers are too large"), "\(error)")
        }
    }

    /// Credentials and query values of the template never reach messages, the render info or the
    /// cache folder's files; the cache key still tells two keys apart.
    @Test func credentialsStayOutOfMessagesAndTheCache() throws {
        let server = try LoopbackTileServer()
        defer { server.stop() }
        let cache = try temporaryFolder("secrets")
        let template = "http://tileuser:PASSWORD-xyz@127.0.0.1:\(server.port)/fail/{z}/{x}/{y}.png?api_key=SECRET-abc"
        var logged: [String] = []
        let tiles = try BasemapOpener(tileCacheDirectory: cache).open(BasemapSettings(source: template)) { logged.append($0) }
        let snapshot = try render(tiles, template: template)
        let info = (snapshot.info.basemap?.problems ?? []).joined(separator: "\n")
        #expect(info.contains("HTTP 500 from http://127.0.0.1:\(server.port)/fail/") && info.contains("api_key=…"), "\(info)")
        var texts = [info] + logged
        for name in FileManager.default.enumerator(atPath: cache)?.compactMap({ $0 as? String }) ?? [] {
            if let bytes = try? FileStore.readFile(cache + "/" + name) { texts.append(String(decoding: bytes, as: UTF8.self)) }
        }
        for secret in ["tileuser", "PASSWORD-xyz", "SECRET-abc"] {
            #expect(!texts.contains { $0.contains(secret) }, "\(secret) leaked: \(texts.filter { $0.contains(secret) })")
        }
        let other = try URLTileSource(template: template.replacing("SECRET-abc", with: "OTHER"), cacheDirectory: cache, offline: true, version: "t")
        #expect(other.cacheFolder != (tiles.source as! URLTileSource).cacheFolder)
    }

    /// A tile that is a link to some other file says what kind of content it found, never the
    /// content (the message lands in records and pages).
    @Test func aTileLinkedToAnotherFileDoesNotLeakItsBytes() throws {
        let folder = try temporaryFolder("linked")
        let root = folder + "/tiles"
        try TileSetMaker.writeFolder(root, kind: .position, boundsLonLat: regionBounds, zooms: 11...11)
        let secret = folder + "/credentials.txt"
        try FileStore.writeAtomically(Array("password=LINKED-SECRET\n".utf8), to: secret)
        let tile = TileSetMaker.coordinates(boundsLonLat: [7.3, 46.9, 7.7, 47.2], zoom: 11)[0]
        let path = "\(root)/\(tile.z)/\(tile.x)/\(tile.y).png"
        try FileStore.remove(path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
        var options = backgroundOnlyOptions(width: 640, height: 480, scale: 1, source: root)
        options.basemap?.maximumOverzoomLevels = 6
        var logged: [String] = []
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: root)) { logged.append($0) }
        let snapshot = try SnapshotRenderer.render(track: regionTrack, options: options, tiles: tiles)
        let info = (snapshot.info.basemap?.problems ?? []).joined(separator: "\n")
        #expect(info.contains("not a PNG or JPEG image (23 bytes of text)"), "\(info)")
        #expect(!(info + logged.joined()).contains("LINKED") && !(info + logged.joined()).contains("password"), "\(info)")
    }
}
