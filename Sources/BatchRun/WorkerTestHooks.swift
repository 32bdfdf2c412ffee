#if canImport(Glibc)
import Glibc
#endif

/// The failures tests make a worker stage, read once from the environment as the worker starts.
/// Each `...On` value is matched against the names of the jobs the worker claims; unset or empty,
/// a hook does nothing. Not options: no user has a reason to set them.
struct WorkerTestHooks: Sendable, Equatable {
    /// `TRACKSNAP_TEST_CRASH_AT_START`: abort before claiming anything (a worker that cannot start).
    var crashesAtStart = false
    /// `TRACKSNAP_TEST_CRASH_ON`: abort after claiming a job whose name contains this (a crash).
    var crashOn: String?
    /// `TRACKSNAP_TEST_HANG_ON`: sleep forever after claiming such a job (a timeout).
    var hangOn: String?
    /// `TRACKSNAP_TEST_ALLOCATE_ON`: allocate until the memory fence stops the worker (a track
    /// whose cost the readers misjudge).
    var allocateOn: String?

    /// The hooks the environment sets.
    static func fromEnvironment() -> WorkerTestHooks {
        func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        return WorkerTestHooks(
            crashesAtStart: value("TRACKSNAP_TEST_CRASH_AT_START") != nil, crashOn: value("TRACKSNAP_TEST_CRASH_ON"),
            hangOn: value("TRACKSNAP_TEST_HANG_ON"), allocateOn: value("TRACKSNAP_TEST_ALLOCATE_ON"))
    }

    /// Stages the failure a hook names for the job just claimed, if any; returns otherwise.
    func claimed(_ job: String) {
        if let crashOn, job.contains(crashOn) { abort() }
        if let hangOn, job.contains(hangOn) { while true { sleep(60) } }
        if let allocateOn, job.contains(allocateOn) { Self.exhaustMemory() }
    }

    /// Grows an array until the memory fence stops the process.
    private static func exhaustMemory() -> Never {
        var hoard: [[UInt8]] = []
        while true { hoard.append([UInt8](repeating: 1, count: 16 << 20)) }
    }
}
