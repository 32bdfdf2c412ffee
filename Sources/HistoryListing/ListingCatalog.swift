import ContentHash
import FileStore

/// The listing's stat cache: for each job in done/, the (size, mtime, inode) it had when its bytes
/// were last hashed, and that SHA-256. Lets a refresh over 10,000 unchanged jobs cost 10,000
/// `lstat` calls instead of reading and hashing every track again. Tab-separated lines in
/// `Output/.tracksnap/catalog`; a lost or stale entry only costs one re-hash.
///
/// A refresh does not even `lstat` a job whose name and inode (`d_ino`, from the listing of done/
/// itself) are the entry's: the queue moves jobs only by rename and never writes one in place (a
/// new version is a new copy, a new inode), so the same inode under the same name is the same
/// bytes. That saves 100,000 `lstat` calls (≈0.2 s) when one track came. Not trusted for a job
/// that had other hard links (a queue from before enqueue made copies linked the archive file,
/// which its owner may edit in place): those are looked at every time. The one case this misses is
/// an inode number the file system reuses for a later version of the same job before a listing ran
/// in between (two versions of one file finished without a listing); the next full rebuild (a
/// settings change) puts it right.
struct ListingCatalog {
    struct Entry: Equatable {
        var sizeBytes: Int
        var modificationNanoseconds: Int64
        var inode: UInt64
        var contentHex: String
        /// Whether the job had more than one hard link (then its bytes may change in place).
        var isLinked = false

        init(sizeBytes: Int, modificationNanoseconds: Int64, inode: UInt64, contentHex: String, isLinked: Bool = false) {
            self.sizeBytes = sizeBytes
            self.modificationNanoseconds = modificationNanoseconds
            self.inode = inode
            self.contentHex = contentHex
            self.isLinked = isLinked
        }

        /// The entry of a job whose `lstat` says `status` and whose bytes hash to `contentHex`.
        init(_ status: FileStatus, contentHex: String) {
            self.init(
                sizeBytes: status.sizeBytes, modificationNanoseconds: status.modificationNanoseconds, inode: status.inode,
                contentHex: contentHex, isLinked: status.linkCount > 1)
        }
    }

    var entries: [String: Entry] = [:]
    /// Lines in the file when it was loaded, live or not (see `save`).
    var linesOnDisk = 0

    /// Reads the catalog: later lines for a job replace earlier ones, and `job \t -` removes it.
    static func load(_ path: String) -> ListingCatalog {
        var catalog = ListingCatalog()
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 1 << 30) else { return catalog }
        catalog.entries.reserveCapacity(bytes.count / 128)  // ~110 bytes a line
        TabSeparated.forEachRecord(in: bytes) { fields in
            func text(_ field: Int) -> String { String(decoding: bytes[fields[field]], as: UTF8.self) }
            catalog.linesOnDisk += 1
            if fields.count == 2 && text(1) == "-" {
                catalog.entries[TabSeparated.unescape(text(0))] = nil
                return
            }
            guard fields.count == 5 || fields.count == 6, fields[4].count == 64, let size = Int(text(1)), let mtime = Int64(text(2)),
                let inode = UInt64(text(3))
            else {
                return
            }
            catalog.entries[TabSeparated.unescape(text(0))] = Entry(
                sizeBytes: size, modificationNanoseconds: mtime, inode: inode, contentHex: text(4), isLinked: fields.count == 6 && text(5) == "linked"
            )
        }
        return catalog
    }

    /// The inode of every job in the catalog at `path`, by `nameHash` of its name: what a refresh
    /// that adds tracks compares done/ with (`ListingBuilder.appendNewest`), read without decoding
    /// a name or a hash (a fifth of the cost of `load`). Nil when there is no catalog or a job in it
    /// had other links.
    static func inodesByName(_ path: String) -> [UInt64: UInt64]? {
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 1 << 30) else { return nil }
        var inodes: [UInt64: UInt64] = [:]
        inodes.reserveCapacity(bytes.count / 100)
        var linked: Set<UInt64> = []
        TabSeparated.forEachRecord(in: bytes) { fields in
            let name = ListingCache.digest(bytes[fields[0]])
            if fields.count == 2 && bytes[fields[1]].elementsEqual([UInt8(ascii: "-")]) {
                inodes[name] = nil
                linked.remove(name)
                return
            }
            // Digits read in place: making a string of each number was half the cost.
            func number(_ field: Int, signed: Bool = false) -> UInt64? {
                var digits = bytes[fields[field]]
                if signed && digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
                guard !digits.isEmpty, digits.count <= 19 else { return nil }
                var value: UInt64 = 0
                for digit in digits {
                    guard (0x30...0x39).contains(digit) else { return nil }
                    value = value * 10 + UInt64(digit - 0x30)
                }
                return value
            }
            guard fields.count == 5 || fields.count == 6, fields[4].count == 64, number(1) != nil, number(2, signed: true) != nil,
                let inode = number(3)
            else { return }
            inodes[name] = inode
            if fields.count == 6 && bytes[fields[5]].elementsEqual("linked".utf8) { linked.insert(name) } else { linked.remove(name) }
        }
        return linked.isEmpty ? inodes : nil
    }

    /// The hash `inodesByName` files a job under (of its name as the catalog writes it).
    static func nameHash(_ job: String) -> UInt64 { ListingCache.digest(TabSeparated.escape(job).utf8) }

    /// Appends the lines of `entries` (jobs new since the catalog on disk was saved) to it.
    static func append(_ entries: [(job: String, entry: Entry)], to path: String) throws(FileError) {
        guard !entries.isEmpty else { return }
        try FileStore.append(Array(entries.map { line($0.job, $0.entry) }.joined().utf8), to: path)
    }

    /// The content hash recorded for `job`, if its status still matches.
    func contentHex(job: String, status: FileStatus) -> String? {
        guard let entry = entries[job], entry.sizeBytes == status.sizeBytes,
            entry.modificationNanoseconds == status.modificationNanoseconds, entry.inode == status.inode
        else { return nil }
        return entry.contentHex
    }

    mutating func record(job: String, status: FileStatus, contentHex: String) {
        entries[job] = Entry(status, contentHex: contentHex)
    }

    /// Saves the catalog as a journal: appends a line for each job that is new or changed since
    /// `previous` (the catalog as loaded) and `job \t -` for each job gone, so one new track writes
    /// one line, not the 11 MB of 100,000 (an append cut short by a crash leaves a line that fails
    /// to parse or does not match, which costs one re-hash). Rewrites the file whole (atomically,
    /// sorted) instead when more than a third of its lines would be stale, or there is none.
    func save(_ path: String, over previous: ListingCatalog) throws(FileError) {
        var changes = ""
        for (job, entry) in entries where previous.entries[job] != entry { changes += Self.line(job, entry) }
        for job in previous.entries.keys where entries[job] == nil { changes += TabSeparated.line([job, "-"]) }
        guard !changes.isEmpty else { return }
        let lines = previous.linesOnDisk + changes.utf8.count { $0 == 0x0A }
        if previous.linesOnDisk > 0, (lines - entries.count) * 3 <= lines, FileStore.exists(path) {
            try FileStore.append(Array(changes.utf8), to: path)
        } else {
            try save(path)
        }
    }

    /// Writes the whole catalog atomically, one line per job, sorted.
    func save(_ path: String) throws(FileError) {
        var text = ""
        text.reserveCapacity(entries.count * 130)
        for (job, entry) in entries.sorted(by: { $0.key < $1.key }) { text += Self.line(job, entry) }
        try FileStore.writeAtomically(Array(text.utf8), to: path)
    }

    private static func line(_ job: String, _ entry: Entry) -> String {
        let fields = [job, "\(entry.sizeBytes)", "\(entry.modificationNanoseconds)", "\(entry.inode)", entry.contentHex]
        return TabSeparated.line(entry.isLinked ? fields + ["linked"] : fields)
    }
}
