import FileStore

/// What the listing remembers about each listed track between refreshes: its sort time, month,
/// and its ready-made JSON object and card (`TrackFragments`), keyed by cache key and valid while
/// the source name and jobs are the same. One line per track in `Output/.tracksnap/listing-cache`:
///
///     key \t source \t jobs (newline-joined) \t sort_time \t month \t json-digest \t json \t card
///
/// The first line names the page template version; a different one discards the cache. Loading
/// keeps the fragments as byte slices of the file (no decoding), which is what makes refreshing
/// 100,000 known tracks cheap.
struct ListingCache {
    /// Bump when `TrackFragments` or the pages change their output, so cached pieces are rebuilt.
    static let templateVersion = "tracksnap-listing-cache/2"

    struct Entry {
        var source: String
        var jobs: [String]
        var sortTime: Double
        /// "2024-05", in the track's local time (or the file time's month).
        var month: String
        /// FNV-1a of `json`: the detail page is rewritten when it (or its page number) changes.
        var digest: UInt64
        var json: ArraySlice<UInt8>
        var card: ArraySlice<UInt8>
    }

    var entries: [String: Entry] = [:]

    static func load(_ path: String) -> ListingCache {
        var cache = ListingCache()
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 4 << 30) else { return cache }
        var lines = bytes[...].split(separator: 0x0A, omittingEmptySubsequences: true)[...]
        guard let header = lines.popFirst(), String(decoding: header, as: UTF8.self) == templateVersion else { return cache }
        cache.entries.reserveCapacity(lines.count)
        for line in lines {
            let fields = line.split(separator: 0x09, maxSplits: 7, omittingEmptySubsequences: false)
            guard fields.count == 8, let sortTime = Double(String(decoding: fields[3], as: UTF8.self)),
                let digest = UInt64(String(decoding: fields[5], as: UTF8.self), radix: 16)
            else { continue }
            let key = String(decoding: fields[0], as: UTF8.self)
            cache.entries[key] = Entry(
                source: TabSeparated.unescape(String(decoding: fields[1], as: UTF8.self)),
                jobs: TabSeparated.unescape(String(decoding: fields[2], as: UTF8.self)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                sortTime: sortTime, month: String(decoding: fields[4], as: UTF8.self), digest: digest, json: fields[6], card: fields[7])
        }
        return cache
    }

    func save(_ path: String) throws(FileError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.values.reduce(0) { $0 + $1.json.count + $1.card.count + 200 } + 64)
        bytes += Array(Self.templateVersion.utf8) + [0x0A]
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let jobs = TabSeparated.escape(entry.jobs.joined(separator: "\n"))
            bytes += Array("\(key)\t\(TabSeparated.escape(entry.source))\t\(jobs)\t\(entry.sortTime)\t\(entry.month)\t\(String(entry.digest, radix: 16))\t".utf8)
            bytes += entry.json
            bytes.append(0x09)
            bytes += entry.card
            bytes.append(0x0A)
        }
        try FileStore.writeAtomically(bytes, to: path)
    }

    /// FNV-1a, 64 bits: a change detector for page inputs (not a security boundary).
    static func digest<Bytes: Collection<UInt8>>(_ bytes: Bytes, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
