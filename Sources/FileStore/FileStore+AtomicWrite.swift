#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

extension FileStore {
    /// Publishes `bytes` at `path` atomically: a reader sees either the old file or the whole new
    /// one, never a part. Writes an unnamed or dot-prefixed temporary in the same directory (same
    /// file system), checks every write, fsyncs, links or renames it to `path`, then fsyncs the
    /// directory. On any failure the previous file is left untouched and nothing is left behind.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(FileError) {
        try writeAtomically([(bytes, path)], permissions: permissions)
    }

    /// Publishes several files atomically, each as `writeAtomically(_:to:)` does, published in the
    /// order given (so a later file never becomes visible before an earlier one). Returns what
    /// `fstat` said of each file as written: its size, modification time and inode are what `lstat`
    /// of its path says right after, without looking the path up again (its status change time
    /// and link count are from before it was named).
    ///
    /// Phases rather than file by file: write every temporary, then fsync them, then publish them,
    /// then fsync each directory once. On ext4 an fsync commits the journal transaction holding
    /// all the pending temporaries, so the later fsyncs find nothing left to do: one commit for
    /// the data and one for the names, instead of two per file (measured with `make bench`).
    ///
    /// A temporary is an unnamed file (`O_TMPFILE`) where the file system makes them (ext4, XFS,
    /// btrfs, tmpfs), given its name with one `linkat`: one change to the folder where a named
    /// temporary and its rename are three, and nothing to sweep after a kill. A file that
    /// already exists is replaced by the rename of a named temporary (`linkat` does not replace);
    /// so is every file where unnamed files or `/proc/self/fd` are missing (NFS, a chroot), or where
    /// an unnamed file cannot be named (written again, then named temporaries for the process). On a
    /// fresh ext4 one thread wrote 30,000 pages of 2.5 KB at 39–41 µs a file the old way (named
    /// temporary, `fchmod`, write, close, rename, `lstat`), 35 µs without the `fchmod` and with
    /// `fstat` before the close, 30 µs with the unnamed temporary
    /// (`scripts/page-write-bench.c`): a cold listing writes 100,000 such pages on one core.
    ///
    /// With `durability` `.byCaller` nothing is fsynced: the files are still published whole (a
    /// reader, or a process killed at any point, sees the old file or the new one), but only a
    /// later `syncFileSystem(containing:)` makes them survive a power cut; the caller does that
    /// before it records them anywhere or links them from a durable file.
    @discardableResult
    package static func writeAtomically(
        _ files: [(bytes: [UInt8], path: String)], permissions: mode_t = 0o644, durability: Durability = .eachBatch
    ) throws(FileError) -> [FileStatus] {
        var staged: [StagedFile] = []
        staged.reserveCapacity(files.count)
        var statuses: [FileStatus] = []
        statuses.reserveCapacity(files.count)
        var published = 0
        func discard() {
            for file in staged[published...] { file.discard() }
        }
        do throws(FileError) {
            for file in files {
                let (directory, name) = split(file.path)
                let stage = try StagedFile.create(in: directory, name: name, path: file.path, permissions: permissions)
                staged.append(stage)
                if let code = writeAll(file.bytes, to: stage.descriptor) { throw FileError("write", stage.temporary ?? file.path, code: code) }
            }
            for file in staged { statuses.append(try file.settle(permissions: permissions, durability: durability)) }
            for index in staged.indices {
                if let rewritten = try staged[index].publish(files[index].bytes, permissions: permissions, durability: durability) {
                    statuses[index] = rewritten
                }
                published += 1
            }
        } catch {
            discard()
            throw error
        }
        guard durability == .eachBatch else { return statuses }
        var directories: [String] = []
        for file in staged where !directories.contains(split(file.path).directory) { directories.append(split(file.path).directory) }
        for directory in directories { try syncDirectory(directory) }
        return statuses
    }

    /// One file of `writeAtomically` between its creation and its publication.
    private struct StagedFile {
        /// Open until published.
        var descriptor: Int32
        /// The named temporary; nil for an unnamed one.
        var temporary: String?
        let directory: String, path: String

        /// An unnamed file in `directory` where it can be had, else a named temporary there.
        static func create(in directory: String, name: String, path: String, permissions: mode_t) throws(FileError) -> StagedFile {
            #if os(Linux)
            if unnamedFilesWork.load(ordering: .relaxed) {
                let descriptor = open(directory, O_TMPFILE_ | O_WRONLY | O_CLOEXEC, permissions)
                if descriptor >= 0 { return StagedFile(descriptor: descriptor, temporary: nil, directory: directory, path: path) }
                // Not on this file system (EOPNOTSUPP, EISDIR from kernels without it): named
                // temporaries here. Other errors are the named path's to report.
                if errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL { unnamedFilesWork.store(false, ordering: .relaxed) }
            }
            #endif
            let temporary = directory + "/" + TemporaryName.make(for: name)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
            guard descriptor >= 0 else { throw FileError("create", temporary) }
            return StagedFile(descriptor: descriptor, temporary: temporary, directory: directory, path: path)
        }

        /// After the bytes are written: gives the file the mode asked for, whatever the umask or
        /// a default ACL of the folder (a served site must be readable, 0644, even when cron runs
        /// with umask 077), fsyncs it with `.eachBatch`, and returns its status. The status's
        /// `fstat` tells whether the mode is already right: no `fchmod` (and no second `fstat`)
        /// for a file made with it.
        func settle(permissions: mode_t, durability: Durability) throws(FileError) -> FileStatus {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw FileError("stat", temporary ?? path) }
            // A file system that refuses the mode keeps the one it gave, as before this was moved here.
            if info.st_mode & 0o7777 != permissions, fchmod(descriptor, permissions) == 0 {
                guard fstat(descriptor, &info) == 0 else { throw FileError("stat", temporary ?? path) }
            }
            if durability == .eachBatch, fsync(descriptor) != 0 { throw FileError("fsync", temporary ?? path) }
            return FileStatus(info)
        }

        /// Gives the file its name (replacing what is there) and closes it. `bytes`, `permissions`
        /// and `durability` are the file's, for writing it again where an unnamed file cannot be
        /// named.
        /// Returns the file's new status when it was written again, else nil.
        mutating func publish(_ bytes: [UInt8], permissions: mode_t, durability: Durability) throws(FileError) -> FileStatus? {
            if temporary == nil {
                #if os(Linux)
                let source = "/proc/self/fd/\(descriptor)"
                let refused = linkRefusedForTesting.load(ordering: .relaxed)
                if !refused, linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 {
                    // Closed after it is named: a close that fails takes the name back (linkat
                    // replaced nothing), so a failure still leaves the old state.
                    do throws(FileError) { try closeDescriptor() } catch {
                        unlink(path)
                        throw error
                    }
                    return nil
                }
                // Where a file is there (linkat does not replace): a named temporary, renamed over
                // it. Where the file system will not name it: written again below. Anything else
                // (no space, no quota, an I/O error) is this file's failure.
                let firstError = refused ? EXDEV : errno
                guard firstError == EEXIST || Self.cannotName(firstError) else { throw FileError("link", path, code: firstError) }
                let named = directory + "/" + TemporaryName.make(for: split(path).name)
                if !refused, linkat(AT_FDCWD, source, AT_FDCWD, named, AT_SYMLINK_FOLLOW) == 0 {
                    temporary = named
                } else if !refused, !Self.cannotName(errno) {
                    throw FileError("link", named)
                } else {
                    // The file system made the unnamed file but will not name it (a network or
                    // cluster file system): the bytes again, to a named temporary, and named
                    // temporaries from now on.
                    unnamedFilesWork.store(false, ordering: .relaxed)
                    try closeDescriptor()
                    var stage = try StagedFile.create(in: directory, name: split(path).name, path: path, permissions: permissions)
                    do throws(FileError) {
                        if let code = writeAll(bytes, to: stage.descriptor) { throw FileError("write", stage.temporary ?? path, code: code) }
                        let status = try stage.settle(permissions: permissions, durability: durability)
                        _ = try stage.publish(bytes, permissions: permissions, durability: durability)
                        return status
                    } catch {
                        stage.discard()
                        throw error
                    }
                }
                #endif
            }
            try closeDescriptor()
            guard rename(temporary!, path) == 0 else { throw FileError("rename", path) }
            temporary = nil
            return nil
        }

        /// Whether a `linkat` error says this file system (or a missing /proc) cannot name an
        /// unnamed file, as opposed to a failure of this one file.
        private static func cannotName(_ code: Int32) -> Bool {
            code == ENOENT || code == EXDEV || code == EPERM || code == EOPNOTSUPP || code == EINVAL || code == ENOSYS
        }

        /// Closes and removes what is left of a file not published.
        func discard() {
            if descriptor >= 0 { close(descriptor) }
            if let temporary { unlink(temporary) }
        }

        /// Closes the descriptor; close can report a deferred write error (NFS): checked too.
        private mutating func closeDescriptor() throws(FileError) {
            let closing = descriptor
            descriptor = -1
            guard close(closing) == 0 else { throw FileError("close", temporary ?? path) }
        }

    }

    #if os(Linux)
    /// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`; `O_DIRECTORY` differs between x86-64 and arm64),
    /// which Glibc's module does not export.
    private static let O_TMPFILE_: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Whether unnamed temporaries can be used: the kernel makes them and `/proc/self/fd` is
    /// there to name them by; false for the rest of the process once a file system refuses one.
    static let unnamedFilesWork = Atomic<Bool>(access("/proc/self/fd", X_OK) == 0)

    /// Tests only: every `linkat` of an unnamed file fails, as on a file system that makes
    /// unnamed files but will not name them.
    static let linkRefusedForTesting = Atomic<Bool>(false)
    #endif
}
