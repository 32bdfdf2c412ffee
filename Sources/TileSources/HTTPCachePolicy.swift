#if canImport(Glibc)
import Glibc
#endif
import FileStore

/// How long a fetched tile stays fresh (RFC 9111, for a private cache): `Cache-Control:
/// max-age`, else `Expires` − `Date`, else 10% of the time since `Last-Modified` (at most a
/// week), else a day. `no-cache`/`no-store`, a negative or unreadable `max-age` make it stale at
/// once (kept, revalidated next time). Every number a server sends is bounded here: freshness is
/// 0 to `longestFreshSeconds` whatever the headers say (`max-age=9223372036854775807`, `1e24`,
/// a year 99999 date), so nothing downstream converts an unbounded value. Pure.
package struct HTTPCachePolicy: Sendable, Equatable {
    /// Seconds since the epoch until which the tile is used without asking the server; always
    /// within `now ... now + longestFreshSeconds`.
    package var freshUntil: Double

    /// The longest a tile is trusted without asking: a year (RFC 9111 suggests no more).
    package static let longestFreshSeconds = 365.0 * 86_400

    /// The policy for a response's headers (values as received, "" when absent) at `now`.
    package init(cacheControl: String, expires: String, date: String, lastModified: String, now: Double) {
        let now = now.isFinite ? now : 0
        freshUntil = now + Self.freshSeconds(cacheControl: cacheControl, expires: expires, date: date, lastModified: lastModified, now: now)
    }

    init(response: HTTPResponse, now: Double) {
        self.init(cacheControl: response.cacheControl, expires: response.expires, date: response.date, lastModified: response.lastModified, now: now)
    }

    private static func freshSeconds(cacheControl: String, expires: String, date dateText: String, lastModified: String, now: Double) -> Double {
        let control = cacheControl.lowercased()
        if control.contains("no-cache") || control.contains("no-store") { return 0 }
        if let range = control.firstRange(of: "max-age=") {
            // delta-seconds: digits only ("60", or quoted); anything else ("-5", "1e24", "soon")
            // is unreadable, and RFC 9111 §4.2.1 makes that stale, as a negative age is.
            var token = control[range.upperBound...].prefix { $0 != "," && $0 != ";" && $0 != " " }
            if token.count >= 2, token.first == "\"", token.last == "\"" { token = token.dropFirst().dropLast() }
            guard !token.isEmpty, token.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
            // More than 10 digits is past any bound: the longest, without converting it.
            guard token.count <= 10, let seconds = Double(token) else { return longestFreshSeconds }
            return bounded(seconds)
        }
        let date = HTTPDate.parse(dateText) ?? now
        if let expires = HTTPDate.parse(expires) { return bounded(expires - date) }
        if let modified = HTTPDate.parse(lastModified), modified < date { return bounded(min(7 * 86_400, (date - modified) / 10)) }
        return 86_400
    }

    private static func bounded(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds > 0 ? longestFreshSeconds : 0 }
        return min(max(0, seconds), longestFreshSeconds)
    }
}

/// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the format every server sends. Fields out of
/// range (day 1–31, year 1970–9999, 00:00:00–23:59:60) make the date unreadable, not a trap.
enum HTTPDate {
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count >= 5, text.utf8.count < 100 else { return nil }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard let day = small(parts[1], 1...31), let month = months.firstIndex(of: parts[2].lowercased()), let year = small(parts[3], 1970...9999)
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = small(clock[0], 0...23), let minute = small(clock[1], 0...59), let second = small(clock[2], 0...60) else {
            return nil
        }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        return Double(timegm(&fields))
    }

    /// A short run of ASCII digits within `range`, else nil.
    private static func small(_ text: Substring, _ range: ClosedRange<Int>) -> Int? {
        guard (1...4).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), range.contains(value) else {
            return nil
        }
        return value
    }
}

/// A tile in the disk cache: `stem.tile` (the body; absent for a 404) and `stem.meta` (lines
/// `fresh-until`, `etag`, `last-modified`, `absent`).
struct CachedTile {
    var body: [UInt8]?
    var freshUntil: Double
    var etag = ""
    var lastModified = ""

    static func read(stem: String, limit: Int) -> CachedTile? {
        guard let meta = try? FileStore.readFile(stem + ".meta", maximumBytes: 4096) else { return nil }
        var tile = CachedTile(body: nil, freshUntil: 0)
        var absent = false
        for line in String(decoding: meta, as: UTF8.self).split(separator: "\n") {
            let pair = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let key = pair.first else { continue }
            let value = pair.count > 1 ? pair[1] : ""
            switch key {
            // A damaged or edited meta file reads as stale, never as a huge or NaN time.
            case "fresh-until": tile.freshUntil = Double(value).flatMap { $0.isFinite ? $0 : nil } ?? 0
            case "etag": tile.etag = value
            case "last-modified": tile.lastModified = value
            case "absent": absent = true
            default: break
            }
        }
        if !absent {
            guard let body = try? FileStore.readFile(stem + ".tile", maximumBytes: limit) else { return nil }
            tile.body = body
        }
        return tile
    }

    /// Body first, then the meta that points at it: a crash between the two leaves a body
    /// without meta, which reads as not cached.
    func write(stem: String) throws(FileError) {
        // Bounded before the conversion: Int(_:) of a Double past Int.max traps.
        let seconds = freshUntil.isFinite ? Int(min(max(freshUntil, 0), 1e15)) : 0
        var meta = "fresh-until \(seconds)\n"
        if !etag.isEmpty { meta += "etag \(etag)\n" }
        if !lastModified.isEmpty { meta += "last-modified \(lastModified)\n" }
        if let body {
            try FileStore.writeAtomically(body, to: stem + ".tile")
        } else {
            meta += "absent\n"
        }
        try FileStore.writeAtomically(Array(meta.utf8), to: stem + ".meta")
    }
}
