#if canImport(Glibc)
import Glibc
#endif
import ContentHash
import FileStore
import JobQueue
import SnapshotRendering
import Synchronization
import ThumbnailCache
import TileSources

/// The loop of one worker process (`tracksnap __worker FILE`, with the run's configuration file):
/// claim a job, render or find it in the cache, publish, acknowledge, report one line to the
/// supervisor on stdout; repeat until the queue is empty or the supervisor closes stdin. Rendering is one job at a time; the previous
/// job's publication (fsyncs, renames, ack) overlaps the next job's render on a second thread, so
/// a worker does not idle in fsync. At most two tracks in memory; a crash gives back both claims.
package enum Worker {
    /// Reads the run's configuration from `path` (written by the supervisor, `RunConfigurationFile`)
    /// and runs the loop; a file that cannot be used stops the worker with a message naming it.
    package static func run(configurationFile path: String) -> Int32 {
        do throws(RunConfigurationFileError) {
            return run(try RunConfigurationFile.read(path))
        } catch {
            return stop("\(error)", environmental: error.isEnvironmental)
        }
    }

    /// Runs the loop; returns the process's exit status (0 drained or stopped, 75 environmental).
    package static func run(_ configuration: RunConfiguration) -> Int32 {
        // The supervisor decides about signals (one SIGTERM from systemd to the whole cgroup plus
        // one forwarded would otherwise count as two and abort).
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        if let problem = MemoryFence.install(bytes: configuration.workerMemoryFenceBytes) { StandardError.write("tracksnap: worker: \(problem)\n") }
        HeapRetention.keepFreedMemory()
        let hooks = WorkerTestHooks.fromEnvironment()
        if hooks.crashesAtStart { abort() }
        var queue = configuration.makeQueue()
        queue.version = configuration.version
        let renderer = configuration.makeRenderer()
        // Canvas, mask and encoder buffers reused for every image this worker draws.
        let scratch = RenderScratch()
        // The basemap's tiles, decoded once per worker and kept (bounded) across tracks.
        var tiles: BasemapTiles?
        if let basemap = renderer.settings.options.basemap {
            do {
                tiles = try configuration.makeBasemapOpener().open(basemap) { StandardError.write("tracksnap: \($0)\n") }
            } catch {
                return stop("\(error)", environmental: true)
            }
        }
        let heartbeatPath = queue.layout.heartbeatPath(of: queue.identity)
        do {
            try FileStore.writeAtomically([], to: heartbeatPath)
        } catch {
            return stop("cannot write \(heartbeatPath): \(error)", environmental: error.isEnvironmental)
        }
        defer { try? FileStore.remove(heartbeatPath) }
        Heartbeat.start(path: heartbeatPath, intervalSeconds: min(30, configuration.leaseSeconds / 4))
        let publisher = Publisher(queue: queue)
        while !supervisorAskedToStop() && publisher.stopMessage == nil {
            let candidates: (ready: [ReadyJob], settling: Int)
            do {
                candidates = try queue.readyJobs(shard: configuration.shard)
            } catch {
                return stop("cannot list \(queue.layout.new): \(error)", environmental: error.isEnvironmental, publisher: publisher)
            }
            if candidates.ready.isEmpty {
                // Files still being written: wait for them to settle rather than finish without them.
                // Jobs being published may yet be given back (render error): wait for those too.
                publisher.drain()
                let givenBack = (try? queue.readyJobs(shard: configuration.shard).ready.isEmpty) == false
                if givenBack { continue }
                guard candidates.settling > 0 else { break }
                usleep(200_000)
                continue
            }
            // Start at a different place than the other workers so they rarely race for one file.
            let offset = Int(getpid()) % candidates.ready.count
            for index in 0..<candidates.ready.count {
                if supervisorAskedToStop() || publisher.stopMessage != nil { break }
                let job = candidates.ready[(index + offset) % candidates.ready.count]
                let claim: Claim
                do {
                    switch try queue.claim(job) {
                    case .claimed(let claimed): claim = claimed
                    case .lostRace: continue
                    case .quarantined(let record):
                        send(.quarantined(job: record.job, failureClass: record.failureClass.rawValue, message: record.message))
                        continue
                    }
                } catch {
                    return stop("cannot claim \(job.name): \(error)", environmental: error.isEnvironmental, publisher: publisher)
                }
                send(.claimed(job: claim.name, attempt: claim.attempt))
                hooks.claimed(claim.name)
                let outcome = process(claim, queue: queue, renderer: renderer, scratch: scratch, tiles: tiles, publisher: publisher)
                if case .stopRun(let message) = outcome { return stop(message, environmental: true, publisher: publisher) }
            }
        }
        publisher.drain()
        if let message = publisher.stopMessage { return stop(message, environmental: true, publisher: publisher) }
        return 0
    }

    private enum Outcome {
        case next
        case stopRun(String)
    }

    private static func process(
        _ claim: Claim, queue: JobQueue, renderer: ThumbnailRenderer, scratch: RenderScratch, tiles: BasemapTiles?, publisher: Publisher
    ) -> Outcome {
        let store = renderer.store
        let limits = renderer.settings.options.limits
        do throws(FileError) {
            let bytes: [UInt8]
            do {
                bytes = try FileStore.readFile(queue.path(of: claim), maximumBytes: min(limits.maximumInputBytes, limits.maximumMemoryBytes))
            } catch  where error.code == EFBIG {
                let message =
                    limits.maximumMemoryBytes < limits.maximumInputBytes
                    ? "the file is larger than the \(limits.maximumMemoryBytes >> 20) MiB per-job memory limit (--memory-limit)"
                    : "the file is larger than the \(limits.maximumInputBytes)-byte limit"
                try queue.quarantine(claim, failureClass: .limit, message: message)
                send(.quarantined(job: claim.name, failureClass: FailureClass.limit.rawValue, message: message))
                return .next
            }
            let content = SHA256.hash(bytes)
            let key = store.key(content: content)
            // An incomplete image (map tiles missing) is drawn again, never taken from the cache.
            if !store.isComplete(key) {
                // The stripe lock makes a second job with the same bytes wait for this render and
                // then find it published; the publisher releases it once the files are in place.
                let lock = try store.acquireRenderLock(key)
                if !store.isComplete(key) {
                    let result: (pngs: [[UInt8]], record: TrackRecord)
                    do throws(SnapshotError) {
                        result = try renderer.render(trackBytes: bytes, fileName: claim.name, key: key, scratch: scratch, tiles: tiles)
                    } catch {
                        lock.release()
                        if error.isInvalidInput {
                            let failureClass: FailureClass = error.isLimit ? .limit : .invalidInput
                            try queue.quarantine(claim, failureClass: failureClass, message: error.description)
                            send(.quarantined(job: claim.name, failureClass: failureClass.rawValue, message: error.description))
                        } else {
                            try giveBack(claim, queue: queue, failureClass: .render, message: error.description)
                        }
                        return .next
                    }
                    publisher.submit(
                        Publication(claim: claim, key: key, contentHex: content.hex, pngs: result.pngs, record: result.record, lock: lock),
                        store: store)
                    return .next
                }
                lock.release()
            }
            if try queue.acknowledge(claim) {
                send(.finished(job: claim.name, rendered: false, contentHex: content.hex))
            } else {
                send(.superseded(job: claim.name))
            }
            return .next
        } catch  where error.isEnvironmental {
            // Disk full, quota, read-only, I/O error: the job is not at fault. Give it back as it
            // was (FileStore already removed any temporary; the previous thumbnail is intact).
            try? queue.giveBack(claim, countsAsAttempt: false)
            send(.returned(job: claim.name, message: error.description))
            return .stopRun(error.description)
        } catch {
            // A claim removed under the worker (a newer version queued, or forgotten) is no error.
            guard queue.isHeld(claim) else {
                send(.superseded(job: claim.name))
                return .next
            }
            try? giveBack(claim, queue: queue, failureClass: .render, message: "\(error)")
            return .next
        }
    }

    static func giveBack(_ claim: Claim, queue: JobQueue, failureClass: FailureClass, message: String) throws(FileError) {
        try queue.giveBack(claim, countsAsAttempt: true, failureClass: failureClass, message: message)
        if claim.attempt >= queue.maxAttempts {
            send(.quarantined(job: claim.name, failureClass: failureClass.rawValue, message: "\(message) (\(claim.attempt) attempts)"))
        } else {
            send(.returned(job: claim.name, message: message))
        }
    }

    private static func stop(_ message: String, environmental: Bool, publisher: Publisher? = nil) -> Int32 {
        publisher?.drain()
        send(.stop(message: message, temporary: environmental))
        return environmental ? 75 : 1
    }

    /// Writes one message line to stdout (the supervisor's pipe) in a single write.
    static func send(_ message: WorkerMessage) {
        sendLock.withLock { _ in writeLine(message.line) }
    }

    private static let sendLock = Mutex<Void>(())

    private static func writeLine(_ line: String) {
        var line = line
        line.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += count
            }
        }
    }

    /// Whether stdin (the supervisor's pipe) was closed or written to: stop after this job.
    private static func supervisorAskedToStop() -> Bool {
        var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}

/// Keeps a worker's heartbeat file fresh so other hosts see its claims are alive.
enum Heartbeat {
    static func start(path: String, intervalSeconds: Double) {
        let interval = max(1, intervalSeconds)
        DetachedThread.start {
            while true {
                var pause = timespec(tv_sec: Int(interval), tv_nsec: Int((interval - interval.rounded(.down)) * 1e9))
                var left = timespec()
                while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
                _ = try? FileStore.touch(path)
            }
        }
    }
}

import FoundationEssentials

/// A detached POSIX thread running `body` (for loops that live as long as the process, such as a
/// worker's heartbeat).
enum DetachedThread {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; returns false when no thread could be made.
    @discardableResult
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
