#if canImport(Glibc)
import Glibc
#endif
import CLibCurl
import ContentHash
import FileStore
import MapTiles

/// Tiles from a server by URL template (`https://tiles.example.org/{z}/{x}/{y}.png`; `{-y}`
/// for TMS rows, `{s}` for subdomains), kept in an on-disk cache shared by every worker and run
/// that names the same folder. Polite by construction: a User-Agent naming TrackSnap and its
/// version, at most `maximumRequestsInFlight` requests at once across all processes using the
/// cache (file-lock slots), `Cache-Control: max-age` / `Expires` honoured, conditional requests
/// (`If-None-Match`, `If-Modified-Since`) once stale, and `offline` to use the cache only.
///
/// A server that hangs or drips costs bounded time: each request has `requestTimeoutSeconds`
/// (and libcurl abandons a transfer slower than 512 bytes/s for 3 s), and the `budget` every
/// source has (`TileTimeBudget`: time per image and per track, a circuit breaker after
/// `breakerThreshold` failed requests in a row) is checked here before each request: once the
/// breaker opens the server is not asked again by this source (nor by the other workers
/// sharing the cache folder that were started before), and its tiles are failed at once (a
/// stale cached copy is still drawn). The source's failure stays
/// the source's: the image is drawn without those tiles, counted in `tiles_failed`.
package final class URLTileSource: TileBudgetedSource {
    /// The template as given (holds any credentials: never show it; see `displayTemplate`).
    package var template: String { checked.text }
    /// The template without credentials or query values: what messages and files show.
    package var displayTemplate: String { checked.redacted }
    /// Zoom 0–19 (a server's range is not discoverable), whole world.
    package let sourceDescription: TileSourceDescription
    /// The folder this template's tiles are cached in (named by a hash of the full template).
    package let cacheFolder: String
    /// Whether the network is never used.
    package let offline: Bool
    /// The User-Agent sent.
    package let userAgent: String
    /// Most requests at once, across every process sharing the cache. Default: 2.
    package let maximumRequestsInFlight: Int
    /// Seconds one request may take, connection included. Default: 10.
    package var requestTimeoutSeconds = 10.0
    /// The time for tiles and the circuit breaker (`TileTimeBudget`), checked here before each
    /// request so a stale cached copy can stand in when they say no.
    package let budget = TileTimeBudget()
    /// Seconds one image may spend on its tiles, counted from `beginImage()`: `budget.imageSeconds`.
    package var imageDeadlineSeconds: Double {
        get { budget.imageSeconds }
        set { budget.imageSeconds = newValue }
    }
    /// Failed requests in a row that open the circuit breaker: `budget.breakerThreshold`.
    package var breakerThreshold: Int {
        get { budget.breakerThreshold }
        set { budget.breakerThreshold = newValue }
    }
    /// Requests made, answered 304, and tiles served from the disk cache since creation.
    package private(set) var requests = 0, notModified = 0, diskHits = 0
    /// Why the circuit breaker is open, nil while it is closed.
    package var breakerReason: String? { budget.breakerReason }
    /// The clock (seconds since the epoch); tests move it.
    package var now: () -> Double = { Double(time(nil)) }

    private let checked: TileURLTemplate
    /// The coordinate whose bytes last came from the disk cache: a decode failure there means a
    /// damaged cached copy, worth one refetch.
    private var servedFromDisk: TileCoordinate?
    private let breaker: SharedBreaker

    /// Vector for a template whose path ends in `.pbf` or `.mvt` (before any query), else raster.
    package static func kind(ofTemplate template: String) -> TileKind {
        let path = template.split(separator: "?", maxSplits: 1).first.map(String.init) ?? template
        return path.lowercased().hasSuffix(".pbf") || path.lowercased().hasSuffix(".mvt") ? .vector : .raster
    }

    /// Checks the template (see `TileURLTemplate`) and prepares the cache folder.
    package init(
        template: String, cacheDirectory: String, offline: Bool, version: String, maximumRequestsInFlight: Int = 2,
        subdomains: [String]? = nil
    ) throws(TileProblem) {
        checked = try TileURLTemplate(template, subdomains: subdomains)
        self.offline = offline
        self.maximumRequestsInFlight = max(1, maximumRequestsInFlight)
        userAgent = "TrackSnap/\(version.isEmpty ? "dev" : version) (offline batch map thumbnails; tile cache on disk)"
        var description = TileSourceDescription()
        description.kind = Self.kind(ofTemplate: checked.text)
        sourceDescription = description
        // The full template keys the folder (two API keys may see different tiles); only its hash
        // and the redacted form are written down.
        cacheFolder = "\(cacheDirectory)/\(String(SHA256.hash(checked.text).hex.prefix(16)))"
        breaker = SharedBreaker(cacheFolder: cacheFolder)
        do {
            try FileStore.createDirectories(cacheFolder + "/.requests")
            // A note for whoever finds the folder: which server it holds. Rewritten when it still
            // holds what an older version wrote (the template with its credentials).
            let note = Array((checked.redacted + "\n").utf8)
            if (try? FileStore.readFile(cacheFolder + "/SOURCE", maximumBytes: 1 << 16)) != note {
                try FileStore.writeAtomically(note, to: cacheFolder + "/SOURCE")
            }
        } catch {
            throw TileProblem("tile cache '\(cacheDirectory)': \(error)")
        }
        if !offline {
            var message = [CChar](repeating: 0, count: 512)
            if tsnap_http_load(&message, message.count) != 0 { throw TileProblem(Self.text(message)) }
        }
    }

    /// The URL of a tile (with credentials: for fetching only).
    package func url(_ coordinate: TileCoordinate) -> String { checked.url(coordinate) }

    /// The tile: fresh from the disk cache, revalidated, or fetched.
    package func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        let stem = stem(coordinate)
        let cached = CachedTile.read(stem: stem, limit: limit)
        servedFromDisk = nil
        let now = now()
        if let cached, now < cached.freshUntil {
            return fromDisk(cached, coordinate)
        }
        if offline {
            if let cached { return fromDisk(cached, coordinate) }
            throw TileProblem("not in the tile cache, and --offline forbids fetching \(checked.redactedURL(coordinate))")
        }
        if let reason = breaker.openReason(budget) {
            if let cached { return fromDisk(cached, coordinate) }
            throw TileProblem("not fetched: \(reason)", kind: .notAsked)
        }
        let timeout = min(requestTimeoutSeconds, budget.secondsLeft)
        guard timeout > 0.05 else {
            if let cached { return fromDisk(cached, coordinate) }
            throw TileProblem("not fetched: \(budget.spentLimit) had run out", kind: .notAsked)
        }
        let response: HTTPResponse
        do {
            response = try RequestSlots(folder: cacheFolder + "/.requests", count: maximumRequestsInFlight).holding(
                forAtMost: timeout
            ) { () throws(TileProblem) -> HTTPResponse in
                requests += 1
                // The slot may have taken some of the time.
                let left = min(requestTimeoutSeconds, budget.secondsLeft)
                return try get(coordinate, validators: cached, limit: limit, timeoutSeconds: max(0.05, left))
            }
        } catch {
            if error.kind == .unavailable { recordFailure(error) }
            // The network failed: a stale copy is better than the grid.
            if let cached { return fromDisk(cached, coordinate) }
            throw annotated(error)
        }
        let policy = HTTPCachePolicy(response: response, now: now)
        switch response.status {
        case 200:
            budget.recordSuccess()
            store(
                CachedTile(body: response.body, freshUntil: policy.freshUntil, etag: response.etag, lastModified: response.lastModified), stem: stem)
            return response.body
        case 304 where cached != nil:
            budget.recordSuccess()
            notModified += 1
            var refreshed = cached!
            refreshed.freshUntil = policy.freshUntil
            if !response.etag.isEmpty { refreshed.etag = response.etag }
            store(refreshed, stem: stem)
            return refreshed.body
        case 404, 204:
            budget.recordSuccess()
            store(CachedTile(body: nil, freshUntil: policy.freshUntil, etag: response.etag, lastModified: response.lastModified), stem: stem)
            return nil
        default:
            let problem = TileProblem("HTTP \(response.status) from \(checked.redactedURL(coordinate))", kind: .unavailable)
            recordFailure(problem)
            if let cached { return fromDisk(cached, coordinate) }
            throw annotated(problem)
        }
    }

    /// Drops the cached copy of a tile that did not decode. True when the bytes had come from
    /// the disk cache (a damaged or stale copy marked fresh): then one fetch is worth trying.
    package func forgetTile(_ coordinate: TileCoordinate) -> Bool {
        let stem = stem(coordinate)
        // The meta goes first: a body without meta reads as not cached.
        try? FileStore.remove(stem + ".meta")
        try? FileStore.remove(stem + ".tile")
        defer { servedFromDisk = nil }
        return servedFromDisk == coordinate && !offline
    }

    private func stem(_ coordinate: TileCoordinate) -> String { "\(cacheFolder)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y)" }

    private func fromDisk(_ cached: CachedTile, _ coordinate: TileCoordinate) -> [UInt8]? {
        diskHits += 1
        if cached.body != nil { servedFromDisk = coordinate }
        return cached.body
    }

    /// Counts a failed request (`SharedBreaker`: the breaker may open for every worker of the run).
    private func recordFailure(_ problem: TileProblem) {
        breaker.recordFailure(problem, in: budget, what: "the tile server")
    }

    private func annotated(_ problem: TileProblem) -> TileProblem { SharedBreaker.annotated(problem, budget: budget) }

    private func get(_ coordinate: TileCoordinate, validators: CachedTile?, limit: Int, timeoutSeconds: Double) throws(TileProblem) -> HTTPResponse {
        var raw = tsnap_http_response()
        var message = [CChar](repeating: 0, count: 512)
        let milliseconds = Int(min(max(timeoutSeconds, 0.001), 86_400) * 1000)
        let status = tsnap_http_get(
            url(coordinate), userAgent, validators?.etag ?? "", validators?.lastModified ?? "", milliseconds, limit, &raw, &message, message.count)
        guard status == 0 else {
            // libcurl's messages name the host at most; the URL shown is the redacted one.
            throw TileProblem("fetching \(checked.redactedURL(coordinate)): \(Self.text(message))", kind: .unavailable)
        }
        defer { tsnap_http_response_free(&raw) }
        return HTTPResponse(raw)
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
    /// `Content-Range` of a 206 answer, "" otherwise.
    var contentRange = ""
    /// `Content-Length` as sent, "" when absent.
    var contentLength = ""
    /// A range request answered 200 (the whole file; abandoned at its first body byte).
    var rangeIgnored = false

    /// What libcurl's answer holds (copied: `raw` is freed by the caller).
    init(_ raw: tsnap_http_response) {
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        status = raw.status
        body = raw.body.map { Array(UnsafeBufferPointer(start: $0, count: raw.body_count)) } ?? []
        etag = field(raw.etag)
        lastModified = field(raw.last_modified)
        cacheControl = field(raw.cache_control)
        expires = field(raw.expires)
        date = field(raw.date)
        contentRange = field(raw.content_range)
        contentLength = field(raw.content_length)
        rangeIgnored = raw.range_ignored != 0
    }
}

/// At most `count` holders at once across processes: an `ExclusiveLock` on one of `count` slot
/// files.
struct RequestSlots {
    let folder: String
    let count: Int

    /// Runs `body` holding a slot; waits for one at most `seconds` (a slot held by another
    /// worker's hanging request must not stall this image past its deadline).
    func holding<T>(forAtMost seconds: Double, _ body: () throws(TileProblem) -> T) throws(TileProblem) -> T {
        let giveUp = TileTimeBudget.monotonicSeconds() + seconds
        var held: ExclusiveLock? = nil
        var pause: UInt32 = 2_000
        while held == nil {
            var opened = 0
            for slot in 0..<count {
                let lock: ExclusiveLock?
                do { lock = try ExclusiveLock.tryAcquire("\(folder)/slot-\(slot)") } catch { continue }
                opened += 1
                if let lock {
                    held = lock
                    break
                }
            }
            // No slot file can be opened (a read-only cache): politeness cannot be enforced here.
            if held != nil || opened == 0 { break }
            if TileTimeBudget.monotonicSeconds() >= giveUp {
                throw TileProblem("not fetched: no request slot came free within this image's time for tiles", kind: .notAsked)
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        defer { held?.release() }
        return try body()
    }
}
