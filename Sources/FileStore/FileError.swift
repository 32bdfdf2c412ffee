#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call, with the path, the operation and the OS's reason.
package struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path involved.
    package var path: String
    /// What was being done ("open", "read", "write", "fsync", "rename", …).
    package var operation: String
    /// The `errno` value.
    package var code: Int32
    /// Words that say more than `strerror(code)` would ("not a regular file: a FIFO"); nil: the
    /// system's message.
    package var reason: String?

    /// Creates an error from the current `errno` (or `code`).
    package init(_ operation: String, _ path: String, code: Int32 = errno, reason: String? = nil) {
        self.operation = operation
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// Whether the failure is environmental and may pass (disk full, quota, read-only, I/O error):
    /// the job should be retried later rather than called bad.
    package var isEnvironmental: Bool { [ENOSPC, EDQUOT, EROFS, EIO].contains(code) }

    /// Whether the file does not exist.
    package var isNotFound: Bool { code == ENOENT }

    /// "cannot open runs/a.gpx: No such file or directory".
    package var description: String {
        "cannot \(operation) \(path): \(reason ?? String(cString: strerror(code)))"
    }
}
