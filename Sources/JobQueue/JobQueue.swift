import FileStore

// The directory job queue, as implemented (after Maildir, nq and ../shared/design/queue-protocol.md).
//
// Promise: exactly-once *visible effects*. Every job ends in exactly one of done/ or failed/;
// none is lost; a duplicate execution changes nothing because outputs are deterministic and
// published under content-derived names by atomic rename (ThumbnailCache).
//
// Layout (all on one file system; a rename never crosses directories of different devices):
//   tmp/      enqueue stages a private read-only copy (0400) here, then renames it into new/
//   new/      ready jobs: `NAME`, `NAME~a<k>` after k attempts that ended in a crash, timeout or
//             render error, or `NAME~a<k>r<n>` once n whole runs died with it in flight
//   running/  claims: `NAME~a<k>~<host>~<pid>~<process start ticks>` (or `…~a<k>r<n>~…`),
//             k = this attempt (1-based); and `.heartbeat~<host>~<pid>~<start>`, one per worker
//   done/     finished jobs (the track bytes stay: they are the history a style change re-renders)
//   failed/   quarantined jobs, each with a JSON sidecar `NAME.error` (class, message, attempts,
//             time, version), written *before* the job is moved there
//   .lock     flock per host (`.lock-shard-<i>-of-<n>` per shard): saves work, never carries correctness
//   .archive-index  enqueue's stat index of the archive files it queued (tab-separated), so an
//             unchanged file is not queued again and `forget` can find a job by its archive path
//   .clock    a file touched to read the file system's idea of now (the reaper's lease clock)
//   tile-cache/  URL basemap tiles cached across runs (the default `--tile-cache`); no job moves
//             through it
//   .run/     a run's configuration (BatchRun.RunConfigurationFile), one 0600 file per supervisor,
//             read by its workers, removed when the run ends (a dead local run's by the next run)
//
// Steps:
//   claim    rename(new/X, running/X~a<k>~host~pid~start). Success is ownership; ENOENT means
//            another worker won, move on. A file in new/ that is still writable and was modified
//            less than `settleSeconds` ago is left alone (a producer may still be writing it).
//   work     each worker touches running/.heartbeat~host~pid~start while it lives (not the claim,
//            a drop-in job may be a producer's file); a job runs at most `jobTimeout` < `lease`.
//   ack      rename(claim, done/X), then remove any older failed/X: a job is in one place.
//   fail     invalid input: sidecar, then rename(claim, failed/X), at once (attempts don't help).
//            render error, crash, timeout: back to new/X~a<k>, or failed/ once k = maxAttempts.
//            environmental (ENOSPC, EDQUOT, EROFS, EIO): back to new/ with k unchanged; the run stops.
//   return   on SIGTERM/SIGINT, unfinished claims go back to new/ with k unchanged.
//   reap     a claim is stale if, on this host, its pid is gone or belongs to a newer process
//            (start time differs), or, from another host, both its worker's heartbeat file and the
//            claim itself are older than the lease by the file system's clock. A stale claim goes
//            back to new/ as a run death: no attempt charged (k unchanged), one more interruption
//            (r<n+1>), and failed/ once n reaches `maxInterruptions` (see Reaper.swift). A claim whose
//            name cannot be read (no pid, a hand-made name) has no owner to check: it is stale
//            once the later of its mtime and ctime is older than the lease.
//   versions one job name = one archive file, which the user may edit. At most one version of a
//            job is live (in new/, running/ or failed/), and the one enqueue copied last from the
//            archive wins, whatever finishes last. So: enqueue supersedes: before and after
//            renaming its copy into new/NAME it removes every other copy of NAME from new/
//            (NAME~a<k>…), running/ (claims, live or dead: their workers' acks then find
//            nothing) and failed/ (with the sidecar), and once the whole call has staged, it
//            removes again from new/ and running/ every copy of those names but its own inode
//            (an older one given back or reaped meanwhile). done/NAME stays listed until the new
//            version replaces it. Nothing else puts an older version in new/ beside a live one:
//            moving done/ back to new/ (settings changed, images lost) skips a job with any live
//            copy, which is newer than done/. So a copy in new/ is newer than any claim of its
//            job: the reaper removes, and does not give back, a stale claim whose job has a copy
//            in new/, and an ack finding any ready copy of NAME removes its claim instead of
//            moving it to done/. A superseded worker reports nothing as published; its images
//            are orphans the next pruning listing removes.
//   requeue  rename(done/X, new/X) when the run's settings changed, a job's images or record are
//            missing, or its images lack map tiles (`requeueFinished(where:)`, one pass over done/
//            with the live names read once), skipped when X has any live copy (see versions).
//   retry    `tracksnap retry`: rename(failed/X, new/X) with attempts and interruptions reset, then
//            remove the sidecar.
//   forget   `tracksnap forget` removes a job from every folder and from the archive index; the
//            next listing drops it from the site (a track deleted from the archive otherwise
//            stays: done/ holds its bytes, the site is a history). An archive file still there
//            keeps a tombstone in the index, so enqueue skips it until it changes.
//   mtimes   enqueue's copy keeps the archive file's mtime (the listing dates a track without
//            times by it), so a claim's own mtime says nothing about its worker: heartbeat files do.
//
// Every step above is a method of JobQueue (this file, Reaper, Forget, ArchiveEnqueuer): no other
// target renames or removes a job file, so this comment is the whole protocol. Callers decide
// which jobs (a run picks the finished jobs to draw again), the queue moves them.
//
// Where this differs from the design note: staging files for outputs live next to their final
// name (`.NAME.tmp~host~pid~rand`, FileStore.TemporaryName) rather than in Output/.tmp, so EXDEV
// cannot happen by construction and no startup check is needed.

/// One queue directory and the operations on it. Cheap to copy; every method is safe to call from
/// many processes at once (all coordination is by rename).
package struct JobQueue: Sendable {
    /// The queue's folders.
    package let layout: QueueLayout
    /// Who claims: this process.
    package let identity: ProcessIdentity
    /// Attempts (crashes, timeouts, render errors) before a job is quarantined. Default: 3.
    package var maxAttempts = 3
    /// Whole-run deaths with a job in flight (claims found by the reaper, whose run never saw
    /// them end) before that job is quarantined as what may be killing the runs. A bystander of a
    /// killed run is not charged an attempt, so this is the only limit on a job that takes the
    /// whole run down every time (say, by exhausting memory until the OOM killer ends the run).
    /// Default: 6: a bystander needs six kills landing while it is in flight, a culprit six runs.
    package var maxInterruptions = 6
    /// A file in new/ modified this recently (and still writable) is not claimed yet. Default: 3 s.
    package var settleSeconds = 3.0
    /// The renderer version written into failure records.
    package var version = ""

    /// A queue rooted at `root` (e.g. "Jobs"), claimed by this process.
    package init(root: String, identity: ProcessIdentity = .current) {
        layout = QueueLayout(root: root)
        self.identity = identity
    }

    /// Whether `root` is a job queue: it has a new/ folder (what enqueue and drop-in producers
    /// create first). A typo or an NFS mount point that is not mounted has none, and must not be
    /// "drained" of nothing, nor have its empty done/ listed over the site.
    package var isQueue: Bool { FileStore.exists(layout.new) }

    /// Creates the folders, private to their owner (0700): the queue holds people's tracks,
    /// unlike the published `Output/`. Existing folders keep their mode.
    package func prepare() throws(FileError) {
        try FileStore.createDirectories(layout.allDirectories, permissions: 0o700)
    }

    /// The jobs in new/ that may be claimed now, and how many more are still settling.
    package func readyJobs(shard: ShardSelection = .all, nowNanoseconds: Int64 = FileStore.nowNanoseconds()) throws(FileError)
        -> (ready: [ReadyJob], settling: Int)
    {
        var ready: [ReadyJob] = []
        var settling = 0
        for name in try FileStore.listDirectory(layout.new) where !JobName.isIgnored(name) {
            let job = JobName.parseReady(name)
            guard shard.contains(jobNamed: job.name) else { continue }
            guard let status = try FileStore.status(layout.new + "/" + name), status.isRegularFile else { continue }
            let ageSeconds = Double(nowNanoseconds - status.modificationNanoseconds) / 1e9
            if status.isWritable && ageSeconds < settleSeconds {
                settling += 1
                continue
            }
            ready.append(job)
        }
        return (ready, settling)
    }

    /// What a claim attempt came to.
    package enum ClaimOutcome: Sendable, Equatable {
        /// The job is ours.
        case claimed(Claim)
        /// Another process claimed it first.
        case lostRace
        /// The job cannot be claimed (its name is too long) and was quarantined.
        case quarantined(FailureRecord)

        /// The claim, when there is one.
        package var claim: Claim? {
            if case .claimed(let claim) = self { return claim }
            return nil
        }
    }

    /// Claims a ready job by renaming it into running/. A name too long to carry the claim
    /// suffix is quarantined here with class `name`.
    package func claim(_ job: ReadyJob) throws(FileError) -> ClaimOutcome {
        let claim = Claim(
            name: job.name, attempt: job.previousAttempts + 1, interruptions: job.interruptions, host: identity.host, pid: identity.pid,
            startTicks: identity.startTicks)
        let source = layout.new + "/" + job.fileName
        guard claim.fileName.utf8.count <= 255 else {
            let limit = 255 - (claim.fileName.utf8.count - job.name.utf8.count)
            let record = FailureRecord(
                job: job.name, failureClass: .name,
                message: "the job name is too long to be claimed (\(job.name.utf8.count) bytes; at most \(limit) on this host)",
                attempts: job.previousAttempts, version: version)
            try quarantine(path: source, name: job.name, failure: record)
            return .quarantined(record)
        }
        guard try FileStore.move(source, to: layout.running + "/" + claim.fileName) else { return .lostRace }
        return .claimed(claim)
    }

    /// The path of a claimed job's bytes.
    package func path(of claim: Claim) -> String { layout.running + "/" + claim.fileName }

    /// Marks a claim finished: moves it to done/ and removes an older quarantine of the same name.
    /// Returns false when the claim was superseded while it ran (enqueue removed it, or a newer
    /// copy of the job waits in new/): nothing lands in done/, and the caller must not report
    /// this version as the job's content.
    @discardableResult
    package func acknowledge(_ claim: Claim) throws(FileError) -> Bool {
        // Any ready copy (NAME, or NAME~a1 given back, NAME~a0r1 reaped) came later than this
        // claim: enqueue removed every older one when it staged the version this claim holds.
        let ready = try FileStore.listDirectory(layout.new)
        // A ready copy's name starts with the job's (`parseReady`): that byte test first, as new/
        // holds the whole run's backlog and each acknowledgement looks through it (parsing every
        // name was 4% of a one-worker run over 2,000 tracks, `perf`).
        let name = claim.name.utf8
        if ready.contains(where: { $0.utf8.starts(with: name) && !JobName.isIgnored($0) && JobName.parseReady($0).name == claim.name }) {
            try FileStore.remove(path(of: claim))
            return false
        }
        guard try FileStore.move(path(of: claim), to: layout.done + "/" + claim.name) else { return false }
        try removeQuarantine(of: claim.name)
        return true
    }

    /// The claims in running/ made by process `pid` on this host (a worker that exited: what it
    /// still held goes back).
    package func claims(heldByProcess pid: Int32) throws(FileError) -> [Claim] {
        try FileStore.listDirectory(layout.running).compactMap(Claim.init(fileName:)).filter { $0.host == identity.host && $0.pid == pid }
    }

    /// Whether a claim still exists (a superseded one was removed by enqueue or `forget`).
    package func isHeld(_ claim: Claim) -> Bool { FileStore.exists(path(of: claim)) }

    /// Removes every copy of job `name` except the file whose inode is `keepingInode`: the ready
    /// files among `readyFileNames` (names in new/), its claims in running/ (live or dead), its
    /// quarantine in failed/ with the sidecar and, with `includingDone`, done/`name`. Returns
    /// how many files were removed. Used when a newer version is queued, and by `forget`.
    @discardableResult
    package func removeCopies(of name: String, readyFileNames: [String], keepingInode: UInt64?, includingDone: Bool = false) throws(FileError) -> Int
    {
        var removed = 0
        func removeUnlessKept(_ path: String) throws(FileError) -> Bool {
            guard let status = try FileStore.status(path) else { return false }
            if let keepingInode, status.inode == keepingInode { return false }
            try FileStore.remove(path)
            removed += 1
            return true
        }
        for fileName in readyFileNames where JobName.parseReady(fileName).name == name {
            _ = try removeUnlessKept(layout.new + "/" + fileName)
        }
        for fileName in try FileStore.listDirectory(layout.running) where !fileName.hasPrefix(".") {
            guard Claim(fileName: fileName)?.name == name else { continue }
            _ = try removeUnlessKept(layout.running + "/" + fileName)
        }
        if try removeUnlessKept(layout.failed + "/" + name) {
            try FileStore.remove(layout.failed + "/" + JobName.sidecarName(for: name))
        }
        if includingDone { _ = try removeUnlessKept(layout.done + "/" + name) }
        return removed
    }

    /// Quarantines a claim at once (invalid input, or the last attempt): sidecar first, then the job.
    package func quarantine(_ claim: Claim, failureClass: FailureClass, message: String) throws(FileError) {
        let record = FailureRecord(job: claim.name, failureClass: failureClass, message: message, attempts: claim.attempt, version: version)
        try quarantine(path: path(of: claim), name: claim.name, failure: record)
    }

    /// Gives a claim back to new/. `countsAsAttempt` is true after a crash, timeout or render error
    /// (the job then carries k attempts; at `maxAttempts` it is quarantined instead with `failureClass`).
    package func giveBack(_ claim: Claim, countsAsAttempt: Bool, failureClass: FailureClass = .crash, message: String = "")
        throws(FileError)
    {
        if countsAsAttempt && claim.attempt >= maxAttempts {
            let reason = message.isEmpty ? failureClass.defaultMessage : message
            try quarantine(claim, failureClass: failureClass, message: "\(reason) (\(claim.attempt) attempts)")
            return
        }
        let attempts = countsAsAttempt ? claim.attempt : claim.attempt - 1
        try FileStore.move(
            path(of: claim), to: layout.new + "/" + JobName.readyFileName(claim.name, previousAttempts: attempts, interruptions: claim.interruptions))
    }

    /// Gives back a claim whose whole run died with it in flight (found by the reaper): no attempt
    /// is charged, one more interruption is counted, and at `maxInterruptions` the job is
    /// quarantined. Returns whether it was quarantined.
    @discardableResult
    package func returnAfterRunDied(_ claim: Claim, message: String) throws(FileError) -> Bool {
        try returnAfterRunDied(claim, path: path(of: claim), message: message)
    }

    /// `returnAfterRunDied` for the claim file at `path` (a claim whose name did not parse).
    func returnAfterRunDied(_ claim: Claim, path: String, message: String) throws(FileError) -> Bool {
        let interruptions = claim.interruptions + 1
        if interruptions >= maxInterruptions {
            let record = FailureRecord(
                job: claim.name, failureClass: .crash,
                message: "\(message); the run died \(interruptions) times while this job was in flight, so the job may be what kills it",
                attempts: claim.attempt - 1, version: version)
            try quarantine(path: path, name: claim.name, failure: record)
            return true
        }
        try FileStore.move(
            path,
            to: layout.new + "/" + JobName.readyFileName(claim.name, previousAttempts: claim.attempt - 1, interruptions: interruptions))
        return false
    }

    /// Quarantines whatever in new/ is not a regular file (a folder, FIFO, socket or symbolic link
    /// dropped in by hand or by a producer): no worker can claim it, so it would stay "queued"
    /// for ever. Returns the records written. A dot-name or partial upload is left alone.
    package func quarantineIrregularJobs() throws(FileError) -> [FailureRecord] {
        var records: [FailureRecord] = []
        for name in try FileStore.listDirectory(layout.new) where !JobName.isIgnored(name) {
            let path = layout.new + "/" + name
            guard let status = try FileStore.status(path), !status.isRegularFile else { continue }
            let job = JobName.parseReady(name)
            let record = FailureRecord(
                job: job.name, failureClass: .invalidInput,
                message: "not a regular file (\(status.kindDescription)): only track files can be jobs", attempts: 0, version: version)
            try quarantine(path: path, name: job.name, failure: record)
            records.append(record)
        }
        return records
    }

    /// Moves quarantined jobs back to new/ with their attempts and interruptions reset and their
    /// failure records removed (`tracksnap retry`). `names` nil: every job in failed/. Returns the
    /// names moved; a name that is not a quarantined job (see `isQuarantinedJob`) is skipped.
    package func retry(_ names: [String]?) throws(FileError) -> [String] {
        var candidates = names ?? []
        if names == nil {
            candidates = try FileStore.listDirectory(layout.failed).filter { !$0.hasSuffix(".error") && !JobName.isIgnored($0) }
        }
        var moved: [String] = []
        for name in candidates {
            let job = layout.failed + "/" + name
            guard isQuarantinedJob(name) else { continue }
            guard try FileStore.move(job, to: layout.new + "/" + name) else { continue }
            try FileStore.remove(layout.failed + "/" + JobName.sidecarName(for: name))
            moved.append(name)
        }
        return moved
    }

    /// Whether `name` is a job in failed/: a valid job name (`JobName.isValid`: not "" or "." or
    /// "..", no "/"; "" would make failed/ itself the job), a regular file there, and not the
    /// sidecar of another quarantined job.
    package func isQuarantinedJob(_ name: String) -> Bool {
        guard JobName.isValid(name), let status = (try? FileStore.status(layout.failed + "/" + name)) ?? nil, status.isRegularFile else {
            return false
        }
        if name.hasSuffix(".error"), FileStore.exists(layout.failed + "/" + String(name.dropLast(".error".count))) { return false }
        return true
    }

    private func quarantine(path: String, name: String, failure: FailureRecord) throws(FileError) {
        // A claim superseded while it ran is gone: its record must not land beside a newer version.
        guard FileStore.exists(path) else { return }
        try FileStore.writeAtomically(failure.jsonBytes(), to: layout.failed + "/" + JobName.sidecarName(for: name))
        guard try FileStore.move(path, to: layout.failed + "/" + name) else { return }
        // A job is in exactly one place: an older success of the same name is superseded.
        try FileStore.remove(layout.done + "/" + name)
    }

    private func removeQuarantine(of name: String) throws(FileError) {
        let job = layout.failed + "/" + name
        guard FileStore.exists(job) else { return }
        try FileStore.remove(layout.failed + "/" + JobName.sidecarName(for: name))
        try FileStore.remove(job)
    }
}

/// The folders of a queue.
package struct QueueLayout: Sendable, Equatable {
    /// The queue's root folder.
    package let root: String
    /// Staging for enqueue.
    package var tmp: String { root + "/tmp" }
    /// Ready jobs.
    package var new: String { root + "/new" }
    /// Claimed jobs.
    package var running: String { root + "/running" }
    /// Finished jobs.
    package var done: String { root + "/done" }
    /// Quarantined jobs and their sidecars.
    package var failed: String { root + "/failed" }
    /// The per-host run lock for a shard (nil: unsharded).
    package func lockPath(shard: ShardSelection) -> String {
        shard.count == 1 ? root + "/.lock" : root + "/.lock-shard-\(shard.index)-of-\(shard.count)"
    }
    /// Prefix of heartbeat files in running/ (dot-prefixed: never mistaken for a claim).
    package static let heartbeatPrefix = ".heartbeat~"
    /// The heartbeat file of a worker process: `running/.heartbeat~host~pid~start`, touched while
    /// it works. Claims are not touched themselves: an enqueued job may be a hard link to the
    /// user's archive file, whose mtime must not change.
    package func heartbeatPath(of owner: ProcessIdentity) -> String {
        running + "/" + Self.heartbeatPrefix + owner.fileNameSuffix
    }
    /// Enqueue's stat index of archive files.
    package var archiveIndex: String { root + "/.archive-index" }
    /// Every folder, for `prepare`.
    package var allDirectories: [String] { [tmp, new, running, done, failed] }

    /// A layout rooted at `root`.
    package init(root: String) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }
}
