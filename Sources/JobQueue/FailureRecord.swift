import FoundationEssentials

/// Why a job was quarantined.
package enum FailureClass: String, Sendable, Codable, CaseIterable {
    /// The file is not a readable track (parse error, no valid fixes).
    case invalidInput = "invalid-input"
    /// The track passed a per-job limit (memory, input size, fixes, nesting, expansion), or its
    /// worker ran out of memory at the fence set under it. `tracksnap retry` after raising it.
    case limit
    /// The worker died while processing the job, `maxAttempts` times.
    case crash
    /// The job ran past the per-job timeout, `maxAttempts` times.
    case timeout
    /// Rendering or encoding failed, `maxAttempts` times.
    case render
    /// The job's file name cannot be used (too long to claim).
    case name

    /// The message used when no more specific one is known.
    package var defaultMessage: String {
        switch self {
        case .invalidInput: return "not a readable track"
        case .crash: return "the worker process died while processing this job"
        case .timeout: return "the job ran past the per-job timeout"
        case .render: return "rendering failed"
        case .name: return "unusable job name"
        case .limit: return "the track passed a per-job limit"
        }
    }
}

/// The sidecar written next to a quarantined job: `failed/NAME.error`.
package struct FailureRecord: Sendable, Equatable, Codable {
    /// The job's name.
    package var job: String
    /// Why it failed.
    package var failureClass: FailureClass
    /// One line naming the problem (and the position, for invalid input).
    package var message: String
    /// Attempts used.
    package var attempts: Int
    /// When it was quarantined (ISO 8601, UTC).
    package var time: String
    /// The TrackSnap version that quarantined it.
    package var version: String

    enum CodingKeys: String, CodingKey {
        case job, message, attempts, time, version
        case failureClass = "class"
    }

    /// A record stamped with the current time.
    package init(job: String, failureClass: FailureClass, message: String, attempts: Int, version: String) {
        self.job = job
        self.failureClass = failureClass
        self.message = message
        self.attempts = attempts
        self.version = version
        time = Date().formatted(.iso8601)
    }

    /// The sidecar's bytes (sorted keys, one object).
    package func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    /// Parses a sidecar; nil when it is not one.
    package static func parse(_ bytes: [UInt8]) -> FailureRecord? {
        try? JSONDecoder().decode(FailureRecord.self, from: Data(bytes))
    }
}
