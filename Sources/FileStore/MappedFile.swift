#if canImport(Glibc)
import Glibc
#endif

/// A regular file mapped read-only into memory, for reading large track files without holding a
/// copy: pages come from the page cache as the reader reaches them, and `release(upTo:)` drops
/// the ones behind it, so a 1 GB file never costs 1 GB of resident memory.
///
/// A mapping sees later writes to the file; the queue only hands workers files that are settled
/// (hard links of finished files or sealed copies), and a file that shrinks under the mapping would
/// fault, so callers map only files the queue owns. Empty files map to an empty buffer.
package final class MappedFile {
    /// The file's bytes, valid until the object is released.
    package let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer?
    private var releasedBytes = 0
    private var lastRequest = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps `path`; refuses files over `maximumBytes` like `FileStore.readFile`.
    package init(_ path: String, maximumBytes: Int = 1 << 30) throws(FileError) {
        let (descriptor, size) = try FileStore.openRegularFile(path, maximumBytes: maximumBytes)
        defer { close(descriptor) }
        guard size > 0 else {
            base = nil
            bytes = UnsafeBufferPointer(start: nil, count: 0)
            return
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw FileError("mmap", path)
        }
        _ = madvise(mapped, size, MADV_SEQUENTIAL)
        base = mapped
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// Drops the resident pages before `offset` (whole pages only). They read back from the page
    /// cache if touched again (an error message looking back for a line number, say). An offset
    /// below the previous one starts a new pass over the file (a check, then the reader).
    package func release(upTo offset: Int) {
        guard let base else { return }
        if offset < lastRequest { releasedBytes = 0 }
        lastRequest = offset
        let end = min(offset, bytes.count) / Self.pageSize * Self.pageSize
        guard end > releasedBytes else { return }
        _ = madvise(base + releasedBytes, end - releasedBytes, MADV_DONTNEED)
        releasedBytes = end
    }

    deinit {
        if let base { munmap(base, bytes.count) }
    }
}
