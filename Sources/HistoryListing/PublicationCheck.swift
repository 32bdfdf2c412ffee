import FileStore

/// The record of a check that found every finished job published and complete
/// (`ListingBuilder.unpublishedJobs`), in `Output/.tracksnap/published`: the settings fingerprint
/// it checked under and the snapshots (`DirectorySnapshot`) of done/, thumbs/ and records/ taken
/// before it looked. While all three folders are as snapshotted (and settled), no job came or went
/// and no image, record or incomplete marker was added or removed, so the next run need not ask
/// each of the 100,000 jobs' six files again (an unchanged rerun used to make 7 `lstat` calls per
/// track). Any change to a folder, or other settings, and the next check looks at every file.
struct PublicationCheck: Equatable {
    /// The settings fingerprint (hex) the images were checked under.
    var fingerprintHex: String
    /// done/, thumbs/ and records/, in that order.
    var snapshots: [DirectorySnapshot?]
    /// When the record was written, by the file system's clock (its mtime; 0 when not loaded).
    var savedAtNanoseconds: Int64 = 0

    /// Whether `current` (taken now) are the recorded snapshots, every one present and settled.
    func holds(fingerprintHex: String, current: [DirectorySnapshot?]) -> Bool {
        guard fingerprintHex == self.fingerprintHex, current == snapshots else { return false }
        return snapshots.allSatisfy { $0?.isSettled(savedAtNanoseconds: savedAtNanoseconds) == true }
    }

    /// Reads the record; nil when there is none or it does not parse.
    static func load(_ path: String) -> PublicationCheck? {
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 4096) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        guard lines.count == 4, lines[0].utf8.count == 64 else { return nil }
        let snapshots = lines.dropFirst().map { DirectorySnapshot(text: $0) }
        guard snapshots.allSatisfy({ $0 != nil }) else { return nil }
        let savedAt = ((try? FileStore.status(path)) ?? nil)?.modificationNanoseconds ?? 0
        return PublicationCheck(fingerprintHex: String(lines[0]), snapshots: snapshots, savedAtNanoseconds: savedAt)
    }

    /// Writes the record atomically (only when every snapshot is present).
    func save(_ path: String) throws(FileError) {
        guard snapshots.allSatisfy({ $0 != nil }) else { return try FileStore.remove(path) }
        let text = ([fingerprintHex] + snapshots.map { $0!.text }).joined(separator: "\n") + "\n"
        try FileStore.writeAtomically(Array(text.utf8), to: path)
    }
}
