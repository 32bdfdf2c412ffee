#if canImport(Glibc)
import Glibc
#endif
import FileStore

/// A server's circuit breaker as the workers of one run share it: a file in the server's cache
/// folder (`.requests/breaker`) written when one worker's `TileTimeBudget` opens its breaker, and
/// honoured by every source on that folder created before it was written (the same run; a later
/// run starts with the breaker closed).
struct SharedBreaker {
    /// The breaker file.
    let path: String
    private let createdNanoseconds = SharedBreaker.wallClockNanoseconds()

    /// The breaker of the server cached in `cacheFolder`.
    init(cacheFolder: String) {
        path = cacheFolder + "/.requests/breaker"
    }

    /// Counts a failed request in `budget`; the last of its `breakerThreshold` in a row opens the
    /// breaker, for this source and (through the file) the other workers of this run.
    func recordFailure(_ problem: TileProblem, in budget: TileTimeBudget, what: String) {
        guard budget.recordFailure(problem, what: what), let reason = budget.breakerReason else { return }
        try? FileStore.writeAtomically(Array((reason + "\n").utf8), to: path)
    }

    /// Why the breaker is open: `budget`'s own reason, or another worker's written since this
    /// source was created (then `budget` is opened with it).
    func openReason(_ budget: TileTimeBudget) -> String? {
        if let breakerReason = budget.breakerReason { return breakerReason }
        guard let status = (try? FileStore.statusFollowingLinks(path)) ?? nil,
            status.modificationNanoseconds >= createdNanoseconds,
            let bytes = try? FileStore.readFile(path, maximumBytes: 4096)
        else { return nil }
        var reason = String(decoding: bytes, as: UTF8.self)
        if reason.hasSuffix("\n") { reason.removeLast() }
        budget.openBreaker(reason + " (noticed by another worker)")
        return budget.breakerReason
    }

    /// The failure that opened the breaker says so, once: `problem` annotated when `budget`'s
    /// breaker has just opened.
    static func annotated(_ problem: TileProblem, budget: TileTimeBudget) -> TileProblem {
        guard budget.breakerReason != nil, budget.failuresInARow == budget.breakerThreshold else { return problem }
        var annotated = problem
        annotated.description += " (\(budget.breakerThreshold) failures in a row: the server is not asked again in this run)"
        return annotated
    }

    private static func wallClockNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
}
