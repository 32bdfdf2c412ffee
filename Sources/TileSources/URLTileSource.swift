#if canImport(Glibc)
import Glibc
#endif
import CLibCurl
import ContentHash
import FileStore
import MapTiles

/// Tiles from a server by URL template (`https://tiles.example.org/{z}/{x}/{y}.png`; `{-y}`
/// for TMS rows), kept in an on-disk cache shared by every worker and run that names the same
/// folder. Polite by construction: a User-Agent naming TrackSnap and its version, at most
/// `maximumRequestsInFlight` requests at once across all processes using the cache (file-lock
/// slots), `Cache-Control: max-age` / `Expires` honoured, conditional requests
/// (`If-None-Match`, `If-Modified-Since`) once stale, and `offline` to use the cache only.
public final class URLTileSource: RawTileSource {
    /// The template.
    public let template: String
    /// Zoom 0–19 (a server's range is not discoverable), whole world.
    public let sourceDescription: TileSourceDescription
    /// The folder this template's tiles are cached in.
    public let cacheFolder: String
    /// Whether the network is never used.
    public let offline: Bool
    /// The User-Agent sent.
    public let userAgent: String
    /// Most requests at once, across every process sharing the cache. Default: 2.
    public let maximumRequestsInFlight: Int
    /// Seconds a request may take. Default: 20.
    public var timeoutSeconds = 20
    /// Requests made, answered 304, and tiles served from the disk cache since creation.
    public private(set) var requests = 0, notModified = 0, diskHits = 0
    /// The clock (seconds since the epoch); tests move it.
    public var now: () -> Double = { Double(time(nil)) }

    /// Checks the template (http or https, with {z}, {x} and {y}) and prepares the cache folder.
    public init(
        template: String, cacheDirectory: String, offline: Bool, version: String, maximumRequestsInFlight: Int = 2
    ) throws(TileProblem) {
        guard template.hasPrefix("http://") || template.hasPrefix("https://") else {
            throw TileProblem("the URL template '\(template)' must start with http:// or https://")
        }
        for field in ["{z}", "{x}"] where !template.contains(field) {
            throw TileProblem("the URL template '\(template)' has no \(field) (expected e.g. https://host/{z}/{x}/{y}.png)")
        }
        guard template.contains("{y}") || template.contains("{-y}") else {
            throw TileProblem("the URL template '\(template)' has no {y} or {-y}")
        }
        self.template = template
        self.offline = offline
        self.maximumRequestsInFlight = max(1, maximumRequestsInFlight)
        userAgent = "TrackSnap/\(version.isEmpty ? "dev" : version) (offline batch map thumbnails; tile cache on disk)"
        sourceDescription = TileSourceDescription()
        cacheFolder = "\(cacheDirectory)/\(String(SHA256.hash(template).hex.prefix(16)))"
        do {
            try FileStore.createDirectories(cacheFolder + "/.requests")
            // A note for whoever finds the folder: which server it holds.
            if (try? FileStore.statusFollowingLinks(cacheFolder + "/SOURCE")) ?? nil == nil {
                try FileStore.writeAtomically(Array((template + "\n").utf8), to: cacheFolder + "/SOURCE")
            }
        } catch {
            throw TileProblem("tile cache '\(cacheDirectory)': \(error)")
        }
        if !offline {
            var message = [CChar](repeating: 0, count: 512)
            if tsnap_http_load(&message, message.count) != 0 { throw TileProblem(Self.text(message)) }
        }
    }

    /// The URL of a tile.
    public func url(_ coordinate: TileCoordinate) -> String {
        template.split(separator: "{z}", omittingEmptySubsequences: false).joined(separator: "\(coordinate.z)")
            .split(separator: "{x}", omittingEmptySubsequences: false).joined(separator: "\(coordinate.x)")
            .split(separator: "{-y}", omittingEmptySubsequences: false).joined(separator: "\(coordinate.tmsRow)")
            .split(separator: "{y}", omittingEmptySubsequences: false).joined(separator: "\(coordinate.y)")
    }

    /// The tile: fresh from the disk cache, revalidated, or fetched.
    public func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        let stem = "\(cacheFolder)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y)"
        let cached = CachedTile.read(stem: stem, limit: limit)
        let now = now()
        if let cached, now < cached.freshUntil {
            diskHits += 1
            return cached.body
        }
        if offline {
            if let cached {
                diskHits += 1
                return cached.body
            }
            throw TileProblem("not in the tile cache, and --offline forbids fetching \(url(coordinate))")
        }
        let response: HTTPResponse
        do {
            response = try RequestSlots(folder: cacheFolder + "/.requests", count: maximumRequestsInFlight).holding {
                () throws(TileProblem) -> HTTPResponse in
                requests += 1
                return try get(url(coordinate), validators: cached, limit: limit)
            }
        } catch {
            // The network failed: a stale copy is better than the grid.
            if let cached { return cached.body }
            throw error
        }
        let policy = HTTPCachePolicy(response: response, now: now)
        switch response.status {
        case 200:
            store(CachedTile(body: response.body, freshUntil: policy.freshUntil, etag: response.etag, lastModified: response.lastModified), stem: stem)
            return response.body
        case 304 where cached != nil:
            notModified += 1
            var refreshed = cached!
            refreshed.freshUntil = policy.freshUntil
            if !response.etag.isEmpty { refreshed.etag = response.etag }
            store(refreshed, stem: stem)
            return refreshed.body
        case 404, 204:
            store(CachedTile(body: nil, freshUntil: policy.freshUntil, etag: response.etag, lastModified: response.lastModified), stem: stem)
            return nil
        default:
            if let cached { return cached.body }
            throw TileProblem("HTTP \(response.status) from \(url(coordinate))")
        }
    }

    private func get(_ url: String, validators: CachedTile?, limit: Int) throws(TileProblem) -> HTTPResponse {
        var raw = tsnap_http_response()
        var message = [CChar](repeating: 0, count: 512)
        let status = tsnap_http_get(
            url, userAgent, validators?.etag ?? "", validators?.lastModified ?? "", timeoutSeconds, limit, &raw, &message, message.count)
        guard status == 0 else { throw TileProblem("fetching \(url): \(Self.text(message))") }
        defer { tsnap_http_response_free(&raw) }
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let body = raw.body.map { Array(UnsafeBufferPointer(start: $0, count: raw.body_count)) } ?? []
        return HTTPResponse(
            status: raw.status, body: body, etag: field(raw.etag), lastModified: field(raw.last_modified),
            cacheControl: field(raw.cache_control), expires: field(raw.expires), date: field(raw.date))
    }

    private func store(_ tile: CachedTile, stem: String) {
        // Best effort: a cache that cannot be written costs a refetch next time, not the render.
        try? FileStore.createDirectories(FileStore.split(stem).directory)
        try? tile.write(stem: stem)
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What a GET returned.
struct HTTPResponse {
    var status: Int
    var body: [UInt8]
    var etag: String
    var lastModified: String
    var cacheControl: String
    var expires: String
    var date: String
}

/// At most `count` holders at once across processes: `flock` on one of `count` slot files.
struct RequestSlots {
    let folder: String
    let count: Int

    func holding<T>(_ body: () throws(TileProblem) -> T) throws(TileProblem) -> T {
        var descriptor: Int32 = -1
        // Any free slot first; otherwise wait for this process's own.
        for slot in 0..<count {
            let candidate = open("\(folder)/slot-\(slot)", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            guard candidate >= 0 else { continue }
            if flock(candidate, LOCK_EX | LOCK_NB) == 0 {
                descriptor = candidate
                break
            }
            close(candidate)
        }
        if descriptor < 0 {
            descriptor = open("\(folder)/slot-\(Int(getpid()) % count)", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
            if descriptor >= 0 { _ = flock(descriptor, LOCK_EX) }
        }
        defer { if descriptor >= 0 { close(descriptor) } }
        return try body()
    }
}
