#if canImport(Glibc)
import SystemMalloc
#endif

/// How a process that renders track after track keeps the memory it frees (glibc's malloc).
///
/// By default glibc gives a freed block of more than 128 KiB back to the kernel (it was its own
/// mapping, or it topped the heap by more than the trim threshold), so the next track's arrays of
/// fixes, steps and projected points arrive as fresh pages, each one a page fault and a page
/// cleared: 390 faults per 18,000-fix GPX drawn at 512², 14% of its time (4.74 ms instead of
/// 5.5 ms; 2560×1920 of a 7,200-fix GPX: 8.8 ms instead of 9.3; `tracksnap-dev repeat`, same run).
/// Kept, they are reused as they are. The worker's high-water mark does not change (nothing is
/// kept that was not in use at once before); its resident size no longer falls back between tracks.
package enum HeapRetention {
    /// Blocks up to this size come from the heap, so they are reused rather than unmapped. Default:
    /// 32 MiB, glibc's own ceiling for the threshold (the arrays of a 1,000,000-fix track).
    package static let heapBlockLimitBytes: Int32 = 32 << 20
    /// Free memory at the top of the heap up to this size stays with the process. Default: 64 MiB.
    package static let keptFreeBytes: Int32 = 64 << 20

    /// Sets both thresholds for this process (glibc; elsewhere nothing happens). Call once, before
    /// the first track.
    package static func keepFreedMemory() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, heapBlockLimitBytes)
        _ = mallopt(M_TRIM_THRESHOLD, keptFreeBytes)
        #endif
    }
}
