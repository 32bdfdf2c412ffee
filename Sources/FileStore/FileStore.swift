#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every libc file call TrackSnap makes, in one place (after swift-system's `Syscalls.swift`):
/// each checks its result and turns a failure into a `FileError`.
package enum FileStore {
    /// Reads a whole regular file. Refuses files larger than `maximumBytes` before reading them.
    package static func readFile(_ path: String, maximumBytes: Int = 1 << 30) throws(FileError) -> [UInt8] {
        let (descriptor, size) = try openRegularFile(path, maximumBytes: maximumBytes)
        defer { close(descriptor) }
        var failure: Int32? = nil
        // Read straight into uninitialised storage: zero-filling first would touch every page twice.
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var filled = 0
            while filled < size {
                let count = read(descriptor, buffer.baseAddress! + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if count == 0 { break }  // the file shrank while being read
                filled += count
            }
            initialized = filled
        }
        if let failure { throw FileError("read", path, code: failure) }
        return bytes
    }

    /// Opens a regular file for reading and returns its descriptor (the caller closes it) and size;
    /// refuses directories and files larger than `maximumBytes`.
    static func openRegularFile(_ path: String, maximumBytes: Int) throws(FileError) -> (descriptor: Int32, size: Int) {
        // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever, before fstat
        // could say it is not a file. (It changes nothing for reading a regular file.)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError("open", path) }
        var info = stat()
        var failure: FileError?
        if fstat(descriptor, &info) != 0 {
            failure = FileError("stat", path)
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            failure = FileError("read", path, code: EINVAL, reason: "not a regular file (\(FileStatus(info).kindDescription))")
        } else if Int(info.st_size) > maximumBytes {
            failure = FileError(
                "read", path, code: EFBIG, reason: "the file has \(info.st_size) bytes, more than the \(maximumBytes)-byte input limit")
        }
        if let failure {
            close(descriptor)
            throw failure
        }
        return (descriptor, Int(info.st_size))
    }

    /// When files written by `writeAtomically` reach the disk.
    package enum Durability: Sendable {
        /// Before the call returns: each file and its directory fsynced.
        case eachBatch
        /// When the caller calls `syncFileSystem(containing:)`: for thousands of files at once.
        /// On ext4 without a journal every fsync is a write and a wait of its own; 100,000 detail
        /// pages of a cold listing spent minutes in them, which one `syncfs` does in seconds.
        case byCaller
    }

    /// Flushes everything written to the file system holding `path` (`syncfs`), files and
    /// directories, and waits until it is on disk.
    package static func syncFileSystem(containing path: String) throws(FileError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("open", path) }
        defer { close(descriptor) }
        guard systemSyncFileSystem(descriptor) == 0 else { throw FileError("syncfs", path) }
    }

    /// Appends `bytes` to the existing file at `path` and fsyncs it. If the file does not end with
    /// a newline (an earlier append cut short by a crash), one is written first, so a torn line
    /// never runs into the new ones. Returns the offset in the file where `bytes` start.
    @discardableResult
    package static func append(_ bytes: [UInt8], to path: String) throws(FileError) -> Int {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("open", path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError("stat", path) }
        var last: UInt8 = 0x0A
        if info.st_size > 0, pread(descriptor, &last, 1, off_t(info.st_size - 1)) != 1 { throw FileError("read", path) }
        let prefix: [UInt8] = last == 0x0A ? [] : [0x0A]
        if let code = writeAll(prefix + bytes, to: descriptor) { throw FileError("append", path, code: code) }
        guard fsync(descriptor) == 0 else { throw FileError("fsync", path) }
        return Int(info.st_size) + prefix.count
    }

    /// Writes `bytes` into the existing file at `path` from `offset` on, cuts the file off after
    /// them and fsyncs it: for fixed-size records where whatever lies past `offset` (an earlier
    /// write cut short by a crash) is not wanted.
    package static func overwrite(_ bytes: [UInt8], in path: String, from offset: Int) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("open", path) }
        defer { close(descriptor) }
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else { throw FileError("seek", path) }
        if let code = writeAll(bytes, to: descriptor) { throw FileError("write", path, code: code) }
        guard ftruncate(descriptor, off_t(offset + bytes.count)) == 0 else { throw FileError("truncate", path) }
        guard fsync(descriptor) == 0 else { throw FileError("fsync", path) }
    }

    /// Writes all of `bytes`; returns the errno of a failed write, or nil.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return nil
        }
    }

    /// fsyncs a directory so a rename in it survives a crash.
    package static func syncDirectory(_ directory: String) throws(FileError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("open", directory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileError("fsync", directory) }
    }

    /// Creates a directory and its parents; an existing directory is fine.
    package static func createDirectories(_ path: String, permissions: mode_t = 0o755) throws(FileError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, permissions) == 0 {
                chmod(current, permissions)  // not narrowed by the umask
            } else if errno != EEXIST {
                throw FileError("create directory", current)
            }
        }
    }

    /// The directory and file name of a path ("." when there is no directory).
    package static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }
}

// Glibc declares `syncfs` only under _GNU_SOURCE, which the Swift Glibc module is not built
// with; the function is in every glibc since 2.14 and takes and returns plain ints.
@_silgen_name("syncfs") private func systemSyncFileSystem(_ descriptor: Int32) -> Int32
