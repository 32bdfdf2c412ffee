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
    /// When the file was written, by the file system's clock (its mtime; 0 when not loaded).
    var savedAtNanoseconds: Int64 = 0

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
        try FileStore.writeAtomically(Array(text.utf8), to: path)
    }
}
