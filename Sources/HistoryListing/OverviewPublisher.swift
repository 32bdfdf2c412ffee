import ArchiveOverview
import ContentHash
import FileStore
import ThumbnailCache

/// Keeps the archive overview (`overview.html`, `index/overview.json`, `overview/*.png`) in step
/// with the listed tracks, at the cost of what changed: a new track's record is read for its
/// extent and route (`TrackRecord.overviewRoute`), its region's kept counts
/// (`Output/.tracksnap/overview/regions/<region>`) get it added, and that region's pictures are
/// drawn again; no other track is read unless its region's frame changes (then the region is
/// drawn from its members' routes, still without reading a track file).
///
/// Order of writing, so a `kill -9` anywhere leaves old pictures served and the next refresh
/// repairs: each region's pictures, then its counts (a refresh killed between them applies the
/// same change to the old counts again), then the page and `index/overview.json`, then the
/// catalog, the region index (`OverviewRegionIndex`: a region made of the same tracks is shown
/// from it without reading its counts) and the stamp; regions no longer planned are removed last.
package struct OverviewPublisher {
    /// Folder of the region pictures, relative to Output/.
    static let directory = "overview"
    /// The page, relative to Output/.
    static let pageName = "overview.html"
    /// The part of index.json that lists the regions, relative to Output/.
    static let partPath = SiteWriter.partDirectory + "/overview.json"

    /// The store whose records the overview reads and under whose root it publishes.
    package let store: ThumbnailStore
    /// How regions are made and drawn. Default: `OverviewOptions()`.
    package var options = OverviewOptions()

    /// A publisher for `store`'s site.
    package init(store: ThumbnailStore) { self.store = store }

    /// Where the overview keeps its state (`Output/.tracksnap/overview`).
    package var stateDirectory: String { store.stateDirectory + "/overview" }
    private var regionsDirectory: String { stateDirectory + "/regions" }
    private var stampPath: String { stateDirectory + "/stamp" }
    private var catalogPath: String { stateDirectory + "/tracks" }
    private var regionIndexPath: String { stateDirectory + "/regions.index" }

    /// A region's file stem: the first 16 hex digits of its id (its oldest track's cache key).
    package static func fileStem(_ regionID: String) -> String { String(regionID.prefix(16)) }

    /// What a refresh did.
    package struct Report: Equatable {
        /// Regions shown.
        package var regions = 0
        /// Regions whose counts changed by adding or removing tracks.
        package var regionsUpdated = 0
        /// Regions drawn from their members' routes.
        package var regionsRebuilt = 0
        /// Listed tracks whose record keeps no route (rendered by an earlier version).
        package var tracksWithoutRoute = 0
        /// The id of the last region drawn (updated or rebuilt); empty when none was.
        package var newest = ""
    }

    /// Brings the overview to the tracks `listed` (their cache keys; a key whose record is not
    /// published yet is left out, and the stamp is not kept, so a later refresh adds it).
    /// `inputStamp`, when given, already stands for every listed key (the listing's own stamp of
    /// done/), which saves sorting and hashing them again; nil hashes `listed`.
    package func refresh(listed: Set<String>, inputStamp: String? = nil) throws(FileError) -> Report {
        try FileStore.createDirectories([store.root + "/" + Self.directory, store.root + "/" + SiteWriter.partDirectory, regionsDirectory])
        let stamp = stampText(listed, inputStamp: inputStamp)
        if (try? FileStore.readFile(stampPath, maximumBytes: 4096)).map({ String(decoding: $0, as: UTF8.self) }) == stamp,
            let regions = try? FileStore.listDirectory(regionsDirectory), publishedFilesExist(regions)
        {
            return Report(regions: regions.count)
        }
        var report = Report()
        var records = RecordReader(store: store)
        var catalog = OverviewCatalog.load(catalogPath)
        var complete = true, catalogChanged = false
        for id in listed where catalog.entries[id] == nil {
            if let record = records.record(id) {
                catalog.entries[id] = OverviewCatalog.Entry(record)
                catalogChanged = true
            } else {
                complete = false
            }
        }
        for id in catalog.entries.keys where !listed.contains(id) {
            catalog.entries[id] = nil
            catalogChanged = true
        }
        report.tracksWithoutRoute = catalog.entries.values.reduce(0) { $0 + ($1.hasRoute ? 0 : 1) }
        let extents = catalog.entries.filter(\.value.hasRoute).sorted { $0.key < $1.key }.compactMap { id, entry in
            TrackExtent(id: id, bboxDegrees: entry.bbox, startTime: entry.startTime)
        }
        let plans = OverviewAtlas.plan(extents, options: options)
        var regionIndex = OverviewRegionIndex.load(regionIndexPath)
        var shown: [OverviewPage.Region] = []
        for plan in plans {
            let stem = Self.fileStem(plan.id)
            let statePath = regionsDirectory + "/" + stem
            let digest = OverviewRegionIndex.digest(plan, scales: options.scales)
            let imagePaths = options.scales.map { store.root + "/" + OverviewPage.imagePath(stem: stem, scale: $0) }
            if let kept = regionIndex.entries[stem], kept.digest == digest, FileStore.exists(statePath), imagePaths.allSatisfy(FileStore.exists) {
                shown.append(kept.region)
                continue
            }
            let previous = (try? FileStore.readFile(statePath)).flatMap(RegionOverview.init(stateBytes:))
            let (region, update) = OverviewAtlas.update(previous, to: plan, scales: options.scales) { records.route($0) }
            if update != .unchanged || !imagePaths.allSatisfy(FileStore.exists) {
                var files: [(bytes: [UInt8], path: String)] = []
                for (index, path) in imagePaths.enumerated() {
                    do {
                        files.append((try region.png(scaleIndex: index), path))
                    } catch {
                        throw FileError("encode the overview picture", path, code: 0, reason: error.description)
                    }
                }
                try FileStore.writeAtomically(files)
                try FileStore.writeAtomically(region.stateBytes(), to: statePath, permissions: 0o600)
            }
            switch update {
            case .unchanged: break
            case .incremental: report.regionsUpdated += 1
            case .rebuilt: report.regionsRebuilt += 1
            }
            if update != .unchanged { report.newest = plan.id }
            let shownRegion = OverviewPage.Region(
                stem: stem, trackCount: region.trackCount, distanceMeters: region.distanceMeters, widthPoints: region.frame.widthPoints,
                heightPoints: region.frame.heightPoints, mapRect: region.frame.mapRect, scales: region.scales)
            regionIndex.entries[stem] = OverviewRegionIndex.Entry(digest: digest, region: shownRegion)
            shown.append(shownRegion)
        }
        let shownStems = Set(shown.map(\.stem))
        for stem in regionIndex.entries.keys where !shownStems.contains(stem) { regionIndex.entries[stem] = nil }
        shown.sort { ($0.trackCount, $1.stem) > ($1.trackCount, $0.stem) }
        report.regions = shown.count
        try FileStore.writeAtomically([
            (OverviewPage.html(shown, tracksLeftOut: report.tracksWithoutRoute), store.root + "/" + Self.pageName),
            (OverviewPage.json(shown), store.root + "/" + Self.partPath),
        ])
        try removeRegions(except: Set(shown.map(\.stem)))
        // One batch, the stamp last: a refresh killed before it does the work again.
        var state = [(bytes: regionIndex.bytes(), path: regionIndexPath)]
        if catalogChanged { state.insert((catalog.bytes(), catalogPath), at: 0) }
        if complete { state.append((Array(stamp.utf8), stampPath)) } else { try FileStore.remove(stampPath) }
        try FileStore.writeAtomically(state, permissions: 0o600)
        return report
    }

    /// The stamp of a refresh's inputs: the options and every listed key (or `inputStamp`, which
    /// stands for them).
    private func stampText(_ listed: Set<String>, inputStamp: String?) -> String {
        var hash = SHA256()
        hash.update("overview 1 \(options)\n")
        if let inputStamp {
            hash.update(inputStamp + "\n")
        } else {
            for id in listed.sorted() { hash.update(id + "\n") }
        }
        return hash.finalize().hex
    }

    /// Whether the page, the part and every kept region's pictures are on disk.
    private func publishedFilesExist(_ regionStems: [String]) -> Bool {
        FileStore.exists(store.root + "/" + Self.pageName) && FileStore.exists(store.root + "/" + Self.partPath)
            && regionStems.allSatisfy { stem in
                options.scales.allSatisfy { FileStore.exists(store.root + "/" + OverviewPage.imagePath(stem: stem, scale: $0)) }
            }
    }

    /// Removes the kept counts and pictures of regions not in `stems` (merged, emptied).
    private func removeRegions(except stems: Set<String>) throws(FileError) {
        for name in try FileStore.listDirectory(regionsDirectory) where !name.hasPrefix(".") && !stems.contains(name) {
            for scale in options.scales { try FileStore.remove(store.root + "/" + OverviewPage.imagePath(stem: name, scale: scale)) }
            try FileStore.remove(regionsDirectory + "/" + name)
        }
    }
}

/// Records read once per refresh (or per poster), and the routes in them.
struct RecordReader {
    let store: ThumbnailStore
    private var cache: [String: TrackRecord] = [:]

    init(store: ThumbnailStore) { self.store = store }

    mutating func record(_ id: String) -> TrackRecord? {
        if let record = cache[id] { return record }
        guard let key = CacheKey(hex: id), let record = store.record(key) else { return nil }
        cache[id] = record
        return record
    }

    mutating func route(_ id: String) -> OverviewRoute? {
        guard let record = record(id), let text = record.overviewRoute, let segments = RouteCoding.decode(text) else { return nil }
        return OverviewRoute(id: id, segments: segments, distanceMeters: record.distanceM, startTime: record.startTime)
    }
}
