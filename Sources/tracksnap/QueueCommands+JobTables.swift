import JobQueue

/// `tracksnap enqueue`.
struct EnqueueRequest {
    /// The files and folders to queue.
    var paths: [String] = []
    /// `--jobs`: the queue.
    var jobsDirectory = "Jobs"
    /// `--quiet`: no summary line.
    var quiet = false
    /// `--mirror`: forget the jobs of archive files that are gone.
    var mirror = false
    /// `--settle`: seconds between the two looks at a freshly modified file. Default: 1
    /// (`ArchiveEnqueuer.defaultSettleSeconds`, which says why).
    var settleSeconds = ArchiveEnqueuer.defaultSettleSeconds
}

/// `tracksnap status`.
struct StatusRequest {
    /// `--jobs`: the queue.
    var jobsDirectory = "Jobs"
    /// `--json`: one JSON object instead of lines.
    var json = false
}

/// `tracksnap retry`.
struct RetryRequest {
    /// Job names (as `status` prints them); empty with `all`.
    var jobs: [String] = []
    /// `--all`: every quarantined job.
    var all = false
    /// `--jobs`: the queue.
    var jobsDirectory = "Jobs"
}

/// `tracksnap forget`.
struct ForgetRequest {
    /// Job names (as `status` prints them) or archive file paths.
    var jobs: [String] = []
    /// `--jobs`: the queue.
    var jobsDirectory = "Jobs"
}

/// The declarations of the commands that move or read jobs: `enqueue`, `status`, `retry`, `forget`.
extension QueueCommands {
    /// `enqueue`'s declaration.
    static var enqueueTable: CommandTable<EnqueueRequest> {
        CommandTable(
            name: "enqueue", summary: "Queue every track file under the given files or folders (never changes them).", forms: ["PATH..."],
            operands: .list(into: \.paths, missing: "enqueue needs at least one file or folder"),
            options: [
                .text("--jobs", value: "DIR", help: "the queue folder", into: \.jobsDirectory),
                .flag("-q", "--quiet", help: "no summary line", sets: \.quiet),
                .flag(
                    "--mirror",
                    help: """
                        also forget the tracks of files under PATH that were deleted since they were queued (the next run or listing \
                        takes them off the site); in a folder that is missing or whose every queued file is gone (not mounted?), \
                        nothing is forgotten (exit 1)
                        """,
                    sets: \.mirror),
                .number(
                    "--settle", value: "S", in: 0...60, unit: "seconds",
                    help: """
                        look twice, S seconds apart, at a file to be queued that was modified less than S seconds ago, and queue it \
                        only if it did not change between the looks (the default suffices: a producer still writing moves the file within a \
                        second; 0 for producers that rename finished files into place, such as rsync)
                        """,
                    into: \.settleSeconds),
            ],
            description: """
                Queues every track file (.gpx .tcx .fit .kml .kmz .geojson .json .csv, optionally .gz)
                under the given files and folders, recursively (dot-files and the queue itself are
                skipped). Each becomes a job in DIR/new: a private read-only copy (0400; the queue's folders
                are 0700). A file to be queued that was modified less than --settle seconds ago is looked
                at again that long after (once more if it moved), and left for the next enqueue if it is
                still changing.
                Your files are never moved, modified or deleted. A file unchanged (size, mtime, inode)
                since it was last queued is not queued again, so a nightly enqueue is cheap. A changed
                file replaces its older version wherever that is in the queue (waiting, being rendered,
                quarantined): only the newest version is rendered and listed. The copy keeps the file's
                mtime, which dates a track that records no times. A deleted file's track stays on the
                site (the default: the site is a history, and a folder on an unmounted disk must not
                empty it) until 'tracksnap forget' or --mirror removes it.
                """,
            defaults: EnqueueRequest(), finish: { request, _ in .enqueue(request) })
    }

    /// `status`'s declaration.
    static var statusTable: CommandTable<StatusRequest> {
        CommandTable(
            name: "status", summary: "Counts of queued, running, done and failed jobs, and why each failure failed.", operands: .none(),
            options: [
                .text("--jobs", value: "DIR", help: "the queue folder", into: \.jobsDirectory),
                .flag(
                    "--json", help: #"print {"queued": n, "running": n, "done": n, "failed": [{"job", "class", "message", "attempts"}]}"#,
                    sets: \.json),
            ],
            description: """
                Counts of queued, running, done and failed jobs, and every failure with its class
                (invalid-input, crash, timeout, render, name), message and attempts.
                """,
            defaults: StatusRequest(), finish: { request, _ in .status(request) })
    }

    /// `retry`'s declaration.
    static var retryTable: CommandTable<RetryRequest> {
        CommandTable(
            name: "retry", summary: "Put quarantined jobs back in the queue with their attempts reset.", forms: ["JOB...", "--all"],
            operands: .list(into: \.jobs, missing: nil),
            options: [
                .text("--jobs", value: "DIR", help: "the queue folder", into: \.jobsDirectory),
                CommandOption.flag("--all", help: "every quarantined job", sets: \.all).withRole(.inForms),
            ],
            description: """
                Moves the named jobs (as 'tracksnap status' lists them), or every job, from DIR/failed back
                to DIR/new with their attempts and run deaths reset, and removes their failure records.
                The next 'tracksnap run' renders them. For after a fix (a new TrackSnap, a repaired
                file, more memory): a job is quarantined after 3 attempts that crashed or timed out, or
                after 6 runs that died with it in flight (--attempts, --run-deaths on 'run').
                """,
            notes: "Exit status 2 when a named job is not in DIR/failed (the others are still moved).",
            defaults: RetryRequest(),
            finish: { request, _ in
                guard request.all != !request.jobs.isEmpty else {
                    throw UsageError(message: request.all ? "retry takes job names or --all, not both" : "retry needs job names or --all")
                }
                return .retry(request)
            })
    }

    /// `forget`'s declaration.
    static var forgetTable: CommandTable<ForgetRequest> {
        CommandTable(
            name: "forget", summary: "Take tracks off the queue and, at the next run or listing, off the site.", forms: ["JOB|PATH..."],
            operands: .list(into: \.jobs, missing: "forget needs job names or archive file paths"),
            options: [.text("--jobs", value: "DIR", help: "the queue folder", into: \.jobsDirectory)],
            description: """
                Removes each job (a name as 'tracksnap status' lists it, or the path of its archive
                file, which may be deleted already) from DIR/new, DIR/running, DIR/done and DIR/failed
                and from the archive index. The next 'tracksnap run' or 'tracksnap listing' drops the
                track from the site and removes its images and detail page. An archive file that is
                still there is not queued again by 'tracksnap enqueue' until it changes (then it is a
                new version). Once no finished job is left, run and listing keep the site as it is
                (an empty queue looks like an unmounted one): 'tracksnap listing --allow-empty'
                empties it.

                A track deleted from the archive is not forgotten by itself: it stays on the site (the
                queue keeps a copy of its bytes), because the site is a history and an archive folder
                that is missing (moved, on an unmounted disk) must not empty it. Forget a track to take
                it off, e.g. a private one.
                """,
            notes: """
                Exit status 2 when an argument names no job and no archive file the queue knows (the
                others are still forgotten).
                """,
            defaults: ForgetRequest(), finish: { request, _ in .forget(request) })
    }
}
