import ContentHash
import FileStore

/// The region index kept as a whole file and a journal of what changed since, so that a refresh
/// writes the lines it changed and not the whole index: at 100,000 tracks the index is some
/// 150–200 KB, four fifths of it a digest per region page, and one new track changes two pictures,
/// one region and two or three pages (2–3 KB).
///
/// Files, in `Output/.tracksnap/overview/`: `regions.2.index`, the index's lines after a first
/// line `regions-index \t <generation>`; `regions.2.journal`, blocks appended after it, each
/// `begin \t <generation>`, the lines it sets (the index's own) or removes
/// (`drop \t picture|page|region \t name`), then `end \t <digest>`, the first 16 bytes of the
/// SHA-256 of the block's lines in hex. Loading applies, in order, every block of the whole
/// file's generation whose digest matches: a block cut short by a kill (`FileStore.append`
/// starts the next one on a line of its own) or left from before a compaction is not applied.
/// When the journal would grow past the whole file (and at least `compactionMinimumBytes`), the
/// index is written whole with the next generation and the journal removed after it; a journal
/// of an older generation left by a kill between the two is then not read. Version 1 of the
/// index (`regions.index`, whole, no generation) is read when there is no version 2, written
/// again as version 2 at the next change and then removed: a version 1 reader finds no index and
/// reads every region's counts again rather than an index that is not up to date, and when both
/// files are there (version 1 ran after this one) neither is read.
extension OverviewRegionIndex {
    /// The index's files under the overview's state directory.
    struct Files {
        /// The state directory (`Output/.tracksnap/overview`).
        let directory: String
        /// The whole index.
        var wholePath: String { directory + "/regions.2.index" }
        /// The journal of changes since the whole index was written.
        var journalPath: String { directory + "/regions.2.journal" }
        /// Version 1's whole index (read when there is no version 2; removed once it is written).
        var legacyPath: String { directory + "/regions.index" }
    }

    /// A journal never grows past the whole index, and is allowed this many bytes whatever the
    /// whole index's size: a small site's index would otherwise be written whole every refresh or two.
    static let compactionMinimumBytes = 16 << 10

    /// The index as kept in `files`: the whole file and its journal (version 1's file when there
    /// is no version 2); empty when none reads.
    static func load(_ files: Files) -> OverviewRegionIndex {
        var index = OverviewRegionIndex()
        // Both versions' files: a version 1 writer ran after this version (or a kill came between
        // writing version 2 and removing version 1). Neither is trusted: every picture and page is
        // checked again, and the next save writes version 2 whole and removes version 1.
        if FileStore.exists(files.legacyPath) && FileStore.exists(files.wholePath) {
            index.legacyKept = true
            return index
        }
        if let whole = try? FileStore.readFile(files.wholePath) {
            var records = TabSeparated.records(whole)
            if let first = records.first, first.count == 2, first[0] == "regions-index", let generation = Int(first[1]), generation > 0 {
                records.removeFirst()
                index.generation = generation
                for fields in records { index.apply(fields) }
                index.wholeBytes = whole.count
            }
        } else if let legacy = try? FileStore.readFile(files.legacyPath) {
            index = load(bytes: legacy)
            index.legacyKept = true
        }
        if let journal = try? FileStore.readFile(files.journalPath) {
            index.journalBytes = journal.count
            index.journalStale = !index.applyJournal(journal)
        }
        index.kept = (index.entries, index.pages, index.regions)
        return index
    }

    /// Applies the journal's blocks of this index's generation whose digests match; false when
    /// some block is of another generation or does not check (the journal is then written anew).
    mutating func applyJournal(_ bytes: [UInt8]) -> Bool {
        var clean = true
        var block: [[String]]? = nil
        var blockGeneration = 0
        var hash = SHA256()
        TabSeparated.forEachRecord(in: bytes) { ranges in
            let fields = ranges.map { TabSeparated.unescape(String(decoding: bytes[$0], as: UTF8.self)) }
            if fields.count == 2 && fields[0] == "begin" {
                if block != nil { clean = false }
                block = []
                blockGeneration = Int(fields[1]) ?? -1
                hash = SHA256()
            } else if fields.count == 2 && fields[0] == "end" {
                if let lines = block, blockGeneration == generation, Self.blockDigest(hash) == fields[1] {
                    for line in lines { apply(line) }
                } else {
                    clean = false
                }
                block = nil
            } else if block != nil {
                block!.append(fields)
                hash.update(Array(bytes[ranges.first!.lowerBound..<ranges.last!.upperBound]) + [0x0A])
            } else {
                clean = false
            }
        }
        return clean && block == nil
    }

    /// How a block's lines are checked: the first 16 bytes of their SHA-256, in hex.
    private static func blockDigest(_ hash: SHA256) -> String {
        var hash = hash
        return String(hash.finalize().hex.prefix(32))
    }

    /// What saving the index writes: the journal block of the lines that changed since it was
    /// loaded, or (`whole`) the whole index of the next generation (also when it was read from
    /// version 1's file or its journal did not read whole); nil when nothing changed.
    func saving() -> (bytes: [UInt8], whole: Bool)? {
        var loaded = OverviewRegionIndex()
        (loaded.entries, loaded.pages, loaded.regions) = kept
        let keptLines = Dictionary(loaded.keyedLines().map { ($0.key, $0.line) }, uniquingKeysWith: { $1 })
        let lines = keyedLines()
        var block = ""
        var live = Set<String>()
        for (key, line) in lines {
            live.insert(key)
            if keptLines[key] != line { block += line }
        }
        for key in keptLines.keys.sorted() where !live.contains(key) {
            let tab = key.firstIndex(of: "\t")!
            block += TabSeparated.line(["drop", String(key[..<tab]), String(key[key.index(after: tab)...])])
        }
        if block.isEmpty && !legacyKept && !journalStale { return nil }
        let blockBytes = Array(block.utf8)
        let framed = blockBytes.count + 64
        if generation > 0 && !legacyKept && !journalStale && journalBytes + framed <= max(wholeBytes, Self.compactionMinimumBytes) {
            var hash = SHA256()
            hash.update(blockBytes)
            let text = TabSeparated.line(["begin", String(generation)]) + block + TabSeparated.line(["end", Self.blockDigest(hash)])
            return (Array(text.utf8), false)
        }
        let text = TabSeparated.line(["regions-index", String(generation + 1)]) + lines.map(\.line).joined()
        return (Array(text.utf8), true)
    }

    /// Saves the index's changes since it was loaded into `files`: a block appended to the
    /// journal (fsynced) before `thenWrite` is written (`FileStore.writeAtomically`, in order), or
    /// the whole index written first in that batch and the journal removed after it.
    func save(_ files: Files, thenWrite batch: [(bytes: [UInt8], path: String)]) throws(FileError) {
        guard let (bytes, whole) = saving() else {
            try FileStore.writeAtomically(batch, permissions: 0o600)
            return
        }
        if whole {
            try FileStore.writeAtomically([(bytes, files.wholePath)] + batch, permissions: 0o600)
            try FileStore.remove(files.journalPath)
            try FileStore.remove(files.legacyPath)
            return
        }
        if !FileStore.exists(files.journalPath) {
            try FileStore.writeAtomically(bytes, to: files.journalPath, permissions: 0o600)
        } else {
            try FileStore.append(bytes, to: files.journalPath)
        }
        try FileStore.writeAtomically(batch, permissions: 0o600)
    }
}
