import FileStore

/// What `lstat` says of a folder the listing reads or writes (`done/`, `Output/tracks/`): its
/// modification and status-change times and inode. Any entry added, removed or renamed over in the
/// folder moves its times, so an equal snapshot says that no file was added, removed or replaced
/// by rename since it was taken, without asking each file. (It says nothing about a file edited in
/// place: the queue never writes a job in place, see `ListingCatalog`; detail pages edited in place
/// are found on the next full check.)
///
/// A snapshot is trusted only once it is "settled", as git treats a racy index entry: a folder
/// changed again within the same tick of the file system's clock keeps its times, so a snapshot
/// whose times are less than `settleNanoseconds` older than the moment the state was saved (by the
/// file system's clock: the state file's own mtime) is not trusted, and the next refresh checks
/// every file instead, and records a settled snapshot. (done/ may sit on another file system than
/// `Output/`, whose clock saves the state: a queue server's clock ahead of it only costs full
/// checks; one behind it by more than the margin narrows the guard to that server's own tick.)
struct DirectorySnapshot: Equatable {
    /// Modification time (ns).
    var modificationNanoseconds: Int64
    /// Status change time (ns).
    var statusChangeNanoseconds: Int64
    /// The folder's inode.
    var inode: UInt64

    /// How much older than the saved state a snapshot's times must be to be trusted: 2 s, the
    /// coarsest timestamps of file systems in use (FAT; some NFS servers keep whole seconds).
    /// It costs one full check on a refresh within 2 s of the previous one's changes.
    static let settleNanoseconds: Int64 = 2_000_000_000

    /// The snapshot of `path`; nil when it is missing or not a folder.
    static func take(_ path: String) -> DirectorySnapshot? {
        guard let status = (try? FileStore.status(path)) ?? nil, status.isDirectory else { return nil }
        return DirectorySnapshot(
            modificationNanoseconds: status.modificationNanoseconds, statusChangeNanoseconds: status.statusChangeNanoseconds, inode: status.inode)
    }

    /// Whether the snapshot is older than `savedAtNanoseconds` (the file system's clock) by the
    /// settle margin.
    func isSettled(savedAtNanoseconds: Int64) -> Bool {
        max(modificationNanoseconds, statusChangeNanoseconds) < savedAtNanoseconds - Self.settleNanoseconds
    }

    /// "mtime ctime inode".
    var text: String { "\(modificationNanoseconds) \(statusChangeNanoseconds) \(inode)" }

    /// Parses `text`.
    init?(text: Substring) {
        let fields = text.split(separator: " ")
        guard fields.count == 3, let mtime = Int64(fields[0]), let ctime = Int64(fields[1]), let inode = UInt64(fields[2]) else { return nil }
        self.init(modificationNanoseconds: mtime, statusChangeNanoseconds: ctime, inode: inode)
    }

    init(modificationNanoseconds: Int64, statusChangeNanoseconds: Int64, inode: UInt64) {
        self.modificationNanoseconds = modificationNanoseconds
        self.statusChangeNanoseconds = statusChangeNanoseconds
        self.inode = inode
    }
}
