#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory `flock` on a lock file, held until `release()` or process exit (the kernel drops
/// it when the process dies, so a `kill -9` never leaves a stale lock). Opened `O_CLOEXEC` so
/// child processes do not inherit it.
package final class ExclusiveLock: @unchecked Sendable {
    // @unchecked: the descriptor is written once in init and only closed in release/deinit.
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock without waiting; nil when another process holds it.
    package static func tryAcquire(_ path: String) throws(FileError) -> ExclusiveLock? {
        try acquire(path, waits: false)
    }

    /// Takes the lock, waiting for the holder to release it.
    package static func acquire(_ path: String) throws(FileError) -> ExclusiveLock {
        try acquire(path, waits: true)!
    }

    private static func acquire(_ path: String, waits: Bool) throws(FileError) -> ExclusiveLock? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError("open lock", path) }
        while flock(descriptor, LOCK_EX | (waits ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw FileError("lock", path, code: code)
        }
        return ExclusiveLock(descriptor: descriptor)
    }

    /// Releases the lock.
    package func release() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
