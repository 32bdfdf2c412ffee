import FileStore

#if canImport(Glibc)
import Glibc
#endif

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

    /// How much older than the saved state a snapshot's times must be to be trusted, by the
    /// timestamps of its file system: where they are whole seconds (FAT keeps 2 s, some NFS
    /// servers 1 s), 2 s; where they have fractions (ext4, XFS, btrfs, tmpfs: the kernel's coarse
    /// clock, 1–10 ms a tick), 50 ms, several ticks. A refresh waits out the 50 ms before saving
    /// (`waitUntilSettled`) rather than leave the next one a full check; the 2 s it does not wait,
    /// which costs one full check on a refresh within 2 s of the previous one's changes.
    var settleNanoseconds: Int64 {
        let fractions = [modificationNanoseconds, statusChangeNanoseconds].allSatisfy { $0 % 1_000_000_000 != 0 }
        return fractions ? Self.fineSettleNanoseconds : Self.coarseSettleNanoseconds
    }

    /// The margin where timestamps are whole seconds.
    static let coarseSettleNanoseconds: Int64 = 2_000_000_000
    /// The margin where timestamps have fractions of a second.
    static let fineSettleNanoseconds: Int64 = 50_000_000

    /// The snapshot of `path`; nil when it is missing or not a folder.
    static func take(_ path: String) -> DirectorySnapshot? {
        guard let status = (try? FileStore.status(path)) ?? nil, status.isDirectory else { return nil }
        return DirectorySnapshot(
            modificationNanoseconds: status.modificationNanoseconds, statusChangeNanoseconds: status.statusChangeNanoseconds, inode: status.inode)
    }

    /// Whether the snapshot is older than `savedAtNanoseconds` (the file system's clock) by the
    /// settle margin.
    func isSettled(savedAtNanoseconds: Int64) -> Bool {
        max(modificationNanoseconds, statusChangeNanoseconds) < savedAtNanoseconds - settleNanoseconds
    }

    /// Waits until state saved now is dated after the settle margin, so the next refresh trusts
    /// this snapshot: at most the fine margin (50 ms), measured on the coarse real-time clock that
    /// dates files; not at all for whole-second times (the file's clock may be another host's).
    func waitUntilSettled() {
        guard settleNanoseconds == Self.fineSettleNanoseconds else { return }
        let settledAt = max(modificationNanoseconds, statusChangeNanoseconds) + settleNanoseconds
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        let remaining = settledAt - (Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
        // A tick more: the file's date is the coarse clock's, which may not have moved yet.
        if remaining > 0 && remaining <= settleNanoseconds { usleep(UInt32(remaining / 1000) + 10_000) }
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
