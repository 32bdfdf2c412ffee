#if canImport(Glibc)
import Glibc
#endif

/// Text to the process's standard error, unbuffered: progress bars, warnings and error lines.
/// (Foundation's `FileHandle` did this before; the executable no longer links Foundation, whose
/// loading was most of its start time.)
package enum StandardError {
    /// Writes `text` whole, retrying short writes and interruptions.
    package static func write(_ text: String) {
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
