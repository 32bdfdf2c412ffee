#if canImport(Glibc)
import Glibc
#endif
import ContentHash
import FileStore
import HistoryListing
import JobQueue
import ThumbnailCache

/// Why a run could not start or had to stop; the CLI maps each to an exit code.
public enum RunError: Error, Sendable {
    /// Another run holds the lock for this queue and shard (exit 75).
    case busy(lockPath: String)
    /// A file-system call failed outside any job.
    case file(FileError)
    /// A worker could not be started.
    case spawn(SpawnError)
}

/// How a run ended.
public struct RunOutcome: Sendable {
    /// What was done.
    public var summary: RunSummary
    /// Whether a temporary condition (disk full, a stop signal with jobs left) cut it short:
    /// the engine or cron should run it again later (exit 75).
    public var isTemporaryFailure: Bool
    /// Set when a worker gave up for a reason that is neither a crash nor temporary (it printed
    /// why): the run did not finish its queue and should exit 1.
    public var workerFailed: Bool
}

/// `tracksnap run`: takes the lock, re-queues everything when the settings changed, reaps stale
/// claims, drains the queue with a pool of worker processes, then refreshes the listing.
///
/// Workers are processes, not threads: a track that crashes the renderer takes down one worker,
/// not the run (its claim is given back with one more attempt, and quarantined at the limit);
/// a per-job timeout can kill a stuck worker; memory is bounded per worker. The supervisor is a
/// single-threaded poll loop over the workers' pipes and a signal self-pipe.
public final class Supervisor {
    private let configuration: RunConfiguration
    private let queue: JobQueue
    private let renderer: ThumbnailRenderer
    private var store: ThumbnailStore { renderer.store }
    private let listing: ListingBuilder
    private let reporter: ProgressReporter
    private let executable: String
    private var children: [ChildProcess] = []
    private var summary = RunSummary()
    private var total = 0
    private var contentByJob: [String: SHA256Digest] = [:]
    /// Keys drawn by this run: an incomplete image drawn again keeps its key, and the listing
    /// must read its new record.
    private var renderedKeys: Set<String> = []
    private var stopping = false
    private var aborting = false
    private var environmentalStop = false
    private var workerFailed = false
    /// Workers in a row that died by a signal before claiming a job (see `finish`).
    private var deathsBeforeAnyClaim = 0
    private var stopDeadline = 0.0
    /// The signal self-pipe's read end (installed as `run` starts).
    private var signals: Int32 = -1
    private let started = monotonicSeconds()
    /// The configuration file the workers are started with (written as the run starts).
    private var configurationFile = ""

    /// A supervisor for `configuration`, spawning `executable` (this program) as workers.
    /// The basemap's content stamp is taken now, and the workers key images with this one.
    public init(configuration: RunConfiguration, progress: ProgressMode, executable: String) {
        let configuration = configuration.stampingBasemap()
        self.configuration = configuration
        queue = configuration.makeQueue()
        renderer = configuration.makeRenderer()
        listing = configuration.makeListing()
        reporter = ProgressReporter(mode: progress)
        self.executable = executable
    }

    /// Runs to completion.
    public func run() throws(RunError) -> RunOutcome {
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

        let interrupted = aborting || (stopping && !environmentalStop)
        do {
            // Pruning only when this run sees the whole queue: other shards may be publishing.
            let prunes = configuration.shard.count == 1 && !interrupted && !environmentalStop
            let report = try listing.refresh(knownContent: contentByJob, prunesBefore: prunes ? startedWall : nil, redrawn: renderedKeys)
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
        summary.seconds = Self.monotonicSeconds() - started
        reporter.finish(summary)
        let leftBehind = (try? queue.readyJobs(shard: configuration.shard).ready.count) ?? 0
        return RunOutcome(
            summary: summary, isTemporaryFailure: environmentalStop || (interrupted && leftBehind > 0), workerFailed: workerFailed)
    }

    /// A style or renderer-version change re-renders everything: every done job goes back to new/.
    /// The stamp is written after the moves, so a run killed half-way finishes the job next time.
    private func requeueIfSettingsChanged() throws(FileError) {
        // What the settings are, in words, beside their fingerprint: a listing names what differs.
        try RecordedSettings.recordDescription(of: renderer.settings, in: store)
        let stamp = store.fingerprint.hex
        let previous = (try? FileStore.readFile(store.settingsStampPath, maximumBytes: 256)).map { String(decoding: $0, as: UTF8.self) }
        guard previous != stamp else { return }
        var moved = 0
        let live = try queue.liveJobNames()
        for job in try FileStore.listDirectory(queue.layout.done) where !job.hasPrefix(".") {
            if try queue.requeueFinished(job, liveJobNames: live) { moved += 1 }
        }
        if moved > 0 { reporter.note("render settings changed: \(moved) finished job(s) queued again") }
        try FileStore.writeAtomically(Array(stamp.utf8), to: store.settingsStampPath)
    }

    /// Finished jobs whose images or record are gone (a crash between publish and fsync on a
    /// file system that lost them, a hand-deleted file) go back to new/: done always means listed.
    /// So do jobs whose images lack map tiles that failed (they stay published until redrawn).
    private func requeueUnpublished() throws(FileError) {
        let found = try listing.unpublishedJobs()
        var incomplete = 0
        let live = try queue.liveJobNames()
        for job in found.incomplete where configuration.shard.contains(jobNamed: job) {
            if try queue.requeueFinished(job, liveJobNames: live) { incomplete += 1 }
        }
        if incomplete > 0 { reporter.note("\(incomplete) finished job(s) were drawn with missing map tiles: queued again") }
        let jobs = found.lost.filter { configuration.shard.contains(jobNamed: $0) }
        guard !jobs.isEmpty else { return }
        // A queue from before enqueue made copies holds hard links to archive files: editing
        // such a file in place changed the finished job's bytes, which is no lost image.
        var archiveInodes: [String: UInt64] = [:]
        for entry in ArchiveIndex.load(queue.layout.archiveIndex).entries.values { archiveInodes[entry.jobName] = entry.inode }
        var lost = 0
        var changed = 0
        for job in jobs {
            let path = queue.layout.done + "/" + job
            let inode = try FileStore.status(path)?.inode
            let isArchiveFile = inode != nil && inode == archiveInodes[job]
            guard try queue.requeueFinished(job, liveJobNames: live) else { continue }
            if isArchiveFile { changed += 1 } else { lost += 1 }
        }
        if changed > 0 {
            reporter.note(
                "\(changed) finished job(s) changed since they were rendered (the queue held a link to the archive file, which was edited): queued again"
            )
        }
        if lost > 0 { reporter.note("\(lost) finished job(s) had lost their images or record: queued again") }
    }

    private func drain() throws(RunError) {
        // A signal that came while the run prepared: stop before starting any worker.
        handle(signals: SignalTrap.drain(signals))
        if !stopping {
            for _ in 0..<max(1, min(configuration.workers, total)) { try spawn() }
        }
        while !children.isEmpty {
            var descriptors = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            descriptors += children.map { pollfd(fd: $0.outputDescriptor, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 200)
            if descriptors[0].revents != 0 { handle(signals: SignalTrap.drain(signals)) }
            var exited: [ChildProcess] = []
            for (child, descriptor) in zip(children, descriptors.dropFirst()) where descriptor.revents != 0 {
                let (messages, ended) = child.readMessages()
                messages.forEach { handle($0, from: child) }
                if ended { exited.append(child) }
            }
            for child in exited {
                children.removeAll { $0 === child }
                try finish(child, waitStatus: child.wait())
            }
            enforceDeadlines()
            reporter.update(summary, total: total, elapsed: Self.monotonicSeconds() - started)
        }
        reporter.update(summary, total: total, elapsed: Self.monotonicSeconds() - started, force: true)
    }

    private func spawn() throws(RunError) {
        do {
            children.append(try ChildProcess(executable: executable, arguments: ["tracksnap", "__worker", configurationFile]))
        } catch {
            throw .spawn(error)
        }
    }

    private func handle(signals: [Int32]) {
        for _ in signals {
            if !stopping {
                stopping = true
                stopDeadline = Self.monotonicSeconds() + configuration.stopDeadlineSeconds
                summary.stoppedBecause = "interrupted by a signal"
                reporter.note("stopping: finishing the jobs in flight (up to \(Int(configuration.stopDeadlineSeconds)) s; signal again to abort)")
                children.forEach { $0.requestStop() }
            } else if !aborting {
                aborting = true
                reporter.note("aborting: returning the jobs in flight to the queue")
                children.forEach { kill($0.pid, SIGKILL) }
            }
        }
    }

    private func handle(_ message: WorkerMessage, from child: ChildProcess) {
        switch message {
        case let .claimed(job, _):
            summary.claimed += 1
            child.claimedAny = true
            deathsBeforeAnyClaim = 0
            child.currentJob = job
            child.currentJobStart = Self.monotonicSeconds()
        case let .finished(job, rendered, contentHex):
            if rendered { summary.rendered += 1 } else { summary.cached += 1 }
            contentByJob[job] = SHA256Digest(hex: contentHex)
            if rendered, let content = SHA256Digest(hex: contentHex) { renderedKeys.insert(store.key(content: content).hex) }
            child.jobEnded(job)
        case let .incomplete(_, tilesFailed, cause):
            summary.noteIncomplete(cause: cause, tilesFailed: tilesFailed)
        case let .quarantined(job, failureClass, message):
            summary.failed += 1
            record(job: job, failureClass: failureClass, message: message)
            child.jobEnded(job)
        case let .returned(job, message):
            summary.returned += 1
            if !environmentalStop { reporter.note("\(job): returned to the queue: \(message)") }
            child.jobEnded(job)
        case let .superseded(job):
            // Not this run's content for the job: a newer copy in new/, if any, is rendered.
            contentByJob[job] = nil
            reporter.note(
                "\(job): its claim was removed while it rendered (a newer version was queued, or it was forgotten): not published as the track")
            child.jobEnded(job)
        case let .stop(message, temporary):
            if temporary && !environmentalStop {
                environmentalStop = true
                summary.stoppedBecause = message
                reporter.note("stopping: \(message)")
            } else if !temporary {
                reporter.failure(job: "worker", failureClass: "error", message: message)
            }
            children.forEach { $0.requestStop() }
        case .outOfMemory:
            child.ranOutOfMemory = true
        }
    }

    private func record(job: String, failureClass: String, message: String) {
        summary.failures.append(RunSummary.Failure(job: job, failureClass: failureClass, message: message))
        reporter.failure(job: job, failureClass: failureClass, message: message)
    }

    /// A worker exited: whatever it still held goes back to new/ (as an attempt when it crashed
    /// or timed out, unchanged when the supervisor stopped it), and a replacement starts.
    private func finish(_ child: ChildProcess, waitStatus: Int32) throws(RunError) {
        let signaled = waitStatus & 0x7F != 0 && waitStatus & 0x7F != 0x7F
        let exitCode = (waitStatus >> 8) & 0xFF
        let deliberate = aborting || (stopping && Self.monotonicSeconds() >= stopDeadline)
        // A SIGKILL this supervisor did not send may be the whole run being killed (kill -9 of the
        // process group, the OOM killer, a node being drained): give it a moment to reach this
        // process too, so that the claims are left to the next run's reaper, which does not
        // blame the jobs, instead of being charged here as crashes.
        if signaled && waitStatus & 0x7F == SIGKILL && !child.killedForTimeout && !deliberate {
            usleep(250_000)
        }
        do {
            let held = try FileStore.listDirectory(queue.layout.running).compactMap(Claim.init(fileName:)).filter {
                $0.host == queue.identity.host && $0.pid == child.pid
            }
            // A worker publishes one job while it renders the next, so it may die holding two
            // claims. The attempt goes to the job it was rendering (its last `claimed` message);
            // the one being published only goes back, or an innocent job that keeps landing
            // beside a poisonous one would be quarantined with it. With no job being rendered the
            // death happened while publishing, and every claim it held counts, so a death that
            // repeats there still ends in quarantine rather than a loop.
            let culprit = child.currentJob.flatMap { current in held.contains { $0.name == current } ? current : nil }
            for claim in held {
                if deliberate || (culprit != nil && claim.name != culprit) {
                    try queue.giveBack(claim, countsAsAttempt: false)
                    summary.returned += 1
                    continue
                }
                if child.ranOutOfMemory, claim.name == culprit {
                    // Deterministic: the same track would exhaust the next worker the same way.
                    let message =
                        "the worker ran out of memory at its \(configuration.workerMemoryFenceBytes >> 20) MiB fence (twice --memory-limit \(configuration.memoryLimitBytes >> 20)) on this track; raise --memory-limit to render it"
                    try queue.quarantine(claim, failureClass: .limit, message: message)
                    summary.failed += 1
                    record(job: claim.name, failureClass: FailureClass.limit.rawValue, message: message)
                    continue
                }
                let failureClass: FailureClass = child.killedForTimeout ? .timeout : .crash
                let message =
                    child.killedForTimeout
                    ? "ran past the \(Int(configuration.jobTimeoutSeconds)) s job timeout"
                    : signaled
                        ? "the worker crashed on this job (signal \(waitStatus & 0x7F))"
                        : "the worker exited with status \(exitCode) on this job"
                try queue.giveBack(claim, countsAsAttempt: true, failureClass: failureClass, message: message)
                if claim.attempt >= queue.maxAttempts {
                    summary.failed += 1
                    record(job: claim.name, failureClass: failureClass.rawValue, message: "\(message) (\(claim.attempt) attempts)")
                } else {
                    summary.returned += 1
                    reporter.note("\(claim.name): \(message); retrying (attempt \(claim.attempt) of \(queue.maxAttempts))")
                }
            }
        } catch {
            throw .file(error)
        }
        if exitCode == 75 && !signaled { environmentalStop = true }
        // A crash or a timeout kill gets a replacement worker; a worker that exited with an error
        // of its own (it said why) would only fail again, so the run stops instead.
        if !signaled && exitCode != 0 && exitCode != 75 && !workerFailed {
            workerFailed = true
            summary.stoppedBecause = "a worker failed (exit status \(exitCode))"
            children.forEach { $0.requestStop() }
        }
        // A worker that dies before its first claim was not killed by a track; replacing it
        // forever would be a crash loop (each death printing a backtrace into cron mail).
        if signaled && !child.claimedAny && !deliberate {
            deathsBeforeAnyClaim += 1
            if deathsBeforeAnyClaim >= 3 && !workerFailed {
                workerFailed = true
                summary.stoppedBecause = "\(deathsBeforeAnyClaim) workers in a row died (signal \(waitStatus & 0x7F)) before claiming a job"
                children.forEach { $0.requestStop() }
            }
        }
        if signaled && !stopping && !environmentalStop && !workerFailed { try spawn() }
    }

    private func enforceDeadlines() {
        let now = Self.monotonicSeconds()
        for child in children {
            if child.currentJob != nil, !child.killedForTimeout, now - child.currentJobStart > configuration.jobTimeoutSeconds {
                child.killedForTimeout = true
                kill(child.pid, SIGKILL)
            }
            if stopping, !aborting, now >= stopDeadline { kill(child.pid, SIGKILL) }
        }
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
