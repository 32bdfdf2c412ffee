#if canImport(Glibc)
import Glibc
#endif

/// A regular file opened read-only for reads at any offset (`pread`), for containers read a
/// directory and a tile at a time (PMTiles) that may be far larger than memory. Unlike a mapping,
/// a file that shrinks under it gives a short read (an error), never a fault.
package final class RandomAccessFile {
    /// The path opened.
    package let path: String
    /// The file's size in bytes when it was opened.
    package let sizeBytes: Int
    private let descriptor: Int32

    /// Opens `path` (a regular file, links followed).
    package init(_ path: String) throws(FileError) {
        let (descriptor, size) = try FileStore.openRegularFile(path, maximumBytes: Int.max)
        self.path = path
        self.descriptor = descriptor
        sizeBytes = size
    }

    deinit { close(descriptor) }

    /// The `length` bytes at `offset`; fewer only at the end of the file. Interrupted reads are resumed.
    package func read(offset: Int, length: Int) throws(FileError) -> [UInt8] {
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let count = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, length - done, off_t(offset + done))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError("read", path)
            }
            if count == 0 { break }
            done += count
        }
        if done < length { bytes.removeLast(length - done) }
        return bytes
    }
}
