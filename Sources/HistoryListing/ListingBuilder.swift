import ContentHash
import FileStore
import Foundation
import JobQueue
import ThumbnailCache

/// What a listing refresh did.
public struct ListingReport: Sendable, Equatable {
    /// Tracks listed.
    public var tracks = 0
    /// Jobs in done/ whose images are not published under the current settings (not listed).
    public var unpublished = 0
    /// Jobs whose bytes were hashed because the catalog did not know them.
    public var hashed = 0
    /// Whether index.json and index.html were rewritten (false: nothing changed).
    public var rewrote = false
    /// Images and records removed because nothing references them any more.
    public var pruned = 0

    /// An empty report.
    public init() {}
}

/// Rebuilds `Output/index.json` and `Output/index.html` from the jobs in done/ and the published
/// records, and prunes what no track references. Safe to run while workers publish: it lists only
/// keys whose record exists (so only images already published) and writes each page atomically.
public struct ListingBuilder: Sendable {
    /// The queue whose done/ folder is the history.
    public let queue: JobQueue
    /// The published thumbnails.
    public let store: ThumbnailStore

    /// A builder over `queue` and `store`.
    public init(queue: JobQueue, store: ThumbnailStore) {
        self.queue = queue
        self.store = store
    }

    private var catalogPath: String { store.stateDirectory + "/catalog" }
    private var stampPath: String { store.stateDirectory + "/listing" }

    /// Refreshes the listing. `knownContent` holds the content hashes this run already computed
    /// (job name → digest); others come from the catalog or are hashed. With `prunesBefore`, images
    /// and records no track references and older than that time (ns) are removed after the new
    /// listing is published; pass nil when other shards may still be publishing.
    public func refresh(knownContent: [String: SHA256Digest] = [:], prunesBefore: Int64? = nil) throws(FileError) -> ListingReport {
        try store.prepare()
        // Concurrent runs (lock bypassed, shards, machines) each refresh at their end. Scanning
        // done/ and writing the pages under one lock makes the last refresh see every job acked
        // before it started, so a slower run cannot overwrite a newer listing with an older view.
        let lock = try ExclusiveLock.acquire(store.stateDirectory + "/listing.lock")
        defer { lock.release() }
        return try refreshHoldingLock(knownContent: knownContent, prunesBefore: prunesBefore)
    }

    private func refreshHoldingLock(knownContent: [String: SHA256Digest], prunesBefore: Int64?) throws(FileError) -> ListingReport {
        var report = ListingReport()
        var catalog = ListingCatalog.load(catalogPath)
        var fresh = ListingCatalog()
        var jobsByKey: [String: [String]] = [:]
        var fileTimes: [String: Int64] = [:]
        for job in try FileStore.listDirectory(queue.layout.done) where !job.hasPrefix(".") {
            let path = queue.layout.done + "/" + job
            guard let status = try FileStore.status(path), status.isRegularFile else { continue }
            let contentHex: String
            if let known = knownContent[job] {
                contentHex = known.hex
            } else if let cached = catalog.contentHex(job: job, status: status) {
                contentHex = cached
            } else {
                guard let bytes = try? FileStore.readFile(path) else { continue }
                contentHex = SHA256.hash(bytes).hex
                report.hashed += 1
            }
            fresh.record(job: job, status: status, contentHex: contentHex)
            let key = CacheKey(content: SHA256Digest(hex: contentHex)!, settings: store.fingerprint).hex
            jobsByKey[key, default: []].append(job)
            fileTimes[job] = status.modificationNanoseconds
        }
        catalog = fresh

        // Unchanged inputs (same jobs, same bytes, same settings, pages present): nothing to write.
        var stamp = SHA256()
        stamp.update(store.fingerprint.bytes)
        for (key, jobs) in jobsByKey.sorted(by: { $0.key < $1.key }) {
            stamp.update(key + "\t" + jobs.sorted().joined(separator: "\t") + "\n")
        }
        let stampHex = stamp.finalize().hex
        let pagesExist = FileStore.exists(store.root + "/index.json") && FileStore.exists(store.root + "/index.html")
        let previousStamp = (try? FileStore.readFile(stampPath, maximumBytes: 256)).map { String(decoding: $0, as: UTF8.self) }
        if pagesExist && previousStamp == stampHex {
            report.tracks = jobsByKey.count
            try catalog.save(catalogPath)
            return report
        }

        let sources = ArchiveIndex.load(queue.layout.archiveIndex).pathsByJobName
        var tracks: [ListingTrack] = []
        var allPublished = true
        for (keyHex, jobs) in jobsByKey {
            guard let key = CacheKey(hex: keyHex), let record = store.record(key) else {
                report.unpublished += jobs.count
                allPublished = false
                continue
            }
            let sortedJobs = jobs.sorted()
            let source = sources[sortedJobs[0]].map { FileStore.split($0).name } ?? sortedJobs[0]
            let fileTime = Double(fileTimes[sortedJobs[0]] ?? 0) / 1e9
            tracks.append(ListingTrack(record: record, source: source, jobs: sortedJobs, fileTime: fileTime))
        }
        tracks.sort { ($0.sortTime, $0.id) > ($1.sortTime, $1.id) }
        report.tracks = tracks.count

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(ListingDocument(tracks: tracks))) ?? Data()
        try FileStore.writeAtomically(Array(json) + [0x0A], to: store.root + "/index.json")
        try FileStore.writeAtomically(Array(ListingPage.html(tracks).utf8), to: store.root + "/index.html")
        report.rewrote = true
        // A stamp is kept only for a complete listing, so a later run lists late publications.
        if allPublished { try FileStore.writeAtomically(Array(stampHex.utf8), to: stampPath) } else { try FileStore.remove(stampPath) }
        try catalog.save(catalogPath)

        if let prunesBefore {
            report.pruned = try prune(referenced: Set(tracks.map(\.id)), olderThan: prunesBefore)
        }
        return report
    }

    /// Removes images and records whose key no listed track has, if older than `limit` (so a
    /// render published after this listing was computed is never removed).
    private func prune(referenced: Set<String>, olderThan limit: Int64) throws(FileError) -> Int {
        var removed = 0
        for (directory, suffix) in [(store.thumbsDirectory, ".png"), (store.recordsDirectory, ".json")] {
            for name in try FileStore.listDirectory(directory) where !name.hasPrefix(".") && name.hasSuffix(suffix) {
                let key = String(name.prefix(64))
                guard CacheKey(hex: key) != nil, !referenced.contains(key) else { continue }
                let path = directory + "/" + name
                guard let status = try FileStore.status(path), status.modificationNanoseconds < limit else { continue }
                try FileStore.remove(path)
                removed += 1
            }
        }
        return removed
    }
}
