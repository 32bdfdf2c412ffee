#if canImport(Glibc)
import Glibc
#endif
import FileStore

extension ArchiveEnqueuer {
    /// The enqueue settle time when the command line gives none (`enqueue --settle`). Default: 1 s.
    ///
    /// Why 1 s: a producer writing a file in place (a copy, an editor's save, a device sync)
    /// moves its size or mtime with every write, so two looks a second apart catch it unless it
    /// stalls for longer than that, which the old rule (wait until the file is 3 s old) did not
    /// catch either when the stall was longer. Files that were already settled at the first look
    /// cost no wait at all, and producers that rename finished files into place (rsync, most sync
    /// tools, `mv` from a temporary) leave nothing to wait for: give them `--settle 0`.
    package static let defaultSettleSeconds = 1.0

    /// The files of one walk (its first look, taken at `firstLookNanoseconds`) that may be queued:
    /// a file to be queued (not unchanged in the stat index) whose mtime is less than
    /// `queue.settleSeconds` before the first look is looked at again that long after, and queued
    /// when nothing (size, mtime, inode) moved between two consecutive looks; a file that moved is
    /// given one more look, and one still moving then goes to `report.stillChanging` for the next
    /// enqueue. So a fresh file that is complete costs one settle time, a file being written at
    /// most two; one wait covers the whole walk, and none is made when no file is that fresh or
    /// the settle time is 0.
    func settle(
        _ files: [(String, FileStatus)], index: ArchiveIndex, firstLookNanoseconds: Int64, report: inout EnqueueReport
    ) -> [(String, FileStatus)] {
        let settleNanoseconds = Int64(queue.settleSeconds * 1e9)
        guard settleNanoseconds > 0 else { return files }
        func isFresh(_ file: String, _ status: FileStatus) -> Bool {
            firstLookNanoseconds - status.modificationNanoseconds < settleNanoseconds && index.isUnchanged(path: file, status: status) == nil
        }
        func lookAgain(_ file: String) -> FileStatus? { (try? FileStore.statusFollowingLinks(file)) ?? nil }
        func moved(_ earlier: FileStatus, _ later: FileStatus?) -> Bool {
            guard let later else { return true }
            return later.sizeBytes != earlier.sizeBytes || later.modificationNanoseconds != earlier.modificationNanoseconds
                || later.inode != earlier.inode
        }
        func wait(until deadline: Int64) {
            let nanoseconds = deadline - FileStore.nowNanoseconds()
            if nanoseconds > 0 { usleep(UInt32(min(nanoseconds / 1000, 60_000_000))) }
        }
        var settled: [(String, FileStatus)] = []
        var moving: [(file: String, status: FileStatus)] = []
        for (file, status) in files {
            if isFresh(file, status) { moving.append((file, status)) } else { settled.append((file, status)) }
        }
        guard !moving.isEmpty else { return files }
        var deadline = firstLookNanoseconds
        for look in 0..<2 {
            deadline += settleNanoseconds
            wait(until: deadline)
            var stillMoving: [(file: String, status: FileStatus)] = []
            for (file, status) in moving {
                let later = lookAgain(file)
                if let later, !moved(status, later) {
                    settled.append((file, later))
                } else if look == 0, let later {
                    stillMoving.append((file, later))
                } else {
                    report.stillChanging.append(file)
                }
            }
            moving = stillMoving
            if moving.isEmpty { break }
        }
        return settled
    }
}
