import ContentHash
import FileStore
import JobQueue
import ThumbnailCache

/// done/ read through the catalog (`ListingBuilder.scanDone`).
struct DoneScan {
    /// The catalog as it should now be (every job in done/ with its status and content hash).
    var catalog = ListingCatalog()
    /// Jobs by the cache key they list under (hex).
    var jobsByKey: [String: [String]] = [:]
    /// Each job's modification time (ns): a track without times is dated by it.
    var fileTimes: [String: Int64] = [:]
    /// Jobs whose bytes were hashed because the catalog did not know them.
    var hashed = 0
    /// Whether a job had more than one hard link (`ListingStamp.hasLinkedJobs`).
    var hasLinkedJobs = false
}

/// The listing's tracks: the per-track cache brought up to date with done/.
struct ListedTracks {
    /// The cache, holding exactly the listed tracks.
    var cache: ListingCache
    /// Tracks built from their records in this refresh (the others come from the cache).
    var built: [String: ListingTrack] = [:]
    /// Jobs whose record is not published (yet) under these settings.
    var unpublished = 0
}

extension ListingBuilder {
    /// Finished jobs to draw again under the current settings: `lost`, whose images or record
    /// are missing (lost in a crash, deleted by hand), so that done always means listed; and
    /// `incomplete`, whose images were drawn with map tiles missing (offline, a locked file, a
    /// server outage), so that they are redrawn once the tiles can be had. When the last check
    /// found none and done/, thumbs/ and records/ have not changed since (`PublicationCheck`),
    /// none are found without looking at each job's files.
    package func unpublishedJobs() throws(FileError) -> (lost: [String], incomplete: [String]) {
        let checkPath = store.stateDirectory + "/published"
        // Taken before looking: a change made while this check runs moves them again.
        let snapshots = [queue.layout.done, store.thumbsDirectory, store.recordsDirectory].map(DirectorySnapshot.take)
        if let last = PublicationCheck.load(checkPath), last.holds(fingerprintHex: fingerprint.hex, current: snapshots) { return ([], []) }
        let catalog = ListingCatalog.load(catalogPath)
        let scan = try scanDone(knownContent: [:], catalog: catalog)
        var missing: [String] = [], incomplete: [String] = []
        for (keyHex, jobs) in scan.jobsByKey {
            guard let key = CacheKey(hex: keyHex) else { continue }
            if !store.isPublished(key) { missing += jobs } else if store.isIncomplete(key) { incomplete += jobs }
        }
        // A job with other links can change in place without moving done/'s times: never skipped.
        if missing.isEmpty && incomplete.isEmpty && !scan.hasLinkedJobs {
            try PublicationCheck(fingerprintHex: fingerprint.hex, snapshots: snapshots).save(checkPath)
        } else {
            try FileStore.remove(checkPath)
        }
        return (missing.sorted(), incomplete.sorted())
    }

    /// done/ read through the catalog: each job's cache key (hashing only jobs the catalog does
    /// not know), the fresh catalog, file times, and how many were hashed.
    func scanDone(knownContent: [String: SHA256Digest], catalog: ListingCatalog) throws(FileError) -> DoneScan {
        var scan = DoneScan()
        scan.catalog.entries.reserveCapacity(catalog.entries.count + 16)
        scan.jobsByKey.reserveCapacity(catalog.entries.count + 16)
        scan.fileTimes.reserveCapacity(catalog.entries.count + 16)
        var unknown: [(job: String, path: String, status: FileStatus)] = []
        var unchecked: [(job: String, inode: UInt64)] = []
        for (job, inode) in try FileStore.listDirectoryWithInodes(queue.layout.done) where !job.hasPrefix(".") {
            // Same name, same inode, no other links: the same bytes (see `ListingCatalog`), no lstat.
            if knownContent[job] == nil, let entry = catalog.entries[job], entry.inode == inode, !entry.isLinked {
                scan.catalog.entries[job] = entry
                add(job, contentHex: entry.contentHex, modificationNanoseconds: entry.modificationNanoseconds, to: &scan)
                continue
            }
            unchecked.append((job, inode))
        }
        // An lstat each by many threads: with nothing cached each waits for its inode to be read
        // (100,000 one after the other were 3.5 s of a 34 s cold listing, one core idle). In inode
        // order, which is about where they lie on the disk (`DiskOrder`); the jobs to hash follow it.
        unchecked = DiskOrder.sorted(unchecked, by: \.inode)
        let done = queue.layout.done
        let statuses = EveryCore.map(unchecked, .readingFiles) { item in
            Result { () throws(FileError) in try FileStore.status(done + "/" + item.job) }
        }
        for ((job, _), result) in zip(unchecked, statuses) {
            let path = done + "/" + job
            guard let status = try result.get(), status.isRegularFile else { continue }
            let contentHex: String
            if let known = knownContent[job] {
                contentHex = known.hex
            } else if let cached = catalog.contentHex(job: job, status: status) {
                contentHex = cached
            } else {
                unknown.append((job, path, status))
                continue
            }
            scan.catalog.record(job: job, status: status, contentHex: contentHex)
            add(job, contentHex: contentHex, modificationNanoseconds: status.modificationNanoseconds, to: &scan)
        }
        // Hashed by many readers: a cold listing reads 100,000 jobs, mostly waiting on the disk.
        let hashes = EveryCore.map(unknown, .readingFiles) { item in (try? FileStore.readFile(item.path)).map { SHA256.hash($0).hex } }
        for (item, contentHex) in zip(unknown, hashes) {
            guard let contentHex else { continue }
            scan.hashed += 1
            scan.catalog.record(job: item.job, status: item.status, contentHex: contentHex)
            add(item.job, contentHex: contentHex, modificationNanoseconds: item.status.modificationNanoseconds, to: &scan)
        }
        return scan
    }

    private func add(_ job: String, contentHex: String, modificationNanoseconds: Int64, to scan: inout DoneScan) {
        guard let content = SHA256Digest(hex: contentHex) else { return }
        let key = CacheKey(content: content, settings: fingerprint).hex
        scan.jobsByKey[key, default: []].append(job)
        scan.fileTimes[job] = modificationNanoseconds
        if scan.catalog.entries[job]?.isLinked == true { scan.hasLinkedJobs = true }
    }

    /// Whether the published site lists any track (its index and at least one image).
    func siteListsTracks() -> Bool {
        guard FileStore.exists(store.root + "/index.json") else { return false }
        return ((try? FileStore.listDirectory(store.thumbsDirectory)) ?? []).contains { !$0.hasPrefix(".") && $0.hasSuffix(".png") }
    }

    /// The cache entry of every key in `scan`: kept from the cache on disk while its source name
    /// and jobs are the same (and its record was not `redrawn`), else built from the published
    /// record; a key with no record yet is not listed.
    func listTracks(_ scan: DoneScan, redrawn: Set<String>) -> ListedTracks {
        let sources = ArchiveIndex.load(queue.layout.archiveIndex).pathsByJobName
        // Start from the loaded cache, so `save` knows what is already on disk and appends the rest.
        var listed = ListedTracks(cache: ListingCache.load(cachePath))
        let previous = listed.cache.entries
        listed.cache.entries = [:]
        listed.cache.entries.reserveCapacity(scan.jobsByKey.count)
        var pending: [(keyHex: String, source: String, jobs: [String])] = []
        for (keyHex, jobs) in scan.jobsByKey {
            let sortedJobs = jobs.sorted()
            let source = sources[sortedJobs[0]].map { FileStore.split($0).name } ?? sortedJobs[0]
            if let entry = previous[keyHex], entry.source == source, entry.jobs == sortedJobs, !redrawn.contains(keyHex) {
                listed.cache.entries[keyHex] = entry
                continue
            }
            pending.append((keyHex, source, sortedJobs))
        }
        // Reading and decoding the records is most of a cold listing's work (100,000 records),
        // read in the order they lie on the disk (`DiskOrder`).
        if pending.count >= EveryCore.minimumItems, let records = try? FileStore.listDirectoryWithInodes(store.recordsDirectory) {
            var inodes: [Substring: UInt64] = [:]
            inodes.reserveCapacity(records.count)
            for (name, inode) in records where name.hasSuffix(".json") { inodes[name.dropLast(5)] = inode }
            pending = DiskOrder.sorted(pending) { inodes[$0.keyHex[...]] ?? .max }
        }
        let fileTimes = scan.fileTimes
        let built = EveryCore.map(pending, .readingFiles) { item -> (track: ListingTrack, entry: ListingCache.Entry)? in
            guard let track = listingTrack(item.keyHex, source: item.source, jobs: item.jobs, fileTimes: fileTimes) else { return nil }
            let fragments = TrackFragments(track)
            let entry = ListingCache.Entry(
                source: item.source, jobs: item.jobs, sortTime: track.sortTime, month: track.month,
                digest: ListingCache.digest(fragments.json), json: fragments.json[...], card: fragments.card[...])
            return (track, entry)
        }
        for (item, result) in zip(pending, built) {
            guard let (track, entry) = result else {
                listed.unpublished += item.jobs.count
                continue
            }
            listed.cache.entries[item.keyHex] = entry
            listed.cache.added.append(item.keyHex)
            listed.built[item.keyHex] = track
        }
        return listed
    }

    /// A listed track from its published record; nil when the record is not there (yet).
    func listingTrack(_ keyHex: String, source: String, jobs: [String], fileTimes: [String: Int64]) -> ListingTrack? {
        guard let key = CacheKey(hex: keyHex), let record = store.record(key) else { return nil }
        return ListingTrack(record: record, source: source, jobs: jobs, fileTime: Double(fileTimes[jobs[0]] ?? 0) / 1e9)
    }
}
