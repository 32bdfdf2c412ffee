#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call, with the path, the operation and the OS's reason.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// What was being done ("open", "read", "write", "fsync", "rename", …).
    public var operation: String
    /// The `errno` value.
    public var code: Int32
    /// Words that say more than `strerror(code)` would ("not a regular file: a FIFO"); nil: the
    /// system's message.
    public var reason: String?

    /// Creates an error from the current `errno` (or `code`).
    public init(_ operation: String, _ path: String, code: Int32 = errno, reason: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// Whether the failure is environmental and may pass (disk full, quota, read-only, I/O error):
    /// the job should be retried later rather than called bad.
    public var isEnvironmental: Bool { [ENOSPC, EDQUOT, EROFS, EIO].contains(code) }

    /// Whether the file does not exist.
    public var isNotFound: Bool { code == ENOENT }

    /// "cannot open runs/a.gpx: No such file or directory".
    public var description: String {
        "cannot \(operation) \(path): \(reason ?? String(cString: strerror(code)))"
    }
}
