import FoundationEssentials

/// What a run did; `--json` prints it.
public struct RunSummary: Sendable, Equatable, Codable {
    /// Jobs claimed by this run's workers.
    public var claimed = 0
    /// Jobs rendered and published.
    public var rendered = 0
    /// Jobs whose images were already published (same bytes and settings).
    public var cached = 0
    /// Jobs quarantined during this run.
    public var failed = 0
    /// Jobs given back to the queue (to retry, or because the run stopped).
    public var returned = 0
    /// Wall-clock seconds.
    public var seconds = 0.0

    /// The quarantined jobs, with their reasons.
    public var failures: [Failure] = []
    /// Why the run stopped early, when it did (disk full, a signal).
    public var stoppedBecause: String?

    /// One quarantined job.
    public struct Failure: Sendable, Equatable, Codable {
        /// The job's name.
        public var job: String
        /// The failure class.
        public var failureClass: String
        /// The reason.
        public var message: String

        enum CodingKeys: String, CodingKey {
            case job, message
            case failureClass = "class"
        }
    }

    enum CodingKeys: String, CodingKey {
        case claimed, rendered, cached, failed, returned, seconds, failures
        case stoppedBecause = "stopped_because"
    }

    /// An empty summary.
    public init() {}

    /// Jobs finished one way or the other.
    public var finished: Int { rendered + cached + failed }

    /// One line for people: "2000 tracks: 1990 rendered, 8 cached, 2 failed in 12.4 s (161.3 tracks/s)".
    public var line: String {
        let rate = seconds > 0 ? finished.asDouble / seconds : 0
        var text = "\(finished) track\(finished == 1 ? "" : "s"): \(rendered) rendered, \(cached) cached, \(failed) failed"
        if returned > 0 { text += ", \(returned) returned to the queue" }
        text += " in \(seconds.fixed(1)) s (\(rate.fixed(1)) tracks/s)"
        if let stoppedBecause { text += "; stopped: \(stoppedBecause)" }
        return text
    }
}

extension Int {
    fileprivate var asDouble: Double { Double(self) }
}
