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
package enum HeapRetention {
    /// Blocks up to this size come from the heap, so they are reused rather than unmapped: 32 MiB,
    /// glibc's own ceiling for the threshold (the arrays of a 1,000,000-fix track).
    package static let heapBlockLimitBytes: Int32 = 32 << 20
    /// Free memory at the top of the heap up to this size stays with the process: 64 MiB.
    package static let keptFreeBytes: Int32 = 64 << 20

    /// glibc tunables a worker is started with (`GLIBC_TUNABLES`): `hugetlb=1` makes malloc ask
    /// for transparent huge pages (`madvise`) on the heap it grows. A worker's canvas, masks and
    /// signed-area cells are about 40 MB at 2560×1920, first touched page by page; on this
    /// machine's kernel (THP in `madvise` mode) each 4 KiB fault cost about 3.5 µs, so a vector
    /// run of 24 tracks spent about 100 ms of its 1.2 s in 20,000 page faults. With huge pages it
    /// takes 5,000 (`perf stat -e page-faults`). Only a variable read at start can do this: glibc
    /// has no `mallopt` for it, so the thresholds above stay `mallopt`'s and this stays the
    /// environment's. The kernel may compact memory to find a huge page (`defrag` = `madvise`),
    /// which a user who prefers steadier latency turns off by setting `GLIBC_TUNABLES` themselves.
    package static let workerTunables = "glibc.malloc.hugetlb=1"

    /// `environment` (`NAME=value` entries) with `workerTunables` added: to a `GLIBC_TUNABLES`
    /// the user set, only when it says nothing of `hugetlb` (theirs wins).
    package static func workerEnvironment(_ environment: [String]) -> [String] {
        let prefix = "GLIBC_TUNABLES="
        guard let index = environment.firstIndex(where: { $0.hasPrefix(prefix) }) else { return environment + [prefix + workerTunables] }
        var result = environment
        let value = environment[index].dropFirst(prefix.count)
        if !value.contains("glibc.malloc.hugetlb") { result[index] = prefix + (value.isEmpty ? "" : value + ":") + workerTunables }
        return result
    }

    /// Sets both thresholds for this process (glibc; elsewhere nothing happens). Call once, before
    /// the first track.
    package static func keepFreedMemory() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, heapBlockLimitBytes)
        _ = mallopt(M_TRIM_THRESHOLD, keptFreeBytes)
        #endif
    }
}
