import FileStore

/// What the last complete listing was made from, in `Output/.tracksnap/listing` (a few lines,
/// written atomically after the site): the stamp of its inputs (settings, page template and size,
/// every key with its jobs), the stamp of the settings part alone, the snapshots of `done/` and of
/// the detail pages' folder (`DirectorySnapshot`), how many tracks it listed, and whether any job
/// in done/ was a hard link (a queue from before enqueue made copies, whose jobs can change in
/// place). A refresh that finds both folders as snapshotted (and settled), the settings the same
/// and no linked job knows its inputs are unchanged without reading done/ or the catalog, which is
/// what makes an unchanged rerun over 100,000 tracks cost a few hundred `lstat` calls.
///
/// The first line alone is the format before the snapshots (then every refresh reads done/).
struct ListingStamp: Equatable {
    /// The stamp of the inputs (`ListingBuilder.stamp`), 64 hex digits.
    var inputsHex: String
    /// The stamp of the settings, template and page size alone (`ListingBuilder.settingsStamp`).
    var settingsHex = ""
    /// done/ as the listing read it (taken before reading).
    var done: DirectorySnapshot?
    /// `Output/tracks/` as checked or written.
    var details: DirectorySnapshot?
    /// Tracks listed.
    var trackCount = 0
    /// Whether a job in done/ had more than one link when it was last looked at.
    var hasLinkedJobs = true
    /// The sum `inputsHex` is made of (`ListingBuilder.InputsSum`), so a refresh that adds tracks
    /// can make the new stamp from the added keys alone; nil in a stamp from before it was kept.
    var inputsSum: ListingBuilder.InputsSum?
    /// The state files as the listing left them; nil when they do not describe the listing (then
    /// a change is worked out from done/ and the per-track cache).
    var state: State?
    /// When the file was written, by the file system's clock (its mtime; 0 when not loaded).
    var savedAtNanoseconds: Int64 = 0

    /// The state a refresh that only adds newer tracks starts from (`ListingBuilder.appendNewest`):
    /// the catalog and per-track cache journals as this listing left them (size and inode: a
    /// journal appended to or replaced since, say by a refresh killed before its stamp, no longer
    /// matches) and how many records of `listing-order` are this listing's.
    struct State: Equatable {
        var catalog: FileIdentity
        var cache: FileIdentity
        var order: FileIdentity
        var orderCount: Int

        /// "catalog-size catalog-inode cache-size cache-inode order-size order-inode order-count".
        var text: String {
            [catalog.sizeBytes, Int(catalog.inode), cache.sizeBytes, Int(cache.inode), order.sizeBytes, Int(order.inode), orderCount]
                .map(String.init).joined(separator: " ")
        }

        init(catalog: FileIdentity, cache: FileIdentity, order: FileIdentity, orderCount: Int) {
            self.catalog = catalog
            self.cache = cache
            self.order = order
            self.orderCount = orderCount
        }

        init?(text: Substring) {
            let numbers = text.split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 7, numbers.allSatisfy({ $0 >= 0 }) else { return nil }
            catalog = FileIdentity(sizeBytes: numbers[0], inode: UInt64(numbers[1]))
            cache = FileIdentity(sizeBytes: numbers[2], inode: UInt64(numbers[3]))
            order = FileIdentity(sizeBytes: numbers[4], inode: UInt64(numbers[5]))
            orderCount = numbers[6]
        }
    }

    /// A file's size and inode.
    struct FileIdentity: Equatable {
        var sizeBytes: Int
        var inode: UInt64

        init(sizeBytes: Int, inode: UInt64) {
            self.sizeBytes = sizeBytes
            self.inode = inode
        }

        /// The identity of the regular file at `path`; nil when there is none.
        init?(of path: String) {
            guard let status = (try? FileStore.status(path)) ?? nil, status.isRegularFile else { return nil }
            self.init(sizeBytes: status.sizeBytes, inode: status.inode)
        }
    }

    /// Whether `snapshot` (taken now) is the recorded one and settled, so what it covers is as the
    /// last complete listing left it.
    func trusts(_ recorded: DirectorySnapshot?, now snapshot: DirectorySnapshot?) -> Bool {
        guard let recorded, let snapshot, recorded == snapshot else { return false }
        return recorded.isSettled(savedAtNanoseconds: savedAtNanoseconds)
    }

    /// Whether `other` records the same (its save time aside): then there is nothing to save.
    func records(sameAs other: ListingStamp) -> Bool {
        var other = other
        other.savedAtNanoseconds = savedAtNanoseconds
        return self == other
    }

    /// Reads the stamp; nil when there is none (a listing never completed, or a partial one).
    static func load(_ path: String) -> ListingStamp? {
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 4096) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.utf8.count == 64 else { return nil }
        var stamp = ListingStamp(inputsHex: String(first))
        for line in lines.dropFirst() {
            guard let space = line.firstIndex(of: " ") else { continue }
            let value = line[line.index(after: space)...]
            switch line[..<space] {
            case "settings": stamp.settingsHex = String(value)
            case "done": stamp.done = DirectorySnapshot(text: value)
            case "details": stamp.details = DirectorySnapshot(text: value)
            case "tracks": stamp.trackCount = Int(value) ?? 0
            case "linked": stamp.hasLinkedJobs = value != "0"
            case "sum": stamp.inputsSum = ListingBuilder.InputsSum(hex: value)
            case "state": stamp.state = State(text: value)
            default: continue
            }
        }
        stamp.savedAtNanoseconds = ((try? FileStore.status(path)) ?? nil)?.modificationNanoseconds ?? 0
        return stamp
    }

    /// Writes the stamp atomically.
    func save(_ path: String) throws(FileError) {
        var text = inputsHex + "\nsettings " + settingsHex + "\n"
        if let done { text += "done " + done.text + "\n" }
        if let details { text += "details " + details.text + "\n" }
        text += "tracks \(trackCount)\nlinked \(hasLinkedJobs ? 1 : 0)\n"
        if let inputsSum { text += "sum " + inputsSum.hex + "\n" }
        if let state { text += "state " + state.text + "\n" }
        try FileStore.writeAtomically(Array(text.utf8), to: path)
    }
}
