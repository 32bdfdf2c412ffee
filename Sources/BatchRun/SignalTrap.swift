#if canImport(Glibc)
import Glibc
#endif

// The self-pipe the handler writes to: the only state a signal handler may touch.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into bytes on a pipe the supervisor polls (the self-pipe trick), so
/// signal handling happens in the event loop, not in a handler.
enum SignalTrap {
    /// Installs the handlers; returns the pipe's read end (non-blocking).
    static func install() -> Int32 {
        var ends: [Int32] = [0, 0]
        guard makePipe(&ends, nonBlocking: true) else { return -1 }
        signalPipeWriteEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signalNumber in
            var byte = UInt8(truncatingIfNeeded: signalNumber)
            _ = write(signalPipeWriteEnd, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started us with these blocked (spawned children inherit the mask).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        signal(SIGPIPE, SIG_IGN)
        return ends[0]
    }

    /// Signals received since the last call.
    static func drain(_ descriptor: Int32) -> [Int32] {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        return count > 0 ? bytes[0..<count].map { Int32($0) } : []
    }
}
