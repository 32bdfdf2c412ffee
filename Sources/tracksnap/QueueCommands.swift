#if canImport(Glibc)
import Glibc
#endif
import BatchRun
import FileStore
import FoundationEssentials
import HistoryListing
import JobQueue
import SnapshotRendering

/// `enqueue`, `run`, `status`, `listing` and the internal worker: wiring only; the work is in
/// JobQueue, BatchRun and HistoryListing.
enum QueueCommands {
    static func enqueue(_ request: EnqueueRequest) throws -> ExitStatus {
        for path in request.paths where !FileStore.exists(path) {
            throw UsageError(message: "enqueue: no such file or folder '\(path)'")
        }
        var queue = JobQueue(root: request.jobsDirectory)
        queue.settleSeconds = request.settleSeconds
        var enqueuer = ArchiveEnqueuer(queue: queue)
        enqueuer.maximumFileBytes = RenderOptions().limits.maximumInputBytes
        enqueuer.mirrors = request.mirror
        let report = try enqueuer.enqueue(request.paths)
        for folder in report.skippedOutputFolders where !request.quiet {
            StandardError.write("tracksnap: enqueue: skipped \(FileStore.quoted(folder)): a TrackSnap output folder\n")
        }
        for link in report.skippedFolderLinks where !request.quiet {
            StandardError.write("tracksnap: enqueue: not followed \(FileStore.quoted(link)): a link to a folder (queue its target itself)\n")
        }
        for file in report.stillChanging where !request.quiet {
            StandardError.write("tracksnap: enqueue: not yet \(FileStore.quoted(file)): still being written; the next enqueue takes it\n")
        }
        for skip in report.skipped {
            StandardError.write("tracksnap: enqueue: skipped \(FileStore.quoted(skip.path)): \(skip.reason)\n")
        }
        for file in report.forgotten where !request.quiet {
            StandardError.write(
                "tracksnap: enqueue: forgot \(FileStore.quoted(file)): deleted from the archive; the next run or listing takes it off the site\n")
        }
        for folder in report.mirrorRefused {
            StandardError.write(
                "tracksnap: enqueue: --mirror forgot nothing in \(FileStore.quoted(folder)): it is missing or every file queued from it is gone (not mounted?); 'tracksnap forget' removes tracks by name\n"
            )
        }
        if !request.quiet || !report.skipped.isEmpty {
            var line = "tracksnap: queued \(report.queued) track file(s) in \(request.jobsDirectory)/new (\(report.unchanged) unchanged"
            if report.skippedNotTracks > 0 { line += ", \(report.skippedNotTracks) skipped: not a track file name" }
            for (reason, count) in report.skippedQuietly.sorted(by: { $0.key < $1.key }) { line += ", \(count) skipped: \(reason)" }
            if !report.skipped.isEmpty { line += ", \(report.skipped.count) not queued: see above" }
            StandardError.write((line + ")\n"))
        }
        // The rest is queued; the exit status still tells cron that something was left out.
        return report.skipped.isEmpty && report.mirrorRefused.isEmpty ? .success : .unexpected
    }

    static func run(_ request: RunRequest) throws -> ExitStatus {
        let mode: ProgressMode = request.json ? .json : request.quiet ? .quiet : isatty(2) == 1 ? .bar : .lines
        let supervisor = Supervisor(configuration: request.configuration, progress: mode, executable: try executablePath())
        let outcome = try supervisor.run()
        if outcome.workerFailed { return .unexpected }
        return outcome.isTemporaryFailure ? .temporary : .success
    }

    static func retry(_ request: RetryRequest) throws -> ExitStatus {
        let queue = JobQueue(root: request.jobsDirectory)
        guard queue.isQueue else {
            throw UsageError(message: "no job queue at '\(request.jobsDirectory)' (create one with 'tracksnap enqueue')")
        }
        // "" would be failed/ itself (renamed over new/), ".." the queue: refused before anything moves.
        for name in request.jobs where !JobName.isValid(name) {
            throw UsageError(message: "retry: \(FileStore.quoted(name)) is not a job name (as 'tracksnap status' lists them): nothing was moved")
        }
        let moved = try queue.retry(request.all ? nil : request.jobs)
        let missing = request.all ? [] : request.jobs.filter { !moved.contains($0) }
        for name in missing {
            StandardError.write("tracksnap: retry: no quarantined job named \(FileStore.quoted(name)) in \(queue.layout.failed)\n")
        }
        if !moved.isEmpty || request.all {
            StandardError.write("tracksnap: \(moved.count) job(s) back in the queue with their attempts reset; 'tracksnap run' renders them\n")
        }
        return missing.isEmpty ? .success : .usage
    }

    static func forget(_ request: ForgetRequest) throws -> ExitStatus {
        let queue = JobQueue(root: request.jobsDirectory)
        guard queue.isQueue else {
            throw UsageError(message: "no job queue at '\(request.jobsDirectory)' (create one with 'tracksnap enqueue')")
        }
        // A name with a "/" is an archive file's path (it may be deleted already); the rest are
        // job names as 'tracksnap status' lists them.
        for name in request.jobs where !name.contains("/") && !JobName.isValid(name) {
            throw UsageError(message: "forget: \(FileStore.quoted(name)) is neither a job name nor an archive file's path: nothing was forgotten")
        }
        let report = try queue.forget(request.jobs)
        for name in report.unknown {
            StandardError.write("tracksnap: forget: no job and no archive file named \(FileStore.quoted(name)) in \(request.jobsDirectory)\n")
        }
        if !report.forgotten.isEmpty {
            StandardError.write(
                "tracksnap: forgot \(report.forgotten.count) job(s); the next 'tracksnap run' or 'tracksnap listing' takes them off the site and removes their images and pages\n"
            )
        }
        let left = try? QueueStatus.read(queue)
        if !report.forgotten.isEmpty, let left, left.done == 0 && left.queued == 0 && left.running == 0 {
            // An empty done/ is what an unmounted share looks like: run and listing refuse to empty a site over it.
            StandardError.write(
                "tracksnap: forget: no finished job is left, so 'tracksnap run' and 'tracksnap listing' leave the site as it is; 'tracksnap listing --allow-empty' empties it\n"
            )
        }
        return report.unknown.isEmpty ? .success : .usage
    }

    static func status(_ request: StatusRequest) throws -> ExitStatus {
        let queue = JobQueue(root: request.jobsDirectory)
        guard FileStore.exists(queue.layout.root) else {
            throw UsageError(message: "no job queue at '\(request.jobsDirectory)' (create one with 'tracksnap enqueue')")
        }
        let status = try QueueStatus.read(queue)
        if request.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
        } else {
            print("queued \(status.queued), running \(status.running), done \(status.done), failed \(status.failed.count)")
            for failure in status.failed {
                print(
                    FileStore.escapingControls("  \(failure.job): \(failure.failureClass) after \(failure.attempts) attempt(s): \(failure.message)"))
            }
        }
        return .success
    }

    static func listing(_ configuration: RunConfiguration) throws -> ExitStatus {
        let queue = configuration.makeQueue()
        guard queue.isQueue else {
            throw UsageError(
                message:
                    "listing: '\(configuration.jobsDirectory)' is not a job queue (no new/ folder); check the path and that its file system is mounted"
            )
        }
        var builder = configuration.makeListing()
        builder.allowsEmptying = configuration.allowsEmptySite
        // Settings other than the runs' would find none of their images and prune them all.
        if let recorded = RecordedSettings.load(builder.store) {
            if !configuration.listingSettingsGiven {
                builder.fingerprint = recorded.fingerprint
                // The overview's named regions, too, are the ones the runs used (kept by the overview),
                // and so is its map.
                builder.overviewRegions = nil
                do {
                    builder.overviewBasemap = try OverviewMap.recorded(in: builder.store).map { configuration.makeOverviewMap($0.settings, kept: $0) }
                } catch {
                    throw UsageError(message: "listing: \(error)")
                }
            } else if !configuration.overridesRecordedSettings {
                let differences = recorded.differences(from: configuration.renderSettings())
                if !differences.isEmpty {
                    throw UsageError(
                        message:
                            "listing: these settings are not the ones the runs rendered \(configuration.outputDirectory) with (\(differences.joined(separator: "; "))); nothing was changed. Give the runs' style and basemap options, or none (the listing then uses the runs' own), or --override-settings to list under these (tracks not rendered under them are unlisted and their images pruned)"
                    )
                }
            }
        }
        // The clock first, then the queue: the listing decides from both whether it may prune
        // (`ListingOccasion.pruneLimitNanoseconds`).
        let checked = FileStore.nowNanoseconds()
        let status = try QueueStatus.read(queue)
        let idle = status.queued == 0 && status.running == 0
        let report = try builder.refresh(after: .listingCommand(queueCheckedAtNanoseconds: checked, queueIdle: idle))
        if report.refusedToEmpty {
            throw UsageError(
                message:
                    "listing: no finished job in \(queue.layout.done), but \(configuration.outputDirectory) lists tracks; nothing was changed (wrong --jobs? an unmounted share? or was every track forgotten?). Pass --allow-empty to publish an empty site"
            )
        }
        StandardError.write(
            "tracksnap: listed \(report.tracks) track(s) (\(report.unpublished) finished job(s) not rendered under these settings, \(report.pruned) file(s) pruned)\n"
        )
        if report.repaired > 0 {
            StandardError.write(
                "tracksnap: listing: \(report.repaired) published file(s) were missing or changed since they were written: written again\n")
        }
        if !idle {
            StandardError.write(
                "tracksnap: listing: \(status.queued) job(s) queued and \(status.running) running: a run is not finished, so this listing shows only what is done and pruned nothing; run 'tracksnap listing' again after it\n"
            )
        }
        return .success
    }

    /// One worker process of `run`, with the configuration the supervisor wrote to `path`.
    static func worker(configurationFile path: String) -> ExitStatus {
        ExitStatus(rawValue: Worker.run(configurationFile: path)) ?? .unexpected
    }

    /// This program's own path, to start workers with (independent of PATH and the current directory).
    private static func executablePath() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
