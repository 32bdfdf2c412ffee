import ArchiveOverview
import ContentHash
import FileStore
import FoundationEssentials
import JobQueue
import ThumbnailCache

/// What a listing refresh did.
package struct ListingReport: Sendable, Equatable {
    /// Tracks listed.
    package var tracks = 0
    /// Jobs in done/ whose images are not published under the current settings (not listed).
    package var unpublished = 0
    /// Jobs whose bytes were hashed because the catalog did not know them.
    package var hashed = 0
    /// Whether index.json and index.html were rewritten (false: nothing changed).
    package var rewrote = false
    /// Images and records removed because nothing references them any more.
    package var pruned = 0
    /// Pages (and index.json, site.css) written.
    package var pagesWritten = 0
    /// Bytes of the pages and parts written (images and state files not counted).
    package var bytesWritten = 0
    /// Detail and index pages removed because their track or page number is gone.
    package var pagesRemoved = 0
    /// Published files found deleted, edited or replaced since they were written (so written again).
    package var repaired = 0
    /// Regions on the overview page (`OverviewPublisher`).
    package var overviewRegions = 0
    /// Overview regions whose pictures were drawn again (tracks added or removed, or redrawn).
    package var overviewRegionsDrawn = 0
    /// True when done/ held no finished job while the site lists tracks, and nothing was written
    /// or pruned (see `ListingBuilder.allowsEmptying`).
    package var refusedToEmpty = false

    /// An empty report.
    package init() {}
}

/// Rebuilds the site (`index.html`, `page-N.html`, `tracks/<id>.html`, `site.css`, `index.json`)
/// from the jobs in done/ and the published records, and prunes what no track references. Safe to
/// run while workers publish: it lists only keys whose record exists (so only images already
/// published) and writes each page atomically. Per-track pieces are cached (`ListingCache`) and a
/// file is rewritten only when its inputs changed (`SitePlan`, carried out by `SiteWriter`), so a
/// refresh costs little more than concatenating the index pages.
///
/// A refresh, in order: scan done/ (`scanDone`); stop if that would empty a listed site; if the
/// stamp of its inputs is unchanged and every file is as written, only sweep and prune; else
/// bring the per-track cache up to date, plan, write, and keep the manifest, cache and stamp;
/// then save the catalog and prune as the occasion allows (`ListingOccasion`).
package struct ListingBuilder: Sendable {
    /// The queue whose done/ folder is the history.
    package let queue: JobQueue
    /// The published thumbnails.
    package let store: ThumbnailStore

    /// A builder over `queue` and `store`.
    package init(queue: JobQueue, store: ThumbnailStore) {
        self.queue = queue
        self.store = store
        fingerprint = store.fingerprint
    }

    /// Cards per index page. Default: 60.
    package var pageSize = 60

    /// The settings fingerprint the listed images were rendered under: it makes each job's cache
    /// key. Default: the store's (`store.fingerprint`); a listing given no settings uses the one
    /// the runs recorded instead (`Output/.tracksnap/settings`).
    package var fingerprint: SHA256Digest

    /// Every folder where the site and the images are staged before renaming: the reaper sweeps
    /// what a killed run left in them (detail pages' and index parts' temporaries included). The
    /// one list of them: a folder the site writes into and this list leaves out keeps a killed
    /// run's temporaries for good.
    package var stagingDirectories: [String] {
        store.stagingDirectories
            + [SiteWriter.detailDirectory, SiteWriter.partDirectory, OverviewPage.tileListDirectory, OverviewPublisher.directory].map {
                store.root + "/" + $0
            }
            + [store.stateDirectory + "/overview", store.stateDirectory + "/overview/regions"]
    }

    /// The regions the style file names for the overview (`OverviewPublisher.namedRegions`); nil
    /// keeps the ones the last refresh given some used. Default: nil.
    package var overviewRegions: [NamedRegion]?

    /// The map under the overview's pictures (`OverviewPublisher.basemap`); nil: the grid. Default: nil.
    package var overviewBasemap: (any OverviewBasemap)?

    /// The overview's publisher as this listing configures it (its regions and map), for every
    /// way a refresh takes: one place, so no way draws another overview.
    var overviewPublisher: OverviewPublisher {
        var publisher = OverviewPublisher(store: store)
        publisher.namedRegions = overviewRegions
        publisher.basemap = overviewBasemap
        publisher.cardsPerPage = pageSize
        return publisher
    }

    /// Whether a refresh may publish an empty site over one that lists tracks. Default: false: a
    /// queue with nothing in done/ is far more often a wrong `--jobs` or an unmounted share than
    /// a wish to empty the site, and a refresh would otherwise delete every image and page.
    package var allowsEmptying = false

    /// The stat cache of done/ (`ListingCatalog`).
    var catalogPath: String { store.stateDirectory + "/catalog" }
    /// The stamp of the last complete listing's inputs (`stamp`).
    var stampPath: String { store.stateDirectory + "/listing" }
    /// The per-track cache (`ListingCache`).
    var cachePath: String { store.stateDirectory + "/listing-cache" }
    /// The manifest of the files written (`SiteWriter`).
    var manifestPath: String { store.stateDirectory + "/pages" }
    /// The listing's order (`ListingOrder`).
    var orderPath: String { store.stateDirectory + "/listing-order" }
    /// Present while a refresh has left images unpruned (an interrupted run, a sharded one, a
    /// listing during a run): the next refresh allowed to prune does so even if nothing changed.
    var prunePendingPath: String { store.stateDirectory + "/prune-pending" }

    /// Refreshes the listing after `occasion`, which also decides whether it prunes
    /// (`ListingOccasion.pruneLimitNanoseconds`).
    package func refresh(after occasion: ListingOccasion) throws(FileError) -> ListingReport {
        try store.prepare()
        // Concurrent runs (lock bypassed, shards, machines) each refresh at their end. Scanning
        // done/ and writing the pages under one lock makes the last refresh see every job acked
        // before it started, so a slower run cannot overwrite a newer listing with an older view.
        let lock = try ExclusiveLock.acquire(store.stateDirectory + "/listing.lock")
        defer { lock.release() }
        return try refreshHoldingLock(occasion)
    }

    private func refreshHoldingLock(_ occasion: ListingOccasion) throws(FileError) -> ListingReport {
        var report = ListingReport()
        let previousStamp = ListingStamp.load(stampPath)
        let settingsHex = settingsStamp()
        // Taken before anything is read: a change after this moves the folders' times again.
        let doneSnapshot = DirectorySnapshot.take(queue.layout.done)
        let detailsSnapshot = DirectorySnapshot.take(store.root + "/" + SiteWriter.detailDirectory)
        let detailsTrusted = previousStamp?.trusts(previousStamp?.details, now: detailsSnapshot) == true
        if let unchanged = try unchangedSinceLastRefresh(
            occasion, previousStamp, settingsHex: settingsHex, doneSnapshot: doneSnapshot, detailsSnapshot: detailsSnapshot)
        {
            return unchanged
        }
        if let appended = try appendNewest(
            occasion, previousStamp, settingsHex: settingsHex, doneSnapshot: doneSnapshot, detailsTrusted: detailsTrusted)
        {
            return appended
        }
        let catalog = ListingCatalog.load(catalogPath)
        let scan = try scanDone(knownContent: occasion.knownContent, catalog: catalog)
        report.hashed = scan.hashed
        if scan.jobsByKey.isEmpty && !allowsEmptying && siteListsTracks() {
            report.refusedToEmpty = true
            return report
        }
        let (stampHex, inputsSum) = stamp(scan.jobsByKey)
        // The listing's tracks, brought up to date once, when the pages or the overview need them.
        var listedTracks: ListedTracks?
        func listing() -> ListedTracks {
            if let listedTracks { return listedTracks }
            let listed = listTracks(scan, redrawn: occasion.redrawn)
            listedTracks = listed
            return listed
        }
        // After the detail pages its region pages link, before the index pages that link it.
        var overview = OverviewPublisher.Report()
        func refreshOverview() throws(FileError) {
            overview = try overviewPublisher.refresh(listed: Set(scan.jobsByKey.keys), inputStamp: stampHex) { id in
                listing().cache.entries[id].map(Self.overviewTrack)
            }
        }
        let site = SiteWriter(root: store.root, manifestPath: manifestPath)
        let (manifestOnDisk, manifestLines) = site.loadManifest()
        var manifest = manifestOnDisk
        report.repaired = try site.verify(&manifest, checkingDetails: !detailsTrusted)
        let referenced: Set<String>
        let prunePending: Bool
        var newStamp = ListingStamp(
            inputsHex: stampHex, settingsHex: settingsHex, done: doneSnapshot, details: detailsSnapshot, trackCount: scan.jobsByKey.count,
            hasLinkedJobs: scan.hasLinkedJobs, inputsSum: inputsSum)
        // The listing's order, if this refresh keeps it: how many records of `listing-order` are this listing's.
        var orderCount: Int?
        var complete = true
        // Whether the rebuild saved the catalog of done/ alongside its pages.
        var catalogSaved = false
        // Unchanged inputs (same jobs, same bytes, same settings) and every file as it was
        // written (one lstat each, see `SiteWriter.verify`): nothing to write. A file deleted or
        // edited since is written again by a rebuild.
        if report.repaired == 0 && SiteWriter.topFiles.allSatisfy({ manifest[$0] != nil }) && previousStamp?.inputsHex == stampHex
            && occasion.redrawn.isDisjoint(with: scan.jobsByKey.keys)
        {
            try refreshOverview()
            report.tracks = scan.jobsByKey.count
            referenced = Set(scan.jobsByKey.keys)
            // Pages no manifest names (a refresh that died before saving it) go all the same.
            let pageCount = (scan.jobsByKey.count + pageSize - 1) / pageSize
            let removals = SitePlan.removals(from: manifest, liveDetails: referenced, pageCount: pageCount)
            report.pagesRemoved = try site.removeStale(
                removals, liveDetails: referenced, pageCount: pageCount, manifest: &manifest, sweepingDetails: !detailsTrusted)
            try site.saveManifest(manifest, over: manifestOnDisk, lines: manifestLines)
            prunePending = FileStore.exists(prunePendingPath)
            // Keeps the snapshots up to date (they settle), so the next refresh need not read done/.
            if report.pagesRemoved > 0 { newStamp.details = DirectorySnapshot.take(store.root + "/" + SiteWriter.detailDirectory) }
            // The same listing: its order stays, if the cache its records point into is as it was.
            if let kept = previousStamp?.state, kept.cache == ListingStamp.FileIdentity(of: cachePath),
                kept.order == ListingStamp.FileIdentity(of: orderPath)
            {
                orderCount = kept.orderCount
            }
        } else {
            let (scanned, loaded, catalogPath) = (scan.catalog, catalog, catalogPath)
            let rebuilt = try rebuild(
                scan, listed: listing(), site: site, manifest: &manifest, sweepingDetails: !detailsTrusted, report: &report,
                alsoSaving: { () throws(FileError) in try scanned.save(catalogPath, over: loaded) }, beforeIndexFiles: refreshOverview)
            catalogSaved = true
            referenced = rebuilt.listed
            try site.saveManifest(manifest, over: manifestOnDisk, lines: manifestLines)
            // The state saved alongside the pages: its failure reported after the manifest is
            // saved, so the next refresh does not write every page again.
            if try rebuilt.stateSaved.get() { orderCount = rebuilt.orderCount }
            // Pages written or removed: the folder as it is now, which the next refresh checks
            // page by page unless it has settled by then.
            newStamp.details = DirectorySnapshot.take(store.root + "/" + SiteWriter.detailDirectory)
            complete = report.unpublished == 0
            prunePending = true
        }
        // Appended to only when a job came, went or changed (100,000 lines cost ~0.2 s to write).
        if !catalogSaved { try scan.catalog.save(catalogPath, over: catalog) }
        // Last, so that it names the state files as they are now (`ListingStamp.State`).
        newStamp.state = orderCount.flatMap(currentState)
        // An overview whose map was not whole is drawn again by the next refresh: no stamp.
        if !complete || !overview.basemapProblems.isEmpty {
            try FileStore.remove(stampPath)
        } else if previousStamp.map({ !newStamp.records(sameAs: $0) }) ?? true {
            for snapshot in [newStamp.done, newStamp.details] { snapshot?.waitUntilSettled() }
            try newStamp.save(stampPath)
        }
        report.pruned = try pruneIfDue(referenced: referenced, olderThan: occasion.pruneLimitNanoseconds, pending: prunePending)
        report.overviewRegions = overview.regions
        report.overviewRegionsDrawn = overview.regionsUpdated + overview.regionsRebuilt
        return report
    }

    /// The refresh when nothing it reads changed since the last complete one, found without
    /// reading done/, the catalog or the per-track cache: the settings are the same, done/ and the
    /// detail pages' folder are as snapshotted (and settled, see `DirectorySnapshot`), no job is a
    /// hard link, the run drew nothing; then only the index pages, parts and top files are checked
    /// (one `lstat` each) and the numbered pages swept. Nil when any of that does not hold, a
    /// published file needs writing again, or a prune is due (it needs every listed key).
    private func unchangedSinceLastRefresh(
        _ occasion: ListingOccasion, _ previous: ListingStamp?, settingsHex: String, doneSnapshot: DirectorySnapshot?,
        detailsSnapshot: DirectorySnapshot?
    ) throws(FileError) -> ListingReport? {
        guard let previous, occasion.knownContent.isEmpty, occasion.redrawn.isEmpty, !previous.hasLinkedJobs,
            previous.settingsHex == settingsHex, previous.trusts(previous.done, now: doneSnapshot),
            previous.trusts(previous.details, now: detailsSnapshot)
        else { return nil }
        if occasion.pruneLimitNanoseconds != nil && FileStore.exists(prunePendingPath) { return nil }
        guard overviewFilesExist() else { return nil }
        let site = SiteWriter(root: store.root, manifestPath: manifestPath)
        // Only the index pages, parts and top files: the detail pages are as they were.
        let (manifestOnDisk, manifestLines) = site.loadManifest(includingDetails: false)
        guard !manifestLines.detailsInPages else { return nil }
        var manifest = manifestOnDisk
        guard try site.verify(&manifest, checkingDetails: false) == 0, SiteWriter.topFiles.allSatisfy({ manifest[$0] != nil }) else { return nil }
        var report = ListingReport()
        report.tracks = previous.trackCount
        let pageCount = (previous.trackCount + pageSize - 1) / pageSize
        report.pagesRemoved = try site.removeStale([], liveDetails: [], pageCount: pageCount, manifest: &manifest, sweepingDetails: false)
        try site.saveManifest(manifest, over: manifestOnDisk, lines: manifestLines)
        report.pruned = try pruneIfDue(referenced: [], olderThan: occasion.pruneLimitNanoseconds, pending: false)
        return report
    }

    /// Whether the overview's pictures and pages are there as its last complete refresh left them
    /// (`OverviewPublisher.publishedFilesExist`, the check its own refresh makes): a refresh that
    /// finds nothing changed does not call the overview, so a picture deleted since makes it a
    /// full refresh, whose overview draws it again.
    private func overviewFilesExist() -> Bool {
        let publisher = OverviewPublisher(store: store)
        guard let stamp = try? FileStore.readFile(publisher.stateDirectory + "/stamp", maximumBytes: 1 << 16),
            let states = try? FileStore.listDirectory(publisher.regionsDirectory)
        else { return false }
        let years = String(decoding: stamp, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { Int($0) }
        return publisher.publishedFilesExist(states, years: years)
    }

    /// Brings the per-track cache up to date, plans the site from it and writes the plan, while
    /// a thread of its own saves the cache, the listing's order (`saveOrder`) and what
    /// `alsoSaving` saves (the catalog of done/). Returns the
    /// listed track ids, how many tracks the order holds, and whether the order was kept or why
    /// the state could not be saved (for the caller to throw once it has saved the manifest).
    ///
    /// The state is saved alongside the pages, not after them: a cold listing's 100,000 page
    /// writes keep one core busy in the kernel for seconds (renames in one folder take turns),
    /// and the card cache (250 MB at 100,000 tracks) and order took as long again on that core
    /// while the other waited. Either order is safe: the cache holds what the records say, the
    /// pages are written again unless the manifest names them, and the stamp that trusts both
    /// is written last.
    private func rebuild(
        _ scan: DoneScan, listed: ListedTracks, site: SiteWriter, manifest: inout [String: SiteWriter.Entry], sweepingDetails: Bool,
        report: inout ListingReport, alsoSaving: @escaping @Sendable () throws(FileError) -> Void,
        beforeIndexFiles: () throws(FileError) -> Void
    ) throws(FileError) -> (listed: Set<String>, orderCount: Int, stateSaved: Result<Bool, FileError>) {
        report.unpublished = listed.unpublished
        let order = listed.cache.entries.sorted { ($0.value.sortTime, $0.key) > ($1.value.sortTime, $1.key) }
        report.tracks = order.count
        let items = order.map {
            IndexPages.Item(id: $0.key, month: $0.value.month, card: $0.value.card, json: $0.value.json, digest: $0.value.digest)
        }
        let plan = SitePlan(items: items, pageSize: pageSize, manifest: manifest)
        // On every core, a chunk at a time while the chunk before is written: a cold listing
        // renders 100,000 of them.
        let (entries, built, fileTimes, planned) = (listed.cache.entries, listed.built, scan.fileTimes, plan.detailPages)
        let detailPages = DetailPages(count: planned.count) { range in
            EveryCore.map(Array(planned[range])) { page -> SitePlan.File? in
                guard let entry = entries[page.id],
                    let track = built[page.id] ?? listingTrack(page.id, source: entry.source, jobs: entry.jobs, fileTimes: fileTimes)
                else { return nil }
                return SitePlan.File(id: page.id, digest: page.digest, bytes: DetailPage.html(track))
            }.compactMap { $0 }
        }
        let (cache, newestFirst, cachePath) = (listed.cache, order.map(\.key), cachePath)
        let (saved, written) = EveryCore.alongside(
            { () -> Result<Bool, FileError> in
                Result { () throws(FileError) in
                    var cache = cache
                    try cache.save(cachePath)
                    let orderSaved = try saveOrder(newestFirst, cache: cache)
                    try alsoSaving()
                    return orderSaved
                }
            },
            {
                Result { () throws(FileError) in
                    try site.apply(
                        plan, detailPages: detailPages, manifest: &manifest, sweepingDetails: sweepingDetails, beforeIndexFiles: beforeIndexFiles)
                }
            })
        let applied = try written.get()
        report.rewrote = true
        report.pagesWritten = applied.filesWritten
        report.bytesWritten = applied.bytesWritten
        report.pagesRemoved = applied.filesRemoved
        return (plan.liveDetails, newestFirst.count, saved)
    }

    /// Keeps the listing's order (`newestFirst`, keys of `cache`, saved) in `listing-order`; false
    /// when it cannot be kept (a month too long for its field).
    private func saveOrder(_ newestFirst: [String], cache: ListingCache) throws(FileError) -> Bool {
        var records: [ListingOrder.Record] = []
        records.reserveCapacity(newestFirst.count)
        for key in newestFirst.reversed() {
            guard let entry = cache.entries[key], let line = entry.line, let bytes = CacheKeyBytes(hex: key) else {
                try FileStore.remove(orderPath)
                return false
            }
            records.append(
                ListingOrder.Record(
                    key: bytes, sortTime: entry.sortTime, digest: entry.digest, cacheLine: line, cardBytes: entry.card.count, month: entry.month))
        }
        return try ListingOrder.save(records, to: orderPath)
    }

    /// The state files as they are now, for a stamp whose listing is the first `orderCount`
    /// records of `listing-order`; nil when one is missing.
    func currentState(orderCount: Int) -> ListingStamp.State? {
        guard let catalog = ListingStamp.FileIdentity(of: catalogPath), let cache = ListingStamp.FileIdentity(of: cachePath),
            let order = ListingStamp.FileIdentity(of: orderPath)
        else { return nil }
        return ListingStamp.State(catalog: catalog, cache: cache, order: order, orderCount: orderCount)
    }

    /// What the overview's pages show of a listed track (`OverviewPublisher.ListedTrack`).
    static func overviewTrack(_ entry: ListingCache.Entry) -> OverviewPublisher.ListedTrack {
        OverviewPublisher.ListedTrack(
            year: Int(entry.month.prefix(4)) ?? 0, sortTime: entry.sortTime, card: OverviewPublisher.CardBytes(entry.card), digest: entry.digest)
    }

    /// The stamp of what every page depends on besides the tracks: settings, template, page size.
    func settingsStamp() -> String {
        var stamp = SHA256()
        stamp.update(fingerprint.bytes)
        // "pages 2": the index pages link the year overviews (the cards are as they were). "pages 3":
        // index.json schema 4, written by the first refresh of a site listed before (no track changed).
        stamp.update(ListingCache.templateVersion + "\npage size \(pageSize)\npages 3\n")
        // Named regions are not in the fingerprint (they change no track's images), but a change
        // of them must reach the overview.
        let named = overviewRegions ?? OverviewPublisher(store: store).keptNamedRegions()
        if !named.isEmpty { stamp.update("overview regions \(named)\n") }
        // So is the overview's map (its stamp carries how the map is faded): a site listed before
        // the overview had a map, or before a change of its fade, draws it at the next refresh.
        if let map = overviewBasemap { stamp.update("overview map \(map.stamp)\n") }
        return stamp.finalize().hex
    }

    /// The stamp of a refresh's inputs: settings, page template and size, and every key with its
    /// jobs (`InputsSum`), and the sum it is made of.
    private func stamp(_ jobsByKey: [String: [String]]) -> (hex: String, sum: InputsSum) {
        var sum = InputsSum()
        for (key, jobs) in jobsByKey { sum.add(key: key, jobs: jobs) }
        return (inputsStamp(sum, trackCount: jobsByKey.count), sum)
    }

    /// The stamp of `trackCount` keys whose lines add up to `sum`.
    func inputsStamp(_ sum: InputsSum, trackCount: Int) -> String {
        var stamp = SHA256()
        stamp.update(settingsStamp() + "\ntracks \(trackCount)\n")
        stamp.update(sum.bytes)
        return stamp.finalize().hex
    }

    /// Every key with its jobs, combined without sorting: the SHA-256 of each key's line, added
    /// word by word (sorting 100,000 keys cost ≈ 0.1 s a refresh, and a changed key still changes
    /// the stamp but for a chance of 2^-256). A sum, so tracks added change it by their lines alone.
    struct InputsSum: Equatable {
        var words: [UInt64] = [0, 0, 0, 0]

        init() {}

        /// Adds the line of `key` listed from `jobs`.
        mutating func add(key: String, jobs: [String]) {
            let line = SHA256.hash(key + "\t" + (jobs.count == 1 ? jobs[0] : jobs.sorted().joined(separator: "\t")) + "\n")
            for lane in 0..<4 {
                let word = line.bytes[(lane * 8)..<(lane * 8 + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                words[lane] &+= word
            }
        }

        /// The words big-endian, 32 bytes.
        var bytes: [UInt8] { words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } } }

        /// 64 hex digits.
        var hex: String { CacheKeyBytes(bytes).hex }

        init?(hex: Substring) {
            guard let bytes = CacheKeyBytes(hex: String(hex))?.bytes else { return nil }
            words = (0..<4).map { lane in bytes[(lane * 8)..<(lane * 8 + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        }
    }
}
