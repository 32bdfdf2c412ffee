#if canImport(Glibc)
import SystemMalloc
#endif

/// How a process that renders track after track keeps the memory it frees (glibc's malloc).
///
/// Left to itself glibc gives a freed block of more than 128 KiB back to the kernel (it was its
/// own mapping, or it topped the heap by more than the trim threshold) until some larger block is
/// freed and it raises both thresholds on its own. Until then each track's arrays of fixes, steps
/// and projected points arrive as fresh pages, each one a page fault and a page cleared: 390
/// faults per 18,000-fix GPX drawn at 512², 14% of its time (`tracksnap-dev repeat`: 4.8–5.0 ms
/// instead of 5.6). Setting the thresholds once makes that the worker's behaviour from its first
/// track, whatever it happens to free first. The cost is memory: up to `keptFreeBytes` of free
/// memory stays with the worker, and blocks of 128 KiB–32 MiB now share the heap, so its
/// fragmentation can raise the peak; both count against the worker's `MemoryFence` limit (the
/// four default images of a track need tens of MB; the default limit is 512 MiB).
///
/// Tried and dropped: transparent huge pages for the heap (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`
/// in the worker's environment). A one-track vector run took 5,000 page faults instead of 23,000
/// and 25 ms less CPU, but over 24 tracks the kernel's clearing of whole 2 MiB pages ate that and
/// more (`perf`: `clear_page_erms` from 1% to 10–17% of the run; medians 51.7 against 46.7 ms a
/// track), and huge pages raise a worker's resident memory.
package enum HeapRetention {
    /// Blocks up to this size come from the heap, so they are reused rather than unmapped: 32 MiB,
    /// glibc's own ceiling for the threshold (the arrays of a 1,000,000-fix track).
    package static let heapBlockLimitBytes: Int32 = 32 << 20
    /// Free memory at the top of the heap up to this size stays with the process: 64 MiB.
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
