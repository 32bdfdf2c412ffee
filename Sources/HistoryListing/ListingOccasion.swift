import ContentHash

/// Why the listing is being refreshed, as its caller saw it. The listing alone decides from this
/// whether the refresh may prune (`pruneLimitNanoseconds`): the callers say what happened, not
/// what to do.
package enum ListingOccasion: Sendable {
    /// A `tracksnap run` ended.
    case runEnded(RunEnd)
    /// `tracksnap listing`, run on its own: the clock was read at `queueCheckedAtNanoseconds`,
    /// then the queue was found idle (nothing queued or running) or not.
    case listingCommand(queueCheckedAtNanoseconds: Int64, queueIdle: Bool)

    /// How a run ended, as far as the listing cares.
    package struct RunEnd: Sendable {
        /// When the run started (wall clock, ns).
        package var startedAtNanoseconds: Int64
        /// Shards the queue is split into (1: this run saw the whole queue).
        package var shardCount: Int
        /// Whether the run stopped before draining its queue (a stop signal, a temporary
        /// condition such as a full disk).
        package var interrupted: Bool
        /// Content hashes the run computed (job name → digest); the listing hashes the others.
        package var knownContent: [String: SHA256Digest]
        /// Keys whose records the run rewrote (an incomplete image drawn again keeps its key):
        /// their listing entries are rebuilt from the new record.
        package var redrawn: Set<String>

        /// A run's end.
        package init(
            startedAtNanoseconds: Int64, shardCount: Int, interrupted: Bool, knownContent: [String: SHA256Digest] = [:], redrawn: Set<String> = []
        ) {
            self.startedAtNanoseconds = startedAtNanoseconds
            self.shardCount = shardCount
            self.interrupted = interrupted
            self.knownContent = knownContent
            self.redrawn = redrawn
        }
    }

    /// The prune rule, the one place it is decided: images and records no listed track references
    /// and older than this time (ns) are removed once the new listing is published; nil: nothing
    /// is pruned (the refresh leaves a mark, so the next one allowed to prune does).
    ///
    /// Pruning removes images no finished job references, and a job between publishing its images
    /// and reaching done/ holds a claim in running/. So a run prunes only what was there before it
    /// started, and only when it saw the whole queue (one shard: other shards may be publishing)
    /// and drained it. A standalone listing reads the clock, then the queue: when nothing is
    /// queued or running, every unreferenced file older than that time is an orphan (anything a
    /// run publishes later is newer); otherwise the listing is early (shards still running, a task
    /// cancelled and not requeued) and prunes nothing.
    var pruneLimitNanoseconds: Int64? {
        switch self {
        case .runEnded(let run): run.shardCount == 1 && !run.interrupted ? run.startedAtNanoseconds : nil
        case .listingCommand(let checked, let idle): idle ? checked : nil
        }
    }

    /// Content hashes already known (job name → digest).
    var knownContent: [String: SHA256Digest] {
        if case .runEnded(let run) = self { return run.knownContent }
        return [:]
    }

    /// Keys whose records were rewritten since the last refresh.
    var redrawn: Set<String> {
        if case .runEnded(let run) = self { return run.redrawn }
        return []
    }
}
