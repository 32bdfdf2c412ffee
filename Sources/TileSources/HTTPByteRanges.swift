#if canImport(Glibc)
import Glibc
#endif
import CLibCurl
import ContentHash
import FileStore
import VectorTiles

/// One file on an http(s) server read by `Range:` requests (a PMTiles archive, as Protomaps
/// extracts are served), through the same disk cache, politeness and patience as URL tiles
/// (`URLTileSource`): a User-Agent naming TrackSnap, at most `maximumRequestsInFlight` requests
/// at once across the processes sharing the cache folder, the `budget`'s time and circuit breaker
/// checked before each request, `offline` to use the cache only.
///
/// At `init` the file's first `headBytes` (a PMTiles header and root directory) are read: from
/// the cache while `Cache-Control`/`Expires` say they are fresh, else asked again with
/// `If-None-Match`. Their validators and bytes make the file's `identity`; every other range is
/// cached under it (`FOLDER/IDENTITY/…`) and never goes stale, so a changed file (another ETag,
/// Last-Modified or head) is never mixed with the old one's ranges. Ranges are asked with
/// `If-Match:` the ETag (a strong one), so a file replaced during a run answers 412 and its
/// ranges fail (drawn by a later run) instead of mixing two files.
///
/// A server that answers a range request with 200 (the whole file) is refused at its first body
/// byte: it would send gigabytes. A failed range is a `TileProblem` of kind `.unavailable` (or
/// `.notAsked` once the time or the breaker says no), so the tile is failed, not absent, and a
/// later run asks again; `lastProblem` keeps it for the caller, as `PMTilesReader` keeps only
/// its message.
package final class HTTPByteRanges: ByteRangeReading {
    /// The URL as given (may hold credentials: never show it; see `displayURL`).
    package let url: String
    /// The URL without credentials or query values.
    package let displayURL: String
    /// The folder this URL's ranges are cached in (named by a hash of the full URL).
    package let cacheFolder: String
    /// Whether the network is never used.
    package let offline: Bool
    /// The User-Agent sent.
    package let userAgent: String
    /// Most requests at once, across every process sharing the cache. Default: 2.
    package let maximumRequestsInFlight: Int
    /// Seconds one request may take, connection included. Default: 10.
    package var requestTimeoutSeconds: Double
    /// The time for tiles and the circuit breaker, checked before each request.
    package let budget = TileTimeBudget()
    /// The file's size, from the `Content-Range` of the head's answer.
    package let byteCount: UInt64
    /// What identifies this version of the file: a hash of its ETag, Last-Modified, size and
    /// head bytes (16 hex digits). Names the folder its ranges are cached in.
    package let identity: String
    /// Requests made and ranges served from the disk cache since creation (the head included).
    package private(set) var requests = 0, diskHits = 0
    /// The problem of the last read that failed, nil after one that worked.
    package private(set) var lastProblem: TileProblem?
    /// The offset and length of the last read when the disk cache served it, else nil: bytes
    /// that do not decode there mean a damaged cached copy, worth one refetch.
    package private(set) var lastReadFromDisk: (offset: UInt64, length: Int)?

    /// Bytes read at `init`: the spec puts the header and root directory in the first 16 KiB.
    package static let headBytes = 16_384

    private let head: CachedHead
    private let breaker: SharedBreaker

    /// Opens `url`: checks it, reads the head (cache or server). Throws a message naming the
    /// (redacted) URL: unreachable, an HTTP error, no `Content-Range`, a server ignoring `Range`.
    package init(
        url: String, cacheDirectory: String, offline: Bool, version: String, maximumRequestsInFlight: Int = 2, requestTimeoutSeconds: Double = 10,
        now: Double = Double(time(nil))
    ) throws(TileProblem) {
        self.url = try TileURLTemplate.checkedArchiveURL(url)
        displayURL = TileURLTemplate.redact(self.url)
        self.offline = offline
        self.maximumRequestsInFlight = max(1, maximumRequestsInFlight)
        self.requestTimeoutSeconds = requestTimeoutSeconds
        userAgent = "TrackSnap/\(version.isEmpty ? "dev" : version) (offline batch map thumbnails; tile cache on disk)"
        cacheFolder = "\(cacheDirectory)/\(String(SHA256.hash(self.url).hex.prefix(16)))"
        breaker = SharedBreaker(cacheFolder: cacheFolder)
        do {
            try FileStore.createDirectories(cacheFolder + "/.requests")
            let note = Array((displayURL + "\n").utf8)
            if (try? FileStore.readFile(cacheFolder + "/SOURCE", maximumBytes: 1 << 16)) != note {
                try FileStore.writeAtomically(note, to: cacheFolder + "/SOURCE")
            }
        } catch {
            throw TileProblem("tile cache '\(cacheDirectory)': \(error)")
        }
        let cached = CachedHead.read(folder: cacheFolder)
        var counted = (requests: 0, diskHits: 0)
        if let cached, offline || now < cached.freshUntil {
            head = cached
            counted.diskHits = 1
        } else if offline {
            throw TileProblem("'\(displayURL)' is not in the tile cache, and --offline forbids fetching it")
        } else {
            var message = [CChar](repeating: 0, count: 512)
            if tsnap_http_load(&message, message.count) != 0 { throw TileProblem(URLTileSource.text(message)) }
            counted.requests = 1
            do {
                head = try Self.fetchHead(
                    url: self.url, displayURL: displayURL, userAgent: userAgent, cached: cached, timeoutSeconds: requestTimeoutSeconds, now: now)
                try? head.write(folder: cacheFolder)
            } catch {
                // A server having a bad minute: yesterday's head (and its cached ranges) beats no map.
                guard let cached, error.kind != .tile else { throw error }
                head = cached
                counted.diskHits = 1
            }
        }
        (requests, diskHits) = counted
        byteCount = head.size
        identity = head.identity
    }

    /// The `length` bytes at `offset`: from the head, the disk cache, or one range request.
    package func read(offset: UInt64, length: Int) throws -> [UInt8] {
        lastProblem = nil
        lastReadFromDisk = nil
        do throws(TileProblem) {
            return try range(offset: offset, length: length)
        } catch {
            lastProblem = error
            throw error
        }
    }

    private func range(offset: UInt64, length: Int) throws(TileProblem) -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(UInt64(max(0, length)))
        guard length >= 0, !overflow, end <= byteCount else {
            throw TileProblem("bytes \(offset) + \(length) lie past the end of '\(displayURL)' (\(byteCount) bytes)")
        }
        if length == 0 { return [] }
        if end <= UInt64(head.bytes.count) { return Array(head.bytes[Int(offset)..<Int(end)]) }
        let path = rangePath(offset: offset, length: length)
        if let bytes = try? FileStore.readFile(path, maximumBytes: length), bytes.count == length {
            diskHits += 1
            lastReadFromDisk = (offset, length)
            return bytes
        }
        // The caller names the archive (and the tile) around this.
        let what = "bytes \(offset)–\(end - 1)"
        if offline { throw TileProblem("not in the tile cache, and --offline forbids fetching \(what)") }
        if let reason = breaker.openReason(budget) { throw TileProblem("not fetched: \(reason)", kind: .notAsked) }
        guard min(requestTimeoutSeconds, budget.secondsLeft) > 0.05 else {
            throw TileProblem("not fetched: \(budget.spentLimit) had run out", kind: .notAsked)
        }
        let bytes: [UInt8]
        do {
            bytes = try RequestSlots(folder: cacheFolder + "/.requests", count: maximumRequestsInFlight).holding(
                forAtMost: min(requestTimeoutSeconds, budget.secondsLeft)
            ) { () throws(TileProblem) -> [UInt8] in
                requests += 1
                return try fetch(offset: offset, length: length, what: what)
            }
        } catch {
            if error.kind == .unavailable { breaker.recordFailure(error, in: budget, what: "the PMTiles server") }
            throw SharedBreaker.annotated(error, budget: budget)
        }
        budget.recordSuccess()
        // Best effort: a cache that cannot be written costs a refetch next time, not the render.
        try? FileStore.createDirectories(FileStore.split(path).directory)
        try? FileStore.writeAtomically(bytes, to: path)
        return bytes
    }

    /// One range request (in a slot); every way it can fail is `.unavailable`: the server's.
    private func fetch(offset: UInt64, length: Int, what: String) throws(TileProblem) -> [UInt8] {
        let timeout = max(0.05, min(requestTimeoutSeconds, budget.secondsLeft))
        // If-Match compares strongly: a weak ETag (W/"…") would always fail it.
        let ifMatch = head.etag.hasPrefix("W/") ? "" : head.etag
        let response = try Self.get(
            url: url, userAgent: userAgent, first: offset, length: length, ifMatch: ifMatch, ifNoneMatch: "", timeoutSeconds: timeout, what: what)
        switch response.status {
        case 206:
            let range = ContentRange(response.contentRange)
            guard let range, range.first == offset, range.count == UInt64(length), response.body.count == length else {
                throw TileProblem(
                    "\(what): expected Content-Range bytes \(offset)-\(offset + UInt64(length) - 1)/\(byteCount) and \(length) bytes, found '\(response.contentRange)' and \(response.body.count) bytes",
                    kind: .unavailable)
            }
            guard range.total == nil || range.total == byteCount, response.etag.isEmpty || head.etag.isEmpty || response.etag == head.etag else {
                throw TileProblem(Self.changed(what, since: head, now: response), kind: .unavailable)
            }
            return response.body
        case 412:
            throw TileProblem(Self.changed(what, since: head, now: response), kind: .unavailable)
        case 200:
            throw TileProblem("\(what): \(Self.ignoredRange(response))", kind: .unavailable)
        default:
            throw TileProblem("HTTP \(response.status) for \(what)", kind: .unavailable)
        }
    }

    /// Drops the cached copy of a range (its bytes did not decode).
    package func forget(offset: UInt64, length: Int) {
        try? FileStore.remove(rangePath(offset: offset, length: length))
    }

    /// Where the range is cached: under the file's identity, in folders of 16 MiB of offsets.
    private func rangePath(offset: UInt64, length: Int) -> String {
        "\(cacheFolder)/\(identity)/\(offset >> 24)/\(offset)+\(length)"
    }

    /// The head from the server: a conditional range request when a stale copy is cached.
    private static func fetchHead(
        url: String, displayURL: String, userAgent: String, cached: CachedHead?, timeoutSeconds: Double, now: Double
    ) throws(TileProblem) -> CachedHead {
        let what = "the head of '\(displayURL)'"
        let response = try get(
            url: url, userAgent: userAgent, first: 0, length: headBytes, ifMatch: "", ifNoneMatch: cached?.etag ?? "", timeoutSeconds: timeoutSeconds,
            what: what)
        let policy = HTTPCachePolicy(response: response, now: now)
        switch response.status {
        case 304 where cached != nil:
            var refreshed = cached!
            refreshed.freshUntil = policy.freshUntil
            return refreshed
        case 206:
            guard let range = ContentRange(response.contentRange), range.first == 0, range.count == UInt64(response.body.count),
                let total = range.total
            else {
                throw TileProblem(
                    "\(what): expected Content-Range bytes 0-…/SIZE matching the \(response.body.count) bytes sent, found '\(response.contentRange)'")
            }
            return CachedHead(
                bytes: response.body, size: total, freshUntil: policy.freshUntil, etag: response.etag, lastModified: response.lastModified)
        case 200:
            throw TileProblem("'\(displayURL)': \(ignoredRange(response))")
        default:
            throw TileProblem("HTTP \(response.status) for \(what)", kind: (500...599).contains(response.status) ? .unavailable : .tile)
        }
    }

    private static func ignoredRange(_ response: HTTPResponse) -> String {
        let size = response.contentLength.isEmpty ? "" : " of \(response.contentLength) bytes"
        return "the server ignored the Range request and began sending the whole file\(size) (HTTP 200); "
            + "TrackSnap reads PMTiles over http(s) only from servers that answer ranges (206 Partial Content), "
            + "as static hosts, object stores and CDNs do; download the file and give its path instead"
    }

    private static func changed(_ what: String, since head: CachedHead, now response: HTTPResponse) -> String {
        let was = head.etag.isEmpty ? "" : " (ETag \(head.etag)\(response.etag.isEmpty ? "" : ", now \(response.etag)"))"
        return "\(what): the file changed on the server since its head was read\(was); its tiles are drawn when a later run reads the new head"
    }

    /// One GET of `length` (at least 1) bytes at `first`.
    private static func get(
        url: String, userAgent: String, first: UInt64, length: Int, ifMatch: String, ifNoneMatch: String, timeoutSeconds: Double, what: String
    ) throws(TileProblem) -> HTTPResponse {
        var raw = tsnap_http_response()
        var message = [CChar](repeating: 0, count: 512)
        let milliseconds = Int(min(max(timeoutSeconds, 0.001), 86_400) * 1000)
        let status = tsnap_http_get_range(
            url, userAgent, first, first + UInt64(length) - 1, ifMatch, ifNoneMatch, milliseconds, length, &raw, &message,
            message.count)
        guard status == 0 else {
            throw TileProblem("fetching \(what): \(URLTileSource.text(message))", kind: .unavailable)
        }
        defer { tsnap_http_response_free(&raw) }
        return HTTPResponse(raw)
    }
}

/// "bytes FIRST-LAST/TOTAL" (TOTAL may be "*").
struct ContentRange: Equatable {
    var first: UInt64
    var count: UInt64
    var total: UInt64?

    init?(_ text: String) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("bytes ") else { return nil }
        let parts = lowered.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard parts.count == 2, bounds.count == 2, let first = UInt64(bounds[0]), let last = UInt64(bounds[1]), first <= last, last < UInt64.max
        else { return nil }
        self.first = first
        count = last - first + 1
        if parts[1] == "*" {
            total = nil
        } else {
            guard let total = UInt64(parts[1]), total > last else { return nil }
            self.total = total
        }
    }
}
