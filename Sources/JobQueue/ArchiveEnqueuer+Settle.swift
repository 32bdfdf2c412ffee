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
    /// `queue.settleSeconds` before the first look is looked at again that long after the first
    /// look, and kept only if its size, mtime and inode did not move between the looks; the others
    /// go to `report.stillChanging` for the next enqueue. One wait for the whole walk, none when no
    /// file is that fresh or the settle time is 0.
    func settle(
        _ files: [(String, FileStatus)], index: ArchiveIndex, firstLookNanoseconds: Int64, report: inout EnqueueReport
    ) -> [(String, FileStatus)] {
        let settleNanoseconds = Int64(queue.settleSeconds * 1e9)
        guard settleNanoseconds > 0 else { return files }
        func isFresh(_ file: String, _ status: FileStatus) -> Bool {
            firstLookNanoseconds - status.modificationNanoseconds < settleNanoseconds && index.isUnchanged(path: file, status: status) == nil
        }
        guard files.contains(where: isFresh) else { return files }
        let waitNanoseconds = firstLookNanoseconds + settleNanoseconds - FileStore.nowNanoseconds()
        if waitNanoseconds > 0 { usleep(UInt32(min(waitNanoseconds / 1000, 60_000_000))) }
        return files.filter { file, status in
            guard isFresh(file, status) else { return true }
            let later = (try? FileStore.statusFollowingLinks(file)) ?? nil
            guard let later, later.sizeBytes == status.sizeBytes, later.modificationNanoseconds == status.modificationNanoseconds,
                later.inode == status.inode
            else {
                report.stillChanging.append(file)
                return false
            }
            return true
        }
    }
}
