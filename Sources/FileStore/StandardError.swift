#if canImport(Glibc)
import Glibc
#endif

/// Text to the process's standard error, unbuffered: progress bars, warnings and error lines.
/// (Foundation's `FileHandle` did this before; the executable no longer links Foundation, whose
/// loading was most of its start time.)
public enum StandardError {
    /// Writes `text` whole, retrying short writes and interruptions.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// A detached POSIX thread running `body` (for loops that live as long as the process, such as a
/// worker's heartbeat).
public enum DetachedThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; returns false when no thread could be made.
    @discardableResult
    public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
