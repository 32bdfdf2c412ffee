import ContentHash
import FileStore
import JobQueue
import ThumbnailCache

#if canImport(Glibc)
import Glibc
#endif

extension ListingBuilder {
    /// A job in done/ that the last complete listing did not have.
    private struct NewJob {
        var name: String
        var status: FileStatus
        var content: SHA256Digest
    }

    /// A track to add: its key, job, entry and what its detail page is made from.
    private struct NewTrack {
        var key: String
        var job: NewJob
        var track: ListingTrack
        var entry: ListingCache.Entry
    }

    /// The refresh when all that changed since the last complete listing is new jobs in done/,
    /// each a new track sorting after every listed one (new recordings: the common case), done
    /// without reading the per-track cache, the detail pages' manifest or every key: done/ is
    /// compared with the catalog by name and inode (`ListingCatalog.inodesByName`), the new jobs
    /// hashed, and the pages planned from the listing's order (`ListingOrder`), whose newest
    /// records name the cache lines of the cards the newest pages show. Only the numbered pages
    /// whose tracks or pager can change (the last three before and every new one) are planned;
    /// the others are as the manifest says. At 100,000 tracks this reads ≈ 20 MB instead of
    /// ≈ 290 MB and hashes no listed key.
    ///
    /// Nil (the caller makes the full refresh, which gives the same pages) when anything else is
    /// so: a job gone, renamed or replaced; a new job with other links, sharing a key, without a
    /// published record, or dated before the newest track; the state files not as the stamp
    /// names them (`ListingStamp.State`: a refresh killed after changing one, whose next refresh
    /// then is a full one); a published file to repair; a prune due; a job redrawn.
    func appendNewest(
        _ occasion: ListingOccasion, _ previous: ListingStamp?, settingsHex: String, doneSnapshot: DirectorySnapshot?, detailsTrusted: Bool
    ) throws(FileError) -> ListingReport? {
        guard let previous, let state = previous.state, let inputsSum = previous.inputsSum, detailsTrusted,
            !previous.hasLinkedJobs, previous.settingsHex == settingsHex, previous.trackCount == state.orderCount, state.orderCount > 0,
            ListingStamp.FileIdentity(of: catalogPath) == state.catalog, ListingStamp.FileIdentity(of: cachePath) == state.cache,
            ListingStamp.FileIdentity(of: orderPath) == state.order
        else { return nil }
        if occasion.pruneLimitNanoseconds != nil && FileStore.exists(prunePendingPath) { return nil }
        guard let jobs = try newJobs(knownContent: occasion.knownContent), !jobs.isEmpty,
            let order = ListingOrder.load(orderPath, count: state.orderCount), let added = newTracks(jobs, after: order, redrawn: occasion.redrawn)
        else { return nil }
        let site = SiteWriter(root: store.root, manifestPath: manifestPath)
        let (manifestOnDisk, manifestLines) = site.loadManifest(includingDetails: false)
        var manifest = manifestOnDisk
        let oldPages = (order.count + pageSize - 1) / pageSize
        guard !manifestLines.detailsInPages, try site.verify(&manifest, checkingDetails: false) == 0,
            SiteWriter.topFiles.allSatisfy({ manifest[$0] != nil }),
            (1...oldPages).allSatisfy({ manifest[IndexPages.fileName(page: $0)] != nil && manifest[SiteWriter.partPath($0)] != nil })
        else { return nil }
        // A page's digest changes with its tracks and with how many newer pages its pager shows
        // (up to 3), so the pages from three before the old last one on are planned.
        let lowestPage = max(1, oldPages - 2)
        let count = order.count + added.count
        let cache = try MappedFile(cachePath, maximumBytes: 1 << 40)
        guard let older = olderItems(order, cache: cache, count: count - (lowestPage - 1) * pageSize - added.count) else { return nil }
        let newest = added.reversed().map {
            IndexPages.Item(id: $0.key, month: $0.entry.month, card: $0.entry.card, json: $0.entry.json, digest: $0.entry.digest)
        }
        let months = order.months(after: newest.map(\.month))
        let index = IndexPages(newest: newest + older, count: count, months: months, pageSize: pageSize)
        let plan = SitePlan(index: index, pages: lowestPage...max(lowestPage, index.pageCount), manifest: manifest)

        var sum = inputsSum
        for track in added { sum.add(key: track.key, jobs: [track.job.name]) }
        let stampHex = inputsStamp(sum, trackCount: count)
        var overview = OverviewPublisher.Report()
        let details = added.reversed().map { SitePlan.File(id: $0.key, digest: $0.entry.digest, bytes: DetailPage.html($0.track)) }
        let applied = try site.apply(plan, detailPages: DetailPages(details), manifest: &manifest, sweepingDetails: false) { () throws(FileError) in
            let years = Set(months.map { Int($0.month.prefix(4)) ?? 0 })
            overview = try refreshOverview(order, added: added, cache: cache, inputStamp: stampHex, years: years)
        }
        try site.saveManifest(manifest, over: manifestOnDisk, lines: manifestLines)
        // The state files, each appended to, then the stamp that names them as they now are.
        var records: [ListingOrder.Record] = []
        try ListingCache.append(added.map { ($0.key, $0.entry) }, to: cachePath) { key, line in
            guard let track = added.first(where: { $0.key == key }), let bytes = CacheKeyBytes(hex: key) else { return }
            records.append(
                ListingOrder.Record(
                    key: bytes, sortTime: track.entry.sortTime, digest: track.entry.digest, cacheLine: line, cardBytes: track.entry.card.count,
                    month: track.entry.month))
        }
        let orderKept = try ListingOrder.append(records, to: orderPath, after: order.count)
        try ListingCatalog.append(added.map { ($0.job.name, ListingCatalog.Entry($0.job.status, contentHex: $0.job.content.hex)) }, to: catalogPath)
        let stamp = ListingStamp(
            inputsHex: stampHex, settingsHex: settingsHex, done: doneSnapshot,
            details: DirectorySnapshot.take(store.root + "/" + SiteWriter.detailDirectory), trackCount: count, hasLinkedJobs: false,
            inputsSum: sum, state: orderKept && records.count == added.count ? currentState(orderCount: count) : nil)
        // An overview whose map was not whole is drawn again by the next refresh: no stamp.
        if overview.basemapProblems.isEmpty {
            for snapshot in [stamp.done, stamp.details] { snapshot?.waitUntilSettled() }
            try stamp.save(stampPath)
        } else {
            try FileStore.remove(stampPath)
        }

        var report = ListingReport()
        report.tracks = count
        report.hashed = jobs.count(where: { occasion.knownContent[$0.name] == nil })
        report.rewrote = true
        report.pagesWritten = applied.filesWritten
        report.bytesWritten = applied.bytesWritten
        report.pagesRemoved = applied.filesRemoved
        report.overviewRegions = overview.regions
        report.overviewRegionsDrawn = overview.regionsUpdated + overview.regionsRebuilt
        report.pruned = try pruneIfDue(referenced: [], olderThan: occasion.pruneLimitNanoseconds, pending: false)
        return report
    }

    /// The jobs in done/ that the catalog does not know (by name and inode), with their content
    /// hash (`knownContent`'s, else read and hashed); nil when a job the catalog knows is gone or
    /// replaced, or a new one has other links or cannot be read.
    private func newJobs(knownContent: [String: SHA256Digest]) throws(FileError) -> [NewJob]? {
        guard let known = ListingCatalog.inodesByName(catalogPath) else { return nil }
        var matched = 0
        var jobs: [NewJob] = []
        for (name, inode) in try FileStore.listDirectoryWithInodes(queue.layout.done) where !name.hasPrefix(".") {
            if known[ListingCatalog.nameHash(name)] == inode {
                matched += 1
                continue
            }
            let path = queue.layout.done + "/" + name
            guard let status = try FileStore.status(path) else { return nil }
            guard status.isRegularFile else { continue }
            guard status.linkCount == 1 else { return nil }
            if let content = knownContent[name] {
                jobs.append(NewJob(name: name, status: status, content: content))
            } else {
                guard let bytes = try? FileStore.readFile(path) else { return nil }
                jobs.append(NewJob(name: name, status: status, content: SHA256.hash(bytes)))
            }
        }
        return matched == known.count ? jobs : nil
    }

    /// The tracks of `jobs`, oldest first; nil unless each is a new key of one job, with its
    /// record published, sorting after the newest track of `order`, and no listed track's record
    /// was `redrawn` (a run redraws the tracks it adds, and an incomplete one in place).
    private func newTracks(_ jobs: [NewJob], after order: ListingOrder, redrawn: Set<String>) -> [NewTrack]? {
        let keys = jobs.map { CacheKey(content: $0.content, settings: fingerprint).hex }
        guard Set(keys).count == keys.count, let sources = archiveSources(jobs.map(\.name)),
            !order.containsAny(of: Set(keys).union(redrawn).compactMap(CacheKeyBytes.init(hex:)))
        else { return nil }
        var added: [NewTrack] = []
        for (job, key) in zip(jobs, keys) {
            guard
                let track = listingTrack(
                    key, source: sources[job.name] ?? job.name, jobs: [job.name], fileTimes: [job.name: job.status.modificationNanoseconds])
            else { return nil }
            let fragments = TrackFragments(track)
            let entry = ListingCache.Entry(
                source: track.source, jobs: [job.name], sortTime: track.sortTime, month: track.month, digest: ListingCache.digest(fragments.json),
                json: fragments.json[...], card: fragments.card[...])
            added.append(NewTrack(key: key, job: job, track: track, entry: entry))
        }
        added.sort { ($0.entry.sortTime, $0.key) < ($1.entry.sortTime, $1.key) }
        let newest = order.record(order.count - 1)
        guard let first = added.first, (first.entry.sortTime, first.key) > (newest.sortTime, newest.key.hex) else { return nil }
        return added
    }

    /// The newest `count` tracks of `order`, newest first, their cards and JSON read from the
    /// per-track cache's lines; nil when a line is not the record's track (the cache was replaced).
    private func olderItems(_ order: ListingOrder, cache: MappedFile, count: Int) -> [IndexPages.Item]? {
        var items: [IndexPages.Item] = []
        items.reserveCapacity(count)
        for position in stride(from: order.count - 1, through: order.count - count, by: -1) {
            let record = order.record(position)
            guard let (key, entry) = ListingCache.entry(in: cache.bytes, at: record.cacheLine), key == record.key.hex,
                entry.digest == record.digest, entry.month == record.month
            else { return nil }
            items.append(IndexPages.Item(id: key, month: entry.month, card: entry.card, json: entry.json, digest: entry.digest))
        }
        return items
    }

    /// The overview brought to the listing of `order` and `added`, whose `years` the listing's
    /// months give: a listed track's card (for its region's page) is cut from its cache line when
    /// asked for, through positions by key made at the first such question (none when no region
    /// is drawn).
    private func refreshOverview(
        _ order: ListingOrder, added: [NewTrack], cache: MappedFile, inputStamp: String, years: Set<Int>
    ) throws(FileError) -> OverviewPublisher.Report {
        var listed = order.trackKeys()
        var newEntries: [String: ListingCache.Entry] = [:]
        for track in added {
            newEntries[track.key] = track.entry
            if let key = TrackKey(hex: track.key) { listed.append(key) }
        }
        var positions: ListingOrder.KeyPositions?
        // The short way's conditions (no track redrawn, renamed or gone) keep every listed card.
        return try overviewPublisher.refresh(
            listedKeys: listed, inputStamp: inputStamp, years: years, cardsUnchanged: true, added: added.compactMap { TrackKey(hex: $0.key) }
        ) { id in
            if let entry = newEntries[id] { return Self.overviewTrack(entry) }
            if positions == nil { positions = order.keyPositions() }
            return positions.flatMap { order.position(of: id, in: $0) }.flatMap { order.overviewTrack($0, cache: cache) }
        }
    }

    /// The source file name of each of `jobs` the archive index names (`ArchiveIndex`), found in
    /// its bytes without loading it: a line ending in a tab and the job's name (no other field
    /// can: tabs and newlines inside a field are escaped). Nil when a job is named twice (the
    /// full refresh picks one as `ArchiveIndex.pathsByJobName` does).
    private func archiveSources(_ jobs: [String]) -> [String: String]? {
        guard let bytes = try? FileStore.readFile(queue.layout.archiveIndex, maximumBytes: 1 << 30) else { return [:] }
        var sources: [String: String] = [:]
        for job in jobs {
            let needle = Array(("\t" + TabSeparated.escape(job) + "\n").utf8)
            var found: [String] = []
            var from = 0
            while let end = Self.find(needle, in: bytes, from: from) {
                from = end
                let lineStart = (bytes[..<(end - 1)].lastIndex(of: 0x0A) ?? -1) + 1
                let line = Array(bytes[lineStart..<end])
                TabSeparated.forEachRecord(in: line) { fields in
                    func text(_ index: Int) -> String { String(decoding: line[fields[index]], as: UTF8.self) }
                    guard fields.count == 5, Int(text(1)) != nil, Int64(text(2)) != nil, UInt64(text(3)) != nil else { return }
                    found.append(FileStore.split(TabSeparated.unescape(text(0))).name)
                }
            }
            guard found.count <= 1 else { return nil }
            sources[job] = found.first
        }
        return sources
    }

    /// The end of the first `needle` (which starts with a tab) in `bytes` from `start` on: each
    /// tab found with `memchr` is compared with it.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { wanted in
                guard let base = haystack.baseAddress, let first = wanted.first else { return nil }
                var position = start
                while position + wanted.count <= haystack.count, let hit = memchr(base + position, Int32(first), haystack.count - position) {
                    let offset = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                    if offset + wanted.count <= haystack.count && memcmp(base + offset, wanted.baseAddress!, wanted.count) == 0 {
                        return offset + wanted.count
                    }
                    position = offset + 1
                }
                return nil
            }
        }
    }
}
