import ContentHash
import FileStore
import FoundationEssentials
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
    /// Pages (and index.json, site.css) written.
    public var pagesWritten = 0
    /// Bytes of the pages and parts written (images and state files not counted).
    public var bytesWritten = 0
    /// Detail and index pages removed because their track or page number is gone.
    public var pagesRemoved = 0
    /// Published files found deleted, edited or replaced since they were written (so written again).
    public var repaired = 0
    /// True when done/ held no finished job while the site lists tracks, and nothing was written
    /// or pruned (see `ListingBuilder.allowsEmptying`).
    public var refusedToEmpty = false

    /// An empty report.
    public init() {}
}

/// Rebuilds the site (`index.html`, `page-N.html`, `tracks/<id>.html`, `site.css`, `index.json`)
/// from the jobs in done/ and the published records, and prunes what no track references. Safe to
/// run while workers publish: it lists only keys whose record exists (so only images already
/// published) and writes each page atomically. Per-track pieces are cached (`ListingCache`) and a
/// detail page is rewritten only when its inputs changed, so a refresh costs little more than
/// concatenating the index pages.
public struct ListingBuilder: Sendable {
    /// The queue whose done/ folder is the history.
    public let queue: JobQueue
    /// The published thumbnails.
    public let store: ThumbnailStore

    /// A builder over `queue` and `store`.
    public init(queue: JobQueue, store: ThumbnailStore) {
        self.queue = queue
        self.store = store
        fingerprint = store.fingerprint
    }

    /// Cards per index page. Default: 60.
    public var pageSize = 60

    /// The settings fingerprint the listed images were rendered under: it makes each job's cache
    /// key. Default: the store's (`store.fingerprint`); a listing given no settings uses the one
    /// the runs recorded instead (`Output/.tracksnap/settings`).
    public var fingerprint: SHA256Digest

    /// Every folder where the site and the images are staged before renaming: the reaper sweeps
    /// what a killed run left in them (detail pages' and index parts' temporaries included). The
    /// one list of them: a folder the site writes into and this list leaves out keeps a killed
    /// run's temporaries for good.
    public var stagingDirectories: [String] {
        store.stagingDirectories + [SiteWriter.detailDirectory, SiteWriter.partDirectory].map { store.root + "/" + $0 }
    }

    /// Whether a refresh may publish an empty site over one that lists tracks. Default: false: a
    /// queue with nothing in done/ is far more often a wrong `--jobs` or an unmounted share than
    /// a wish to empty the site, and a refresh would otherwise delete every image and page.
    public var allowsEmptying = false

    /// Finished jobs to draw again under the current settings: `lost`, whose images or record
    /// are missing (lost in a crash, deleted by hand), so that done always means listed; and
    /// `incomplete`, whose images were drawn with map tiles missing (offline, a locked file, a
    /// server outage), so that they are redrawn once the tiles can be had.
    public func unpublishedJobs() throws(FileError) -> (lost: [String], incomplete: [String]) {
        let scan = try scanDone(knownContent: [:], catalog: ListingCatalog.load(catalogPath))
        var missing: [String] = [], incomplete: [String] = []
        for (keyHex, jobs) in scan.jobsByKey {
            guard let key = CacheKey(hex: keyHex) else { continue }
            if !store.isPublished(key) { missing += jobs } else if store.isIncomplete(key) { incomplete += jobs }
        }
        return (missing.sorted(), incomplete.sorted())
    }

    /// done/ read through the catalog: each job's cache key (hashing only jobs the catalog does
    /// not know), the fresh catalog, file times, and how many were hashed.
    private func scanDone(knownContent: [String: SHA256Digest], catalog: ListingCatalog) throws(FileError)
        -> (catalog: ListingCatalog, jobsByKey: [String: [String]], fileTimes: [String: Int64], hashed: Int)
    {
        var fresh = ListingCatalog()
        var jobsByKey: [String: [String]] = [:]
        var fileTimes: [String: Int64] = [:]
        var hashed = 0
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
                hashed += 1
            }
            fresh.record(job: job, status: status, contentHex: contentHex)
            let key = CacheKey(content: SHA256Digest(hex: contentHex)!, settings: fingerprint).hex
            jobsByKey[key, default: []].append(job)
            fileTimes[job] = status.modificationNanoseconds
        }
        return (fresh, jobsByKey, fileTimes, hashed)
    }

    /// Whether the published site lists any track (its index and at least one image).
    private func siteListsTracks() -> Bool {
        guard FileStore.exists(store.root + "/index.json") else { return false }
        return ((try? FileStore.listDirectory(store.thumbsDirectory)) ?? []).contains { !$0.hasPrefix(".") && $0.hasSuffix(".png") }
    }

    private var catalogPath: String { store.stateDirectory + "/catalog" }
    private var stampPath: String { store.stateDirectory + "/listing" }
    private var cachePath: String { store.stateDirectory + "/listing-cache" }
    private var manifestPath: String { store.stateDirectory + "/pages" }
    /// Present while a refresh has left images unpruned (an interrupted run, a sharded one, a
    /// listing during a run): the next refresh allowed to prune does so even if nothing changed.
    private var prunePendingPath: String { store.stateDirectory + "/prune-pending" }

    /// Refreshes the listing. `knownContent` holds the content hashes this run already computed
    /// (job name → digest); others come from the catalog or are hashed. With `prunesBefore`, images
    /// and records no track references and older than that time (ns) are removed after the new
    /// listing is published; pass nil when other shards may still be publishing.
    /// `redrawn` names keys whose records this run rewrote (an incomplete image drawn again):
    /// their cached listing entries are rebuilt from the new record (its attribution may differ).
    public func refresh(
        knownContent: [String: SHA256Digest] = [:], prunesBefore: Int64? = nil, redrawn: Set<String> = []
    ) throws(FileError) -> ListingReport {
        try store.prepare()
        // Concurrent runs (lock bypassed, shards, machines) each refresh at their end. Scanning
        // done/ and writing the pages under one lock makes the last refresh see every job acked
        // before it started, so a slower run cannot overwrite a newer listing with an older view.
        let lock = try ExclusiveLock.acquire(store.stateDirectory + "/listing.lock")
        defer { lock.release() }
        return try refreshHoldingLock(knownContent: knownContent, prunesBefore: prunesBefore, redrawn: redrawn)
    }

    private func refreshHoldingLock(knownContent: [String: SHA256Digest], prunesBefore: Int64?, redrawn: Set<String>) throws(FileError)
        -> ListingReport
    {
        var report = ListingReport()

        var catalog = ListingCatalog.load(catalogPath)
        let scan = try scanDone(knownContent: knownContent, catalog: catalog)
        let fresh = scan.catalog, jobsByKey = scan.jobsByKey, fileTimes = scan.fileTimes
        report.hashed = scan.hashed
        if jobsByKey.isEmpty && !allowsEmptying && siteListsTracks() {
            report.refusedToEmpty = true
            return report
        }
        // Rewritten only when a job came, went or changed (100,000 lines cost ~0.2 s to write).
        let catalogChanged = fresh.entries != catalog.entries
        catalog = fresh

        // Unchanged inputs (same jobs, same bytes, same settings) and every file as it was
        // written (one lstat each, see `SiteWriter.verify`): nothing to write. A file deleted or
        // edited since is written again below.
        var stamp = SHA256()
        stamp.update(fingerprint.bytes)
        stamp.update(ListingCache.templateVersion + "\npage size \(pageSize)\n")
        for (key, jobs) in jobsByKey.sorted(by: { $0.key < $1.key }) {
            stamp.update(key + "\t" + jobs.sorted().joined(separator: "\t") + "\n")
        }
        let stampHex = stamp.finalize().hex
        let site = SiteWriter(root: store.root, manifestPath: manifestPath)
        let manifestOnDisk = site.loadManifest()
        var manifest = manifestOnDisk
        report.repaired = try site.verify(&manifest)
        let previousStamp = (try? FileStore.readFile(stampPath, maximumBytes: 256)).map { String(decoding: $0, as: UTF8.self) }
        if report.repaired == 0 && SiteWriter.topFiles.allSatisfy({ manifest[$0] != nil }) && previousStamp == stampHex
            && redrawn.isDisjoint(with: jobsByKey.keys)
        {
            report.tracks = jobsByKey.count
            // Pages no manifest names (a refresh that died before saving it) go all the same.
            let pageCount = (jobsByKey.count + pageSize - 1) / pageSize
            report.pagesRemoved = try site.sweep(liveDetails: Set(jobsByKey.keys), pageCount: pageCount, manifest: &manifest)
            if manifest != manifestOnDisk { try site.saveManifest(manifest) }
            if catalogChanged { try catalog.save(catalogPath) }
            report.pruned = try pruneIfDue(referenced: Set(jobsByKey.keys), olderThan: prunesBefore, pending: FileStore.exists(prunePendingPath))
            return report
        }

        let sources = ArchiveIndex.load(queue.layout.archiveIndex).pathsByJobName
        // Start from the loaded cache, so `save` knows what is already on disk and appends the rest.
        var cache = ListingCache.load(cachePath)
        let previous = cache.entries
        cache.entries = [:]
        var built: [String: ListingTrack] = [:]
        var allPublished = true
        for (keyHex, jobs) in jobsByKey {
            let sortedJobs = jobs.sorted()
            let source = sources[sortedJobs[0]].map { FileStore.split($0).name } ?? sortedJobs[0]
            if let entry = previous[keyHex], entry.source == source, entry.jobs == sortedJobs, !redrawn.contains(keyHex) {
                cache.entries[keyHex] = entry
                continue
            }
            guard let track = listingTrack(keyHex, source: source, jobs: sortedJobs, fileTimes: fileTimes) else {
                report.unpublished += jobs.count
                allPublished = false
                continue
            }
            let fragments = TrackFragments(track)
            cache.entries[keyHex] = ListingCache.Entry(
                source: source, jobs: sortedJobs, sortTime: track.sortTime, month: track.month,
                digest: ListingCache.digest(fragments.json), json: fragments.json[...], card: fragments.card[...])
            cache.added.append(keyHex)
            built[keyHex] = track
        }
        let order = cache.entries.sorted { ($0.value.sortTime, $0.key) > ($1.value.sortTime, $1.key) }
        report.tracks = order.count

        let index = IndexPages(
            items: order.map { IndexPages.Item(id: $0.key, month: $0.value.month, card: $0.value.card, digest: $0.value.digest) },
            pageSize: pageSize)
        // Detail pages first, then the index pages and index.json: a card never links to a page
        // that is not there yet. Each file is written only when what it is made from changed
        // (the manifest keeps a digest per detail page, numbered page and index part) or when
        // it is not as it was written (`verify` dropped its entry).
        var details: [(id: String, digest: UInt64, bytes: [UInt8])] = []
        var liveDetails = Set<String>()
        for (keyHex, entry) in order {
            liveDetails.insert(keyHex)
            guard manifest[keyHex]?.digest != entry.digest else { continue }
            guard let track = built[keyHex] ?? listingTrack(keyHex, source: entry.source, jobs: entry.jobs, fileTimes: fileTimes) else { continue }
            details.append((keyHex, entry.digest, DetailPage.html(track)))
        }
        try site.prepare()
        try site.write(details, recordingIn: &manifest)
        var pages: [(id: String, digest: UInt64, bytes: [UInt8])] = []
        var parts: [(id: String, digest: UInt64, bytes: [UInt8])] = []
        var partList: [UInt8] = []
        for number in stride(from: index.pageCount, through: 1, by: -1) {
            let range = index.range(ofPage: number)
            let pageDigest = index.digest(ofPage: number)
            if manifest[IndexPages.fileName(page: number)]?.digest != pageDigest {
                pages.append((IndexPages.fileName(page: number), pageDigest, index.page(number)))
            }
            let partPath = SiteWriter.partPath(number)
            let partDigest = range.reduce(ListingCache.digest("part \(number)".utf8)) { hash, position in
                ListingCache.digest(withUnsafeBytes(of: order[position].value.digest) { Array($0) }, seed: hash)
            }
            if manifest[partPath]?.digest != partDigest {
                var json: [UInt8] = Array("{\"part\":\(number),\"tracks\":[".utf8)
                for position in range {
                    if position > range.lowerBound { json.append(UInt8(ascii: ",")) }
                    json.append(0x0A)
                    json += order[position].value.json
                }
                json += Array("\n],\"version\":3}\n".utf8)
                parts.append((partPath, partDigest, json))
            }
            if !partList.isEmpty { partList.append(UInt8(ascii: ",")) }
            partList += Array("\n{\"path\":\"\(partPath)\",\"tracks\":\(range.count)}".utf8)
        }
        // index.json is the one entry point: the parts newest first, each the tracks of one
        // numbered page (newest first), so a new track rewrites the newest part and this file.
        var json: [UInt8] = Array("{\"page_size\":\(pageSize),\"parts\":[".utf8)
        json += partList
        json += Array("\n],\"tracks\":\(order.count),\"version\":3}\n".utf8)
        let top = [Array(SiteStyleSheet.css.utf8), index.indexPage(), json].enumerated().map { number, bytes in
            (id: SiteWriter.topFiles[number], digest: ListingCache.digest(bytes), bytes: bytes)
        }
        try site.write(parts + pages, recordingIn: &manifest)
        try site.write(top, recordingIn: &manifest)
        report.bytesWritten = (details + parts + pages + top).reduce(0) { $0 + $1.bytes.count }
        report.rewrote = true
        report.pagesWritten = details.count + pages.count + parts.count + top.count
        report.pagesRemoved = try site.sweep(liveDetails: liveDetails, pageCount: index.pageCount, manifest: &manifest)
        if manifest != manifestOnDisk { try site.saveManifest(manifest) }
        try cache.save(cachePath)
        // A stamp is kept only for a complete listing, so a later run lists late publications.
        if allPublished { try FileStore.writeAtomically(Array(stampHex.utf8), to: stampPath) } else { try FileStore.remove(stampPath) }
        if catalogChanged { try catalog.save(catalogPath) }

        report.pruned = try pruneIfDue(referenced: Set(order.map(\.key)), olderThan: prunesBefore, pending: true)
        return report
    }

    /// Prunes when allowed (`limit` given) and something may be left to prune (`pending`), and
    /// keeps the pending mark in step: set by a refresh that may not prune, cleared by one that did.
    private func pruneIfDue(referenced: Set<String>, olderThan limit: Int64?, pending: Bool) throws(FileError) -> Int {
        guard let limit else {
            try markPrunePending(true)
            return 0
        }
        guard pending else { return 0 }
        let (removed, tooNew) = try prune(referenced: referenced, olderThan: limit)
        // An unreferenced file newer than the limit (a superseded or forgotten job's render that
        // landed during this run) is left for a later refresh: keep the mark until it has gone.
        try markPrunePending(tooNew > 0)
        return removed
    }

    private func markPrunePending(_ pending: Bool) throws(FileError) {
        if !pending {
            try FileStore.remove(prunePendingPath)
        } else if !FileStore.exists(prunePendingPath) {
            try FileStore.writeAtomically([], to: prunePendingPath)
        }
    }

    /// A listed track from its published record; nil when the record is not there (yet).
    private func listingTrack(_ keyHex: String, source: String, jobs: [String], fileTimes: [String: Int64]) -> ListingTrack? {
        guard let key = CacheKey(hex: keyHex), let record = store.record(key) else { return nil }
        return ListingTrack(record: record, source: source, jobs: jobs, fileTime: Double(fileTimes[jobs[0]] ?? 0) / 1e9)
    }

    /// Removes images and records whose key no listed track has, if older than `limit` (so a
    /// render published after this listing was computed is never removed).
    private func prune(referenced: Set<String>, olderThan limit: Int64) throws(FileError) -> (removed: Int, tooNew: Int) {
        var removed = 0, tooNew = 0
        for (directory, suffix) in [(store.thumbsDirectory, ".png"), (store.recordsDirectory, ".json")] {
            for name in try FileStore.listDirectory(directory) where !name.hasPrefix(".") && name.hasSuffix(suffix) {
                let key = String(name.prefix(64))
                guard CacheKey(hex: key) != nil, !referenced.contains(key) else { continue }
                let path = directory + "/" + name
                guard let status = try FileStore.status(path) else { continue }
                guard status.modificationNanoseconds < limit else {
                    tooNew += 1
                    continue
                }
                try FileStore.remove(path)
                removed += 1
            }
        }
        return (removed, tooNew)
    }
}
