import FileStore

/// What the listing remembers about each listed track between refreshes: its sort time, month,
/// and its ready-made JSON object and card (`TrackFragments`), keyed by cache key and valid while
/// the source name and jobs are the same. One line per track in `Output/.tracksnap/listing-cache`:
///
///     key \t source \t jobs (newline-joined) \t sort_time \t month \t json-digest \t json \t card
///
/// The first line names the page template version; a different one discards the cache. Loading
/// keeps the fragments as byte slices of the file (no decoding), and a refresh appends only the
/// tracks it has not seen, which is what makes refreshing 100,000 known tracks cheap. An appended
/// line cut short by a crash fails to parse and is skipped (its track is rebuilt).
struct ListingCache {
    /// Bump when `TrackFragments` or the pages change their output, so cached pieces are rebuilt.
    static let templateVersion = "tracksnap-listing-cache/3"

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

    /// The live entries. A refresh starts from the loaded ones and replaces them wholesale.
    var entries: [String: Entry] = [:]
    /// Keys whose entry was built (or rebuilt) since loading: `save` appends just these lines.
    var added: [String] = []
    /// Lines in the file at load, live or not; decides when `save` rewrites instead of appending.
    private var linesOnDisk = 0

    /// Reads the cache; later lines for a key replace earlier ones (the file is append-mostly).
    static func load(_ path: String) -> ListingCache {
        var cache = ListingCache()
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 8 << 30) else { return cache }
        let header = Array(templateVersion.utf8) + [0x0A]
        guard bytes.starts(with: header) else { return cache }
        // Growing a 100,000-entry dictionary rehashes every key many times over: reserve for
        // ~2 KB a line (the cards and JSON of a track).
        cache.entries.reserveCapacity(bytes.count / 2048)
        TabSeparated.forEachRecord(in: bytes, from: header.count, maximumFields: 8) { fields in
            cache.linesOnDisk += 1
            func text(_ index: Int) -> String { String(decoding: bytes[fields[index]], as: UTF8.self) }
            guard fields.count == 8, let sortTime = Double(text(3)), let digest = UInt64(text(5), radix: 16) else { return }
            cache.entries[text(0)] = Entry(
                source: TabSeparated.unescape(text(1)),
                jobs: TabSeparated.unescape(text(2)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
                sortTime: sortTime, month: text(4), digest: digest, json: bytes[fields[6]], card: bytes[fields[7]])
        }
        return cache
    }

    /// Appends the lines of `added`; rewrites the whole file (atomically) instead when more than
    /// a third of its lines would be stale, or when there is no file.
    func save(_ path: String) throws(FileError) {
        let kept = entries.count - added.count
        let stale = linesOnDisk - kept
        if linesOnDisk > 0, stale * 3 <= linesOnDisk, FileStore.exists(path) {
            guard !added.isEmpty else { return }
            var bytes: [UInt8] = []
            for key in added { if let entry = entries[key] { append(key, entry, to: &bytes) } }
            try FileStore.append(bytes, to: path)
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.values.reduce(0) { $0 + $1.json.count + $1.card.count + 200 } + 64)
        bytes += Array(Self.templateVersion.utf8) + [0x0A]
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) { append(key, entry, to: &bytes) }
        try FileStore.writeAtomically(bytes, to: path)
    }

    private func append(_ key: String, _ entry: Entry, to bytes: inout [UInt8]) {
        let jobs = TabSeparated.escape(entry.jobs.joined(separator: "\n"))
        bytes += Array(
            "\(key)\t\(TabSeparated.escape(entry.source))\t\(jobs)\t\(entry.sortTime)\t\(entry.month)\t\(String(entry.digest, radix: 16))\t".utf8)
        bytes += entry.json
        bytes.append(0x09)
        bytes += entry.card
        bytes.append(0x0A)
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
