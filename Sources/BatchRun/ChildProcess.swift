#if canImport(Glibc)
import Glibc
#endif

/// A worker process with a pipe to its stdin (closing it asks the worker to stop) and one from
/// its stdout (its messages). Spawned with `posix_spawn`; stderr is shared with the supervisor.
final class ChildProcess {
    let pid: pid_t
    /// Read end of the worker's stdout; -1 once closed.
    private(set) var outputDescriptor: Int32
    /// Write end of the worker's stdin; -1 once closed.
    private var inputDescriptor: Int32
    private var pending: [UInt8] = []

    /// The job the worker is on, and since when (monotonic seconds).
    var currentJob: String?
    var currentJobStart = 0.0
    /// A job ended; the timeout clock stops only if it was the one being rendered (the worker
    /// publishes the previous job while it renders the next).
    func jobEnded(_ job: String) {
        if currentJob == job { currentJob = nil }
    }

    /// Set when the supervisor killed the worker for running past the job timeout.
    var killedForTimeout = false
    /// Whether the worker claimed at least one job (a worker that dies before that died of
    /// something no job caused).
    var claimedAny = false
    /// Set when the worker said it is dying of a failed allocation at its memory fence.
    var ranOutOfMemory = false

    /// Spawns `executable` with `arguments` (argv[0] included).
    init(executable: String, arguments: [String]) throws(SpawnError) {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        // O_CLOEXEC: no worker inherits another's pipe ends, so EOF arrives when a worker dies.
        guard makePipe(&toChild) else { throw SpawnError(message: "pipe: \(errnoText())") }
        guard makePipe(&fromChild) else {
            close(toChild[0])
            close(toChild[1])
            throw SpawnError(message: "pipe: \(errnoText())")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        var childPid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The supervisor's environment as it is: the worker's malloc settings are `HeapRetention`'s.
        let result = posix_spawn(&childPid, executable, &actions, nil, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard result == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw SpawnError(message: "cannot start worker \(executable): \(String(cString: strerror(result)))")
        }
        pid = childPid
        inputDescriptor = toChild[1]
        outputDescriptor = fromChild[0]
    }

    /// Asks the worker to stop after its current job.
    func requestStop() {
        if inputDescriptor >= 0 {
            close(inputDescriptor)
            inputDescriptor = -1
        }
    }

    /// Reads what is available; returns complete lines (split into fields), and whether the pipe
    /// reached end of file (the worker exited).
    func readMessages() -> (messages: [WorkerMessage], ended: Bool) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { read(outputDescriptor, $0.baseAddress!, $0.count) }
        if count < 0 && errno == EINTR { return ([], false) }
        if count <= 0 {
            close(outputDescriptor)
            outputDescriptor = -1
            return ([], true)
        }
        pending += buffer[0..<count]
        guard let lastNewline = pending.lastIndex(of: 0x0A) else { return ([], false) }
        let complete = Array(pending[...lastNewline])
        pending.removeSubrange(...lastNewline)
        return (TabSeparated.records(complete).compactMap(WorkerMessage.init(fields:)), false)
    }

    /// Waits for the process to exit; returns its wait status.
    func wait() -> Int32 {
        requestStop()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    deinit {
        requestStop()
        if outputDescriptor >= 0 { close(outputDescriptor) }
    }
}

/// A worker could not be started.
package struct SpawnError: Error, Sendable {
    /// What failed.
    package var message: String
}

/// pipe() with both ends close-on-exec (and optionally non-blocking). pipe2 is not visible
/// without _GNU_SOURCE; the supervisor is single-threaded, so setting the flags after is safe.
func makePipe(_ ends: inout [Int32], nonBlocking: Bool = false) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
    }
    return true
}

func errnoText() -> String { String(cString: strerror(errno)) }

import FileStore
