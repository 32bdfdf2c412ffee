import Dispatch
import FileStore
import JobQueue
import Synchronization
import ThumbnailCache

/// A rendered job waiting to be published.
struct Publication: Sendable {
    var claim: Claim
    var key: CacheKey
    var contentHex: String
    var pngs: [[UInt8]]
    var record: TrackRecord
    /// The render stripe lock, released once the files are published.
    var lock: ExclusiveLock
}

/// Publishes rendered jobs (files, fsyncs, renames, ack, report) on its own thread, one at a time,
/// while the worker renders the next job. A slot of one keeps at most one publication waiting, so
/// memory stays bounded at two tracks per worker.
///
/// Why: on ext4 a worker spent about a sixth of its time blocked in fsync, and the journal
/// serialises fsyncs across workers, which held 2 workers at 1.74x one (`make bench`).
final class Publisher: Sendable {
    private let queue: JobQueue
    private let thread = DispatchQueue(label: "tracksnap.publisher")
    private let slot = DispatchSemaphore(value: 1)
    private let stop = Mutex<String?>(nil)

    init(queue: JobQueue) {
        self.queue = queue
    }

    /// Set when a publication failed for an environmental reason (disk full): stop claiming.
    var stopMessage: String? { stop.withLock { $0 } }

    /// Hands a rendered job over, waiting while the previous one is still being published.
    func submit(_ publication: Publication, store: ThumbnailStore) {
        slot.wait()
        if stopMessage != nil {
            // The disk filled while this job rendered: it goes back as it came.
            publication.lock.release()
            try? queue.giveBack(publication.claim, countsAsAttempt: false)
            Worker.send(.returned(job: publication.claim.name, message: "the run is stopping"))
            slot.signal()
            return
        }
        thread.async { [self] in
            defer { slot.signal() }
            publish(publication, store: store)
        }
    }

    /// Waits until nothing is being published.
    func drain() {
        slot.wait()
        slot.signal()
    }

    private func publish(_ publication: Publication, store: ThumbnailStore) {
        let claim = publication.claim
        do throws(FileError) {
            defer { publication.lock.release() }
            try store.publish(key: publication.key, pngs: publication.pngs, record: publication.record)
        } catch  where error.isEnvironmental {
            // Disk full, quota, read-only, I/O error: the job is not at fault. Give it back as it
            // was (FileStore already removed the temporaries; the previous images are intact).
            try? queue.giveBack(claim, countsAsAttempt: false)
            Worker.send(.returned(job: claim.name, message: error.description))
            stop.withLock { $0 = $0 ?? error.description }
            return
        } catch {
            try? Worker.giveBack(claim, queue: queue, failureClass: .render, message: error.description)
            return
        }
        do {
            if try queue.acknowledge(claim) {
                if let cause = publication.record.incomplete {
                    Worker.send(.incomplete(job: claim.name, tilesFailed: publication.record.basemap?.tilesFailed ?? 0, cause: cause))
                }
                Worker.send(.finished(job: claim.name, rendered: true, contentHex: publication.contentHex))
            } else {
                Worker.send(.superseded(job: claim.name))
            }
        } catch {
            // The files are published; a lost ack only means a later run finds them in the cache.
            if error.isEnvironmental { stop.withLock { $0 = $0 ?? error.description } }
        }
    }
}
