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
        /// Where its line is in the file (newline included), once loaded or saved: `ListingOrder`
        /// keeps it, so a refresh that adds tracks reads the few lines it needs (`entry(in:at:)`).
        var line: Range<Int>? = nil
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
            guard let (key, entry) = parse(bytes, fields) else { return }
            cache.entries[key] = entry
        }
        return cache
    }

    /// The entry whose line is at `line` in the cache file `bytes` (mapped, not read: a refresh
    /// that adds a track reads a few hundred of its lines); nil when the bytes there are not one
    /// whole line of the cache (the file was replaced since the position was kept).
    static func entry(in bytes: UnsafeBufferPointer<UInt8>, at line: Range<Int>) -> (key: String, entry: Entry)? {
        guard line.lowerBound > 0, line.upperBound <= bytes.count, line.count > 1, bytes[line.lowerBound - 1] == 0x0A,
            bytes[line.upperBound - 1] == 0x0A
        else { return nil }
        let lineBytes = Array(bytes[line])
        var parsed: (key: String, entry: Entry)?
        TabSeparated.forEachRecord(in: lineBytes, maximumFields: 8) { fields in parsed = parse(lineBytes, fields) }
        guard var parsed else { return nil }
        parsed.entry.line = line
        return parsed
    }

    /// One line's fields (`forEachRecord`) as a key and entry, its fragments slices of `bytes`.
    private static func parse(_ bytes: [UInt8], _ fields: [Range<Int>]) -> (key: String, entry: Entry)? {
        func text(_ index: Int) -> String { String(decoding: bytes[fields[index]], as: UTF8.self) }
        guard fields.count == 8, let sortTime = Double(text(3)), let digest = UInt64(text(5), radix: 16) else { return nil }
        let entry = Entry(
            source: TabSeparated.unescape(text(1)),
            jobs: TabSeparated.unescape(text(2)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            sortTime: sortTime, month: text(4), digest: digest, json: bytes[fields[6]], card: bytes[fields[7]],
            line: fields[0].lowerBound..<(fields[7].upperBound + 1))
        return (text(0), entry)
    }

    /// Appends the lines of `added`; rewrites the whole file (atomically) instead when more than
    /// a third of its lines would be stale, or when there is no file. Every entry's `line` then
    /// says where its line is.
    mutating func save(_ path: String) throws(FileError) {
        let kept = entries.count - added.count
        let stale = linesOnDisk - kept
        if linesOnDisk > 0, stale * 3 <= linesOnDisk, FileStore.exists(path) {
            guard !added.isEmpty else { return }
            try Self.append(added.compactMap { key in entries[key].map { (key, $0) } }, to: path) { key, line in entries[key]?.line = line }
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.values.reduce(0) { $0 + $1.json.count + $1.card.count + 200 } + 64)
        bytes += Array(Self.templateVersion.utf8) + [0x0A]
        for key in entries.keys.sorted() {
            let start = bytes.count
            Self.append(key, entries[key]!, to: &bytes)
            entries[key]?.line = start..<bytes.count
        }
        try FileStore.writeAtomically(bytes, to: path)
    }

    /// Appends the lines of `entries` to the cache file at `path` (which must exist) and tells
    /// `placed` where each line went.
    static func append(_ entries: [(key: String, entry: Entry)], to path: String, placed: (String, Range<Int>) -> Void) throws(FileError) {
        var bytes: [UInt8] = []
        var lines: [Range<Int>] = []
        for (key, entry) in entries {
            let start = bytes.count
            append(key, entry, to: &bytes)
            lines.append(start..<bytes.count)
        }
        let offset = try FileStore.append(bytes, to: path)
        for (index, line) in lines.enumerated() { placed(entries[index].key, (line.lowerBound + offset)..<(line.upperBound + offset)) }
    }

    private static func append(_ key: String, _ entry: Entry, to bytes: inout [UInt8]) {
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
