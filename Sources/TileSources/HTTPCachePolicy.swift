#if canImport(Glibc)
import Glibc
#endif
import FileStore

/// How long a fetched tile stays fresh (RFC 9111, for a private cache): `Cache-Control:
/// max-age`, else `Expires` − `Date`, else 10% of the time since `Last-Modified` (at most a
/// week), else a day. `no-cache`/`no-store` make it stale at once (kept, revalidated next time).
struct HTTPCachePolicy {
    /// Seconds since the epoch until which the tile is used without asking the server.
    var freshUntil: Double

    init(response: HTTPResponse, now: Double) {
        let control = response.cacheControl.lowercased()
        if control.contains("no-cache") || control.contains("no-store") {
            freshUntil = now
            return
        }
        if let range = control.firstRange(of: "max-age=") {
            let digits = control[range.upperBound...].prefix { $0.isNumber }
            if let seconds = Double(digits) {
                freshUntil = now + seconds
                return
            }
        }
        let date = HTTPDate.parse(response.date) ?? now
        if let expires = HTTPDate.parse(response.expires) {
            freshUntil = now + max(0, expires - date)
            return
        }
        if let modified = HTTPDate.parse(response.lastModified), modified < date {
            freshUntil = now + min(7 * 86_400, (date - modified) / 10)
            return
        }
        freshUntil = now + 86_400
    }
}

/// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the format every server sends.
enum HTTPDate {
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count >= 5 else { return nil }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard let day = Int(parts[1]), let month = months.firstIndex(of: parts[2].lowercased()), let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(clock[0])
        fields.tm_min = Int32(clock[1])
        fields.tm_sec = Int32(clock[2])
        return Double(timegm(&fields))
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
            case "fresh-until": tile.freshUntil = Double(value) ?? 0
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
        var meta = "fresh-until \(Int(freshUntil))\n"
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
