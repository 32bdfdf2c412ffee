#if canImport(Glibc)
import Glibc
#endif

/// The worker's second memory fence (`RunConfiguration.workerMemoryFenceBytes`). The first is
/// the readers' accounting (`DecodingLimits.maximumMemoryBytes`), which refuses a track by what
/// it would hold; this one catches whatever that accounting misjudges. Past it an allocation
/// fails, the Swift runtime prints "failed to allocate N bytes" and aborts, and the handler
/// installed here tells the supervisor first, which then quarantines the job with class `limit`
/// at once (retrying it would only fail the same way) and starts a new worker.
enum MemoryFence {
    /// The line the SIGABRT handler writes to the supervisor pipe: `WorkerMessage.outOfMemory`.
    static let outOfMemoryLine: StaticString = "out-of-memory\n"

    /// Limits this process's data segment to `bytes` and installs the handler. Returns a message
    /// when the limit cannot be set (the run goes on without the second fence).
    static func install(bytes: Int) -> String? {
        // Only the soft limit is lowered, never above a hard limit the administrator set.
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_DATA.rawValue), &limit) == 0 else {
            return "cannot read the data segment limit: \(String(cString: strerror(errno)))"
        }
        limit.rlim_cur = min(rlim_t(bytes), limit.rlim_max)
        guard setrlimit(Int32(RLIMIT_DATA.rawValue), &limit) == 0 else {
            return "cannot set the worker memory fence (RLIMIT_DATA \(bytes) bytes): \(String(cString: strerror(errno)))"
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = abortHandler
        action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND))
        sigemptyset(&action.sa_mask)
        sigaction(SIGABRT, &action, nil)
        return nil
    }
}

/// Runs on SIGABRT. `errno` is still ENOMEM from the failed mmap/brk when the runtime aborts on a
/// failed allocation (a crash for any other reason leaves some other value and says nothing).
/// Only async-signal-safe calls: one write(2) of a fixed line, then the default action again.
private func abortHandler(_ signal: Int32) {
    if errno == ENOMEM {
        let line = MemoryFence.outOfMemoryLine
        _ = write(1, line.utf8Start, line.utf8CodeUnitCount)
    }
    raise(SIGABRT)  // SA_RESETHAND restored the default action: die as the abort meant to
}
