import BatchRun
import JobQueue

/// `tracksnap run`.
struct RunRequest {
    /// What the supervisor and its workers run with.
    var configuration = RunConfiguration()
    /// `--quiet`: nothing unless a job failed.
    var quiet = false
    /// `--json`: one JSON summary.
    var json = false
}

/// What `run`'s options fill in before they are checked together.
struct RunArguments {
    /// The request, with the options that go straight into it.
    var request = RunRequest()
    /// `--style`, `--theme`, `--color-by`: resolved over the configuration's settings in `finishRun`.
    var style = StyleChoice()
    /// The basemap options: resolved over the style's basemap in `finishRun`.
    var basemap = BasemapChoice()
    /// `--shard auto`: the index comes from the environment.
    var automaticShard = false
    /// `--shards N`, for `--shard auto`.
    var shardsForAuto: Int?
}

/// What `listing`'s options fill in before they are checked together.
struct ListingArguments {
    /// The configuration, with the options that go straight into it.
    var configuration = RunConfiguration()
    /// `--style`, `--theme`, `--color-by`.
    var style = StyleChoice()
    /// The basemap options.
    var basemap = BasemapChoice()
}

extension QueueCommands {
    /// `run`'s declaration: its options, their help, and where each value goes.
    static var runTable: CommandTable<RunArguments> {
        CommandTable(
            name: "run",
            summary: """
                Render the queue with a pool of worker processes into OUTPUT/thumbs and refresh OUTPUT/index.html and \
                OUTPUT/index.json. Unchanged tracks are cache hits.
                """,
            operands: .none(hint: " (queue files with 'tracksnap enqueue')"),
            options: runOptions,
            description: """
                Drains the queue with a pool of worker processes, then refreshes the site in OUTPUT:
                index.html (and page-2.html, ...), tracks/<id>.html, site.css and index.json. Each
                track's images are named by its cache key (SHA-256 of its bytes,
                the render settings and the renderer version) and published atomically, so a rerun over
                unchanged tracks renders nothing and a static server never sees a partial file. Jobs end
                in DIR/done or, with a reason, in DIR/failed ('tracksnap status'). Files written straight
                into DIR/new are picked up once they have not changed for --settle seconds.
                """,
            notes: """
                On a terminal a progress bar shows done/total, tracks/s, ETA and failures; otherwise one
                line per failure and a summary. Exit status 0 when every job is done or quarantined, 75
                when another run holds the lock, the disk is full, or a signal stopped the run early.
                """,
            defaults: RunArguments(), finish: finishRun)
    }

    /// `run`'s options in the order the usage and the help show them.
    private static var runOptions: [CommandOption<RunArguments>] {
        let configuration: WritableKeyPath<RunArguments, RunConfiguration> = \.request.configuration
        var options = folderOptions.map { $0.lifted(configuration) }
        options += [
            .integer(
                "--workers", value: "N", in: 1...256, help: "worker processes", default: "the number of cores",
                into: \.request.configuration.workers),
            .custom(
                "--shard", value: "i/N|auto",
                help: """
                    take only shard i of N (0-based; by a stable hash of the job name). 'auto' (with --shards N) takes the index \
                    from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array), and is refused when \
                    it is missing or out of range
                    """,
                default: { _ in "every job" }, parse: parseShard),
            .integer("--shards", value: "N", atLeast: 1, help: "the number of shards, for --shard auto", into: \.shardsForAuto),
            .flag("-q", "--quiet", help: "print nothing unless a job failed (for cron)", sets: \.request.quiet),
            .flag("--json", help: #"print {"claimed","rendered","cached","failed","returned","seconds",...}"#, sets: \.request.json),
        ]
        options += tuningOptions.map { $0.lifted(configuration) }
        options.append(
            .flag(
                "--no-lock", help: "do not take the per-host lock (safe: it only avoids duplicate work)",
                sets: \.request.configuration.usesLock, to: false))
        options += listingOptions.map { $0.lifted(configuration) }
        options += StyleChoice.options.map { $0.lifted(\.style) }
        options += BasemapChoice.sourceOptions.map { $0.lifted(\.basemap) }
        let queueCache = "DIR/tile-cache in the queue folder; shared by every worker, at most 2 requests in flight"
        options += BasemapChoice.fetchOptions(tileCacheDefault: queueCache).map { $0.lifted(\.basemap) }
        return options
    }

    /// `--shard i/N` or `--shard auto` (resolved in `finishRun`, with `--shards`).
    private static func parseShard(_ arguments: inout RunArguments, text: String, spelling: String) throws {
        guard text != "auto" else { return arguments.automaticShard = true }
        guard let shard = ShardSelection(parsing: text) else {
            throw UsageError(message: "\(spelling) expects i/N with 0 <= i < N (e.g. 0/4) or 'auto', found '\(text)'")
        }
        arguments.request.configuration.shard = shard
    }

    /// `--jobs` and `--output`, for `run` and `listing`.
    static var folderOptions: [CommandOption<RunConfiguration>] {
        [
            .text("--jobs", value: "DIR", help: "the queue folder", into: \.jobsDirectory),
            .text("--output", value: "DIR", help: "the published folder", into: \.outputDirectory),
        ]
    }

    /// How `run` works through the queue (`listing` accepts them too, hidden: they change nothing there).
    static var tuningOptions: [CommandOption<RunConfiguration>] {
        [
            .number(
                "--settle", value: "S", in: 0...3600, unit: "seconds", help: "wait until a dropped-in file is S seconds old",
                into: \.settleSeconds),
            .number(
                "--job-timeout", value: "S", in: 1...86400, unit: "seconds", help: "kill and retry a job running longer",
                into: \.jobTimeoutSeconds),
            .integer(
                "--attempts", value: "K", in: 1...100,
                help: "quarantine a job after K crashes or timeouts: a worker that dies while this run's supervisor lives costs its job an attempt",
                into: \.maxAttempts),
            .integer(
                "--run-deaths", value: "N", in: 1...1000,
                help: """
                    quarantine a job after N runs died with it in flight. A run killed as a whole (kill -9, the OOM killer, a reboot, \
                    a preemption) costs its jobs no attempt: only this count grows
                    """,
                into: \.maxRunDeaths),
            .integer(
                "--memory-limit", value: "MB", in: RenderCommand.memoryLimitMebibytes, unit: "MiB",
                help: """
                    per-job memory ceiling: a track whose input, decompressed text and fixes (~100 bytes each) would need more fails \
                    with class 'limit'. Each worker's heap is also capped at twice this (RLIMIT_DATA); a track that hits that cap \
                    fails with class 'limit' at once, and a new worker goes on
                    """,
                into: \.memoryLimitBytes, multiplier: 1 << 20),
            .number(
                "--lease", value: "S", in: 10...86400, unit: "seconds",
                help: "a claim from another host is stale after S seconds without a heartbeat", into: \.leaseSeconds),
            .number(
                "--stop-deadline", value: "S", in: 0...3600, unit: "seconds",
                help: "after SIGTERM/SIGINT, jobs in flight get S seconds and unfinished ones go back to the queue; a second signal aborts at once",
                into: \.stopDeadlineSeconds),
        ]
    }

    /// How the site is laid out, for `run` and `listing`.
    static var listingOptions: [CommandOption<RunConfiguration>] {
        [.integer("--page-size", value: "N", in: 1...10_000, help: "cards per index page", into: \.listingPageSize)]
    }

    /// `--shard auto` resolved, the style and basemap over the configuration (the basemap opened
    /// once), the whole checked.
    private static func finishRun(_ arguments: RunArguments, environment: [String: String]) throws -> Command {
        var request = arguments.request
        request.configuration.version = TrackSnapVersion.string
        // The renderer-version override exists so tests can show that a version bump re-renders everything.
        if let version = environment["TRACKSNAP_RENDERER_VERSION"], !version.isEmpty {
            request.configuration.settings.rendererVersion = version
        }
        if arguments.automaticShard {
            guard let count = arguments.shardsForAuto else { throw UsageError(message: "--shard auto needs --shards N") }
            switch ShardSelection.automatic(count: count, environment: environment) {
            case .success(let shard): request.configuration.shard = shard
            case .failure(let error): throw UsageError(message: error.message)
            }
        } else if arguments.shardsForAuto != nil {
            throw UsageError(message: "--shards N goes with --shard auto; use --shard i/N for a fixed shard")
        }
        try arguments.style.apply(to: &request.configuration)
        try arguments.basemap.apply(to: &request.configuration, checking: true)
        if let problem = request.configuration.settings.validationProblem() { throw UsageError(message: problem) }
        if let problem = request.configuration.foldersProblem { throw UsageError(message: "run: " + problem) }
        return .run(request)
    }
}
