#if canImport(Glibc)
import Glibc
#endif
import ContentHash
import FileStore
import HistoryListing
import JobQueue
import ThumbnailCache

/// Why a run could not start or had to stop; the CLI maps each to an exit code.
package enum RunError: Error, Sendable {
    /// Another run holds the lock for this queue and shard (exit 75).
    case busy(lockPath: String)
    /// A file-system call failed outside any job.
    case file(FileError)
    /// A worker could not be started.
    case spawn(SpawnError)
}

/// How a run ended.
package struct RunOutcome: Sendable {
    /// What was done.
    package var summary: RunSummary
    /// Whether a temporary condition (disk full, a stop signal with jobs left) cut it short:
    /// the engine or cron should run it again later (exit 75).
    package var isTemporaryFailure: Bool
    /// Set when a worker gave up for a reason that is neither a crash nor temporary (it printed
    /// why): the run did not finish its queue and should exit 1.
    package var workerFailed: Bool
}

/// `tracksnap run`: takes the lock, re-queues everything when the settings changed, reaps stale
/// claims, drains the queue with a pool of worker processes, then refreshes the listing.
///
/// Workers are processes, not threads: a track that crashes the renderer takes down one worker,
/// not the run (its claim is given back with one more attempt, and quarantined at the limit);
/// a per-job timeout can kill a stuck worker; memory is bounded per worker. The supervisor is a
/// single-threaded poll loop over the workers' pipes and a signal self-pipe.
package final class Supervisor {
    /// Where the pool of workers is; see `Phase`.
    enum Phase: Equatable {
        /// Workers claim jobs; one that crashes is replaced.
        case draining
        /// A worker failed, or a temporary condition (a full disk) stops the run: the workers were
        /// asked to stop after their job and none is replaced. A signal stops as in `draining`.
        case windingDown
        /// A stop signal came: the workers finish the jobs in flight until `deadline` (monotonic
        /// seconds), then are killed and their claims given back unchanged.
        case stopping(deadline: Double)
        /// A second stop signal: the workers were killed; their claims go back unchanged.
        case aborting

        /// Whether a claim given back at `now` is the supervisor's doing (an abort, or the stop
        /// deadline passed), so no attempt is charged.
        func isDeliberate(at now: Double) -> Bool {
            switch self {
            case .aborting: true
            case .stopping(let deadline): now >= deadline
            case .draining, .windingDown: false
            }
        }

        /// Whether a stop signal ended the run: an abort always, a stop unless a temporary condition
        /// stopped it too (`environmentalStop`: then it is reported as that).
        func isSignalStop(besides environmentalStop: Bool) -> Bool {
            switch self {
            case .aborting: true
            case .stopping: !environmentalStop
            case .draining, .windingDown: false
            }
        }
    }

    /// The run's settings (its basemap stamped).
    let configuration: RunConfiguration
    /// The queue the run drains.
    let queue: JobQueue
    /// Draws a track's images and publishes them (its store is where they go).
    let renderer: ThumbnailRenderer
    /// Where the images are published.
    var store: ThumbnailStore { renderer.store }
    private let listing: ListingBuilder
    /// Progress and notes on standard error.
    let reporter: ProgressReporter
    private let executable: String
    /// The live workers.
    var children: [ChildProcess] = []
    /// What the run has done so far.
    var summary = RunSummary()
    /// Jobs to do when the run started (ready and settling).
    var total = 0
    /// Content hashes the workers reported (job name → digest), handed to the listing.
    var contentByJob: [String: SHA256Digest] = [:]
    /// Keys drawn by this run: an incomplete image drawn again keeps its key, and the listing
    /// must read its new record.
    var renderedKeys: Set<String> = []
    /// The pool's phase: the one state that decides spawning, deadlines and kills.
    var phase = Phase.draining
    /// What the run reports besides its phase: a temporary condition stopped it (exit 75; the
    /// run is to be tried again later).
    var environmentalStop = false
    /// What the run reports besides its phase: a worker gave up for a reason of its own (exit 1).
    var workerFailed = false
    /// Workers in a row that died by a signal before claiming a job (see `finish`).
    var deathsBeforeAnyClaim = 0
    /// The signal self-pipe's read end (installed as `run` starts).
    var signals: Int32 = -1
    /// When the run started (monotonic seconds).
    let started = monotonicSeconds()
    /// The configuration file the workers are started with (written as the run starts).
    private var configurationFile = ""

    /// A supervisor for `configuration`, spawning `executable` (this program) as workers.
    /// The basemap's content stamp is taken now, and the workers key images with this one.
    package init(configuration: RunConfiguration, progress: ProgressMode, executable: String) {
        let configuration = configuration.stampingBasemap()
        self.configuration = configuration
        queue = configuration.makeQueue()
        renderer = configuration.makeRenderer()
        listing = configuration.makeListing()
        reporter = ProgressReporter(mode: progress)
        self.executable = executable
    }

    /// Runs to completion.
    package func run() throws(RunError) -> RunOutcome {
        // First of all: a SIGTERM while the run takes its lock, reaps or lists (before any
        // worker exists) must end it with 0 or 75 like any other stop, not kill it (143).
        signals = SignalTrap.install()
        let startedWall = FileStore.nowNanoseconds()
        guard FileStore.exists(queue.layout.root) else { throw .file(FileError("find queue", queue.layout.root, code: ENOENT)) }
        guard queue.isQueue else {
            throw .file(
                FileError(
                    "use", queue.layout.root, code: ENOENT,
                    reason:
                        "not a job queue (no new/ folder): create one with 'tracksnap enqueue', or check the path and that its file system is mounted"
                ))
        }
        var lock: ExclusiveLock?
        if configuration.usesLock {
            let path = queue.layout.lockPath(shard: configuration.shard)
            do {
                lock = try ExclusiveLock.tryAcquire(path)
            } catch {
                throw .file(error)
            }
            guard lock != nil else { throw .busy(lockPath: path) }
        }
        defer { lock?.release() }
        do {
            try prepareQueue()
        } catch {
            throw .file(error)
        }
        if total > 0 {
            do {
                configurationFile = try RunConfigurationFile.write(configuration, owner: queue.identity)
            } catch {
                throw .file(error)
            }
            defer { try? FileStore.remove(configurationFile) }
            try drain()
        }

        let interrupted = phase.isSignalStop(besides: environmentalStop)
        try refreshListing(startedWall: startedWall, interrupted: interrupted)
        summary.seconds = Self.monotonicSeconds() - started
        reporter.finish(summary)
        let leftBehind = (try? queue.readyJobs(shard: configuration.shard).ready.count) ?? 0
        return RunOutcome(
            summary: summary, isTemporaryFailure: environmentalStop || (interrupted && leftBehind > 0), workerFailed: workerFailed)
    }

    /// Before the workers: folders, a dead run's configuration files, the requeues, irregular
    /// jobs, the reaper; then counts the jobs to do.
    private func prepareQueue() throws(FileError) {
        try queue.prepare()
        try store.prepare()
        try RunConfigurationFile.sweep(queueRoot: queue.layout.root, identity: queue.identity)
        try requeueIfSettingsChanged()
        try requeueUnpublished()
        for failure in try queue.quarantineIrregularJobs() where configuration.shard.contains(jobNamed: failure.job) {
            summary.failed += 1
            record(job: failure.job, failureClass: failure.failureClass.rawValue, message: failure.message)
        }
        let reaped = try queue.reap(leaseSeconds: configuration.leaseSeconds, stagingDirectories: listing.stagingDirectories)
        if !reaped.returned.isEmpty { reporter.note("recovered \(reaped.returned.count) claim(s) of a run that was killed (no attempt charged)") }
        if !reaped.superseded.isEmpty {
            reporter.note("dropped \(reaped.superseded.count) claim(s) of a run that was killed: a newer version of each is queued")
        }
        for job in reaped.quarantined {
            summary.failed += 1
            record(
                job: job, failureClass: FailureClass.crash.rawValue,
                message: "the run died \(queue.maxInterruptions) times while it was in flight")
        }
        let ready = try queue.readyJobs(shard: configuration.shard)
        total = ready.ready.count + ready.settling
    }

    /// Refreshes the listing after the run; an environmental failure (or one after an
    /// environmental stop) only makes the run temporary.
    private func refreshListing(startedWall: Int64, interrupted: Bool) throws(RunError) {
        do {
            let end = ListingOccasion.RunEnd(
                startedAtNanoseconds: startedWall, shardCount: configuration.shard.count, interrupted: interrupted || environmentalStop,
                knownContent: contentByJob, redrawn: renderedKeys)
            let report = try listing.refresh(after: .runEnded(end))
            if report.refusedToEmpty {
                reporter.note(
                    "the listing was left as it is: no finished job in \(queue.layout.done), but the site lists tracks (tracksnap listing --allow-empty empties it)"
                )
            }
        } catch  where environmentalStop || error.isEnvironmental {
            reporter.note("the listing was not refreshed: \(error)")
            environmentalStop = true
        } catch {
            throw .file(error)
        }
    }

    /// A style or renderer-version change re-renders everything: every done job goes back to new/.
    /// The stamp is written after the moves, so a run killed half-way finishes the job next time.
    private func requeueIfSettingsChanged() throws(FileError) {
        // What the settings are, in words, beside their fingerprint: a listing names what differs.
        try RecordedSettings.recordDescription(of: renderer.settings, in: store)
        try OverviewMap.record(renderer.settings.options.basemap, in: store)
        let stamp = store.fingerprint.hex
        let previous = (try? FileStore.readFile(store.settingsStampPath, maximumBytes: 256)).map { String(decoding: $0, as: UTF8.self) }
        guard previous != stamp else { return }
        let moved = try queue.requeueFinished(where: { _ in true })
        if !moved.isEmpty { reporter.note("render settings changed: \(moved.count) finished job(s) queued again") }
        try FileStore.writeAtomically(Array(stamp.utf8), to: store.settingsStampPath)
    }

    /// Finished jobs whose images or record are gone (a crash between publish and fsync on a
    /// file system that lost them, a hand-deleted file) go back to new/: done always means listed.
    /// So do jobs whose images lack map tiles that failed (they stay published until redrawn).
    private func requeueUnpublished() throws(FileError) {
        let found = try listing.unpublishedJobs()
        let incomplete = Set(found.incomplete.filter { configuration.shard.contains(jobNamed: $0) })
        let lost = Set(found.lost.filter { configuration.shard.contains(jobNamed: $0) })
        guard !incomplete.isEmpty || !lost.isEmpty else { return }
        // A queue from before enqueue made copies holds hard links to archive files: editing
        // such a file in place changed the finished job's bytes, which is no lost image.
        let edited = try queue.finishedJobsLinkedToArchive(lost)
        let moved = try queue.requeueFinished(where: { incomplete.contains($0) || lost.contains($0) })
        let redrawn = moved.count { incomplete.contains($0) }
        let changed = moved.count { edited.contains($0) }
        let gone = moved.count - redrawn - changed
        if redrawn > 0 { reporter.note("\(redrawn) finished job(s) were drawn with missing map tiles: queued again") }
        if changed > 0 {
            reporter.note(
                "\(changed) finished job(s) changed since they were rendered (the queue held a link to the archive file, which was edited): queued again"
            )
        }
        if gone > 0 { reporter.note("\(gone) finished job(s) had lost their images or record: queued again") }
    }

    /// Reports a failed job and keeps it for the summary (the caller counts it).
    func record(job: String, failureClass: String, message: String) {
        summary.failures.append(RunSummary.Failure(job: job, failureClass: failureClass, message: message))
        reporter.failure(job: job, failureClass: failureClass, message: message)
    }

    /// Starts one worker with the run's configuration file.
    func spawn() throws(RunError) {
        do {
            children.append(try ChildProcess(executable: executable, arguments: ["tracksnap", "__worker", configurationFile]))
        } catch {
            throw .spawn(error)
        }
    }

    /// Seconds on the monotonic clock (timeouts and deadlines).
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
