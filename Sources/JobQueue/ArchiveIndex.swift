import FileStore

/// Enqueue's stat index, the way git's index works: for every archive file seen, the
/// (size, mtime, inode) it had when it was queued and the job name it got. A file whose tuple is
/// unchanged (and whose job still exists) is not queued again, so an unchanged archive of 10,000
/// tracks costs 10,000 `lstat` calls and no reads. Stored as tab-separated lines in
/// `Jobs/.archive-index`; written atomically; a lost update only means a file is queued again
/// (and then found in the cache).
package struct ArchiveIndex: Sendable {
    /// One archive file.
    package struct Entry: Sendable, Equatable {
        /// Size in bytes when queued.
        package var sizeBytes: Int
        /// mtime in nanoseconds when queued.
        package var modificationNanoseconds: Int64
        /// Inode when queued.
        package var inode: UInt64
        /// The job name it was queued under, or `ArchiveIndex.forgottenJobName`.
        package var jobName: String

        /// Whether this is the tombstone of a file `tracksnap forget` took off while it was
        /// still in the archive: enqueue skips the file until its size, mtime or inode change.
        package var isForgotten: Bool { jobName == ArchiveIndex.forgottenJobName }
    }

    /// The job name of a tombstone: it holds a "/", so it names no job.
    package static let forgottenJobName = "/forgotten"

    /// Entries by absolute archive path.
    package private(set) var entries: [String: Entry] = [:]

    /// An empty index.
    package init() {}

    /// Loads the index; a missing or unreadable file is an empty index (everything is re-queued,
    /// which is safe).
    package static func load(_ path: String) -> ArchiveIndex {
        var index = ArchiveIndex()
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 1 << 30) else { return index }
        for fields in TabSeparated.records(bytes) {
            guard fields.count == 5, let size = Int(fields[1]), let mtime = Int64(fields[2]), let inode = UInt64(fields[3]) else { continue }
            index.entries[fields[0]] = Entry(sizeBytes: size, modificationNanoseconds: mtime, inode: inode, jobName: fields[4])
        }
        return index
    }

    /// Records an archive file.
    package mutating func record(path: String, status: FileStatus, jobName: String) {
        entries[path] = Entry(
            sizeBytes: status.sizeBytes, modificationNanoseconds: status.modificationNanoseconds, inode: status.inode, jobName: jobName)
    }

    /// Records that the file at `path`, as `status` describes it, was forgotten (a tombstone).
    package mutating func recordForgotten(path: String, status: FileStatus) {
        record(path: path, status: status, jobName: Self.forgottenJobName)
    }

    /// Removes the entry of one archive file.
    package mutating func remove(path: String) {
        entries[path] = nil
    }

    /// Removes the entries of a job (`tracksnap forget`); returns how many there were.
    @discardableResult
    package mutating func remove(jobName: String) -> Int {
        let paths = entries.filter { $0.value.jobName == jobName }.map(\.key)
        for path in paths { entries[path] = nil }
        return paths.count
    }

    /// Whether `status` is what was recorded for `path`.
    package func isUnchanged(path: String, status: FileStatus) -> Entry? {
        guard let entry = entries[path], entry.sizeBytes == status.sizeBytes,
            entry.modificationNanoseconds == status.modificationNanoseconds, entry.inode == status.inode
        else { return nil }
        return entry
    }

    /// The original archive path of each job name (for the listing's "source").
    package var pathsByJobName: [String: String] {
        var paths: [String: String] = [:]
        for (path, entry) in entries where !entry.isForgotten { paths[entry.jobName] = path }
        return paths
    }

    /// Writes the index atomically.
    package func save(_ path: String) throws(FileError) {
        var text = ""
        text.reserveCapacity(entries.count * 120)
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            text += TabSeparated.line([path, "\(entry.sizeBytes)", "\(entry.modificationNanoseconds)", "\(entry.inode)", entry.jobName])
        }
        try FileStore.writeAtomically(Array(text.utf8), to: path)
    }
}
