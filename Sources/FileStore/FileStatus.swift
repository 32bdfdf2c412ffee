#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says about a path, in the units TrackSnap compares: the change-detection tuple
/// git's index uses (size, modification time, inode).
package struct FileStatus: Sendable, Equatable {
    /// Size in bytes.
    package var sizeBytes: Int
    /// Modification time in nanoseconds since the Unix epoch.
    package var modificationNanoseconds: Int64
    /// Inode number.
    package var inode: UInt64
    /// The device holding the file (with `inode`, the file's identity).
    package var device: UInt64
    /// Permission bits and file type (`st_mode`).
    package var mode: UInt32
    /// Status change time (`st_ctime`) in nanoseconds since the Unix epoch: set by a rename or
    /// a chmod, and unlike the mtime never copied from another file.
    package var statusChangeNanoseconds: Int64
    /// Hard links to the inode (`st_nlink`): more than 1 for a file that is also elsewhere.
    package var linkCount: Int

    /// What kind of file this is, in words: "a directory", "a FIFO", "a character device", ….
    package var kindDescription: String {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): return "a regular file"
        case UInt32(S_IFDIR): return "a directory"
        case UInt32(S_IFIFO): return "a FIFO"
        case UInt32(S_IFCHR): return "a character device"
        case UInt32(S_IFBLK): return "a block device"
        case UInt32(S_IFSOCK): return "a socket"
        case UInt32(S_IFLNK): return "a symbolic link"
        default: return "an unknown kind of file"
        }
    }

    /// Whether the path is a regular file (symbolic links are not followed by `lstat`).
    package var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    /// Whether the path is a directory.
    package var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    /// Whether the path is a symbolic link.
    package var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    /// Whether anyone may write the file (a file without write bits is sealed by its producer).
    package var isWritable: Bool { mode & 0o222 != 0 }

    init(_ info: stat) {
        sizeBytes = Int(info.st_size)
        modificationNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        inode = UInt64(info.st_ino)
        device = UInt64(info.st_dev)
        mode = UInt32(info.st_mode)
        statusChangeNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        linkCount = Int(info.st_nlink)
    }
}

extension FileStore {
    /// `lstat`: the status of a path without following a final symbolic link; nil when it does not exist.
    package static func status(_ path: String) throws(FileError) -> FileStatus? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileError("stat", path)
        }
        return FileStatus(info)
    }

    /// `stat`: like `status`, following symbolic links.
    package static func statusFollowingLinks(_ path: String) throws(FileError) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw FileError("stat", path)
        }
        return FileStatus(info)
    }

    /// Whether anything exists at `path`.
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The current wall-clock time in nanoseconds since the Unix epoch (the clock file times use).
    package static func nowNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Sets a file's access and modification times to now (a heartbeat). Returns false when the
    /// file no longer exists.
    @discardableResult
    package static func touch(_ path: String) throws(FileError) -> Bool {
        guard utimensat(AT_FDCWD, path, nil, 0) == 0 else {
            if errno == ENOENT { return false }
            throw FileError("touch", path)
        }
        return true
    }
}

extension FileStore {
    /// The process's current directory.
    package static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension FileStore {
    /// Reads a file until end of file, whatever size `stat` reports: for /proc files, which say 0.
    package static func readStream(_ path: String, maximumBytes: Int = 1 << 16) throws(FileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("open", path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < maximumBytes {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError("read", path)
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
