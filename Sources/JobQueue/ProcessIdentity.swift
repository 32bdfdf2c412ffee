#if canImport(Glibc)
import Glibc
#endif
import FileStore

/// Who holds a claim: host, pid and the process's start time, so a pid reused by a later process
/// is not mistaken for the claimer.
package struct ProcessIdentity: Sendable, Equatable {
    /// Host name (first label).
    package var host: String
    /// Process id.
    package var pid: Int32
    /// Start time in clock ticks since boot (`/proc/<pid>/stat` field 22).
    package var startTicks: UInt64

    /// Creates an identity.
    package init(host: String, pid: Int32, startTicks: UInt64) {
        self.host = host
        self.pid = pid
        self.startTicks = startTicks
    }

    /// `host~pid~start`: how claims and heartbeat files name the process that owns them.
    package var fileNameSuffix: String { "\(host)~\(pid)~\(startTicks)" }

    /// Parses the last three `~` fields of a claim or heartbeat file name; nil when they are not
    /// a host, a pid and a start time.
    package init?(fileNameSuffix text: Substring) {
        let fields = text.split(separator: "~", omittingEmptySubsequences: false).suffix(3)
        guard fields.count == 3, let host = fields.first, !host.isEmpty, let pid = Int32(fields[fields.startIndex + 1]),
            let start = UInt64(fields[fields.startIndex + 2])
        else { return nil }
        self.init(host: String(host), pid: pid, startTicks: start)
    }

    /// This process.
    package static var current: ProcessIdentity {
        let pid = getpid()
        return ProcessIdentity(host: TemporaryName.host, pid: pid, startTicks: startTicks(of: pid) ?? 0)
    }

    /// The start time of a live process on this host, or nil when there is no such process
    /// (a zombie counts as gone: in a container whose init does not reap, a dead worker can stay
    /// a zombie for ever).
    package static func startTicks(of pid: Int32) -> UInt64? {
        guard let bytes = try? FileStore.readStream("/proc/\(pid)/stat") else { return nil }
        // The command name (field 2) may contain spaces and parentheses: count fields after the last ')'.
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        // Fields after ")" start at field 3 (state); field 22 is index 19.
        guard fields.count > 19, fields[0].first != UInt8(ascii: "Z"), fields[0].first != UInt8(ascii: "X") else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }

    /// Whether the process that made `claim` is still alive (only meaningful on the same host).
    package static func isAlive(pid: Int32, startTicks: UInt64) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let current = Self.startTicks(of: pid) else { return false }
        return current == startTicks
    }
}
