import FoundationEssentials

/// What a run did; `--json` prints it.
package struct RunSummary: Sendable, Equatable, Codable {
    /// Jobs claimed by this run's workers.
    package var claimed = 0
    /// Jobs rendered and published.
    package var rendered = 0
    /// Jobs whose images were already published (same bytes and settings).
    package var cached = 0
    /// Jobs quarantined during this run.
    package var failed = 0
    /// Jobs given back to the queue (to retry, or because the run stopped).
    package var returned = 0
    /// Wall-clock seconds.
    package var seconds = 0.0

    /// Jobs rendered with map tiles missing that exist (offline, a locked file, a server
    /// outage): published, and drawn again by the next run.
    package var incomplete = 0
    /// Why, grouped: tracks and failed tiles per cause.
    package var incompleteCauses: [IncompleteCause] = []

    /// The quarantined jobs, with their reasons.
    package var failures: [Failure] = []
    /// Why the run stopped early, when it did (disk full, a signal).
    package var stoppedBecause: String?

    /// One quarantined job.
    package struct Failure: Sendable, Equatable, Codable {
        /// The job's name.
        package var job: String
        /// The failure class.
        package var failureClass: String
        /// The reason.
        package var message: String

        enum CodingKeys: String, CodingKey {
            case job, message
            case failureClass = "class"
        }
    }

    /// Tracks drawn with map tiles missing for one cause.
    package struct IncompleteCause: Sendable, Equatable, Codable {
        /// Why the tiles failed, e.g. "offline, not in the tile cache".
        package var cause: String
        /// Tracks affected.
        package var tracks: Int
        /// Tiles that failed over their images.
        package var tilesFailed: Int

        enum CodingKeys: String, CodingKey {
            case cause, tracks
            case tilesFailed = "tiles_failed"
        }
    }

    enum CodingKeys: String, CodingKey {
        case claimed, rendered, cached, failed, returned, seconds, failures, incomplete
        case incompleteCauses = "incomplete_causes"
        case stoppedBecause = "stopped_because"
    }

    /// Counts one job drawn with `tilesFailed` map tiles missing because of `cause`.
    package mutating func noteIncomplete(cause: String, tilesFailed: Int) {
        incomplete += 1
        if let index = incompleteCauses.firstIndex(where: { $0.cause == cause }) {
            incompleteCauses[index].tracks += 1
            incompleteCauses[index].tilesFailed += tilesFailed
        } else {
            incompleteCauses.append(IncompleteCause(cause: cause, tracks: 1, tilesFailed: tilesFailed))
        }
    }

    /// An empty summary.
    package init() {}

    /// Jobs finished one way or the other.
    package var finished: Int { rendered + cached + failed }

    /// One line for people: "2000 tracks: 1990 rendered, 8 cached, 2 failed in 12.4 s (161.3 tracks/s)"
    /// (`incompleteLine` follows it when tracks were drawn with map tiles missing).
    package var line: String {
        let rate = seconds > 0 ? finished.asDouble / seconds : 0
        var text = "\(finished) track\(finished == 1 ? "" : "s"): \(rendered) rendered, \(cached) cached, \(failed) failed"
        if returned > 0 { text += ", \(returned) returned to the queue" }
        text += " in \(seconds.fixed(1)) s (\(rate.fixed(1)) tracks/s)"
        if let stoppedBecause { text += "; stopped: \(stoppedBecause)" }
        return text
    }

    /// The second line when tracks were drawn with map tiles missing, else nil.
    package var incompleteLine: String? {
        guard incomplete > 0 else { return nil }
        let causes = incompleteCauses.map { "\($0.cause): \($0.tilesFailed) tile\($0.tilesFailed == 1 ? "" : "s")" }.joined(separator: "; ")
        return "\(incomplete) track(s) drawn with missing map tiles (\(causes)); they will be redrawn next run"
    }
}

extension Int {
    fileprivate var asDouble: Double { Double(self) }
}
