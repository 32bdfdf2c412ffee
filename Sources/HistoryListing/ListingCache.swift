#if canImport(Glibc)
import Glibc
#endif
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

    /// Lines read at load, live or not; decides when `save` rewrites instead of appending.
    var linesOnDisk = 0
    /// Keys loaded from disk (so `save` appends only the others).
    var keysOnDisk = Set<String>()

    /// Reads the cache; later lines for a key replace earlier ones (the file is append-mostly).
    static func load(_ path: String) -> ListingCache {
        var cache = ListingCache()
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 8 << 30) else { return cache }
        let header = Array(templateVersion.utf8) + [0x0A]
        guard bytes.count >= header.count, Array(bytes[0..<header.count]) == header else { return cache }
        bytes.withUnsafeBufferPointer { buffer in
            // memchr over the bytes: Collection.split's generic closure costs seconds on 250 MB.
            let base = buffer.baseAddress!
            var position = header.count
            var fields: [Range<Int>] = []
            fields.reserveCapacity(8)
            while position < buffer.count {
                let lineEnd = memchr(base + position, 0x0A, buffer.count - position).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
                fields.removeAll(keepingCapacity: true)
                var start = position
                while fields.count < 7, let tab = memchr(base + start, 0x09, lineEnd - start) {
                    let end = UnsafePointer<UInt8>(tab.assumingMemoryBound(to: UInt8.self)) - base
                    fields.append(start..<end)
                    start = end + 1
                }
                fields.append(start..<lineEnd)
                position = lineEnd + 1
                cache.linesOnDisk += 1
                func text(_ index: Int) -> String { String(decoding: UnsafeBufferPointer(rebasing: buffer[fields[index]]), as: UTF8.self) }
                guard fields.count == 8, let sortTime = Double(text(3)), let digest = UInt64(text(5), radix: 16) else { continue }
                let key = text(0)
                let jobs = text(2)
                cache.entries[key] = Entry(
                    source: TabSeparated.unescape(text(1)),
                    jobs: jobs.contains("\\") || jobs.contains("\n") ? TabSeparated.unescape(jobs).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) : [jobs],
                    sortTime: sortTime, month: text(4), digest: digest, json: bytes[fields[6]], card: bytes[fields[7]])
                cache.keysOnDisk.insert(key)
            }
        }
        return cache
    }

    /// Appends the entries not on disk yet; rewrites the whole file (atomically) instead when more
    /// than a third of its lines would be stale, or when there is no file.
    func save(_ path: String) throws(FileError) {
        let fresh = entries.filter { !keysOnDisk.contains($0.key) }
        let stale = linesOnDisk - (entries.count - fresh.count)
        if linesOnDisk > 0, stale * 3 <= linesOnDisk, FileStore.exists(path) {
            guard !fresh.isEmpty else { return }
            var bytes: [UInt8] = []
            for (key, entry) in fresh.sorted(by: { $0.key < $1.key }) { append(key, entry, to: &bytes) }
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
        bytes += Array("\(key)\t\(TabSeparated.escape(entry.source))\t\(jobs)\t\(entry.sortTime)\t\(entry.month)\t\(String(entry.digest, radix: 16))\t".utf8)
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
