#if canImport(Glibc)
import Glibc
#endif

/// Zeroed arrays for the canvas-sized buffers a renderer keeps from image to image (palette
/// indices, coverage masks, the area accumulator's cells), on transparent huge pages where the
/// kernel gives them on request (Linux with `transparent_hugepage` set to `madvise` or `always`).
///
/// Why: a 2560×1920 image's accumulator is 20 MB of cells, its mask and canvas 5 MB each, and a
/// process zeroing them first took one page fault per 4 KiB: 5–7% of the 24-track vector bench
/// run (`perf`: `exc_page_fault` under the workers' and the overview's first images). Asking for
/// 2 MiB pages before the zeros are written takes one fault per 2 MiB instead (the run's page
/// fault samples 164 → 98; 47.1 → 45.0 ms CPU a track, median of 10 alternating runs). The
/// arrays are written whole at once, so no memory is committed that 4 KiB pages would not have
/// committed. Only whole huge pages inside the array are advised; elsewhere this is an ordinary
/// zeroed array.
enum LargeBuffer {
    /// Bytes of a huge page (x86-64 and arm64 Linux with 4 KiB base pages).
    static let hugePageBytes = 2 << 20

    /// `count` zeros, the whole 2 MiB pages of an array of at least two of them advised as huge
    /// before they are written.
    static func zeroed<Element: BitwiseCopyable & Numeric>(_ type: Element.Type, count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress, count * MemoryLayout<Element>.stride >= 2 * hugePageBytes {
                adviseHugePages(UnsafeMutableRawPointer(base), bytes: count * MemoryLayout<Element>.stride)
            }
            buffer.initialize(repeating: 0)
            initialized = count
        }
    }

    /// `madvise(MADV_HUGEPAGE)` over the whole huge pages between `base` and `base + bytes`; a
    /// refusal (no THP in this kernel) leaves ordinary pages.
    private static func adviseHugePages(_ base: UnsafeMutableRawPointer, bytes: Int) {
        #if canImport(Glibc)
        let start = (Int(bitPattern: base) + hugePageBytes - 1) & ~(hugePageBytes - 1)
        let end = (Int(bitPattern: base) + bytes) & ~(hugePageBytes - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_HUGEPAGE)
        #endif
    }
}
