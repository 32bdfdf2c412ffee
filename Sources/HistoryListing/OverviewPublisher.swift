import ArchiveOverview
import ContentHash
import FileStore
import Synchronization
import ThumbnailCache

/// Keeps the archive overview (`overview.html`, `index/overview.json`, `overview/*.png`, a page
/// per region `region-<region>.html` and per year `overview-<year>.html`) in step with the listed
/// tracks, at the cost of what changed: a new track's record is read for its extent and route
/// (`TrackRecord.overviewRoute`), the kept counts of its region and of its region in its year
/// (`Output/.tracksnap/overview/regions/<region>`, `<region>.<year>`) get it added, those two
/// pictures are drawn again and its region's page written again; no other track is read unless
/// its region's frame changes (then the region's pictures are drawn from their members' routes,
/// still without reading a track file).
///
/// Order of writing, so a `kill -9` anywhere leaves old pictures served and the next refresh
/// repairs: each region's pictures, then its counts (a refresh killed between them applies the
/// same change to the old counts again), then its page; the year pages; then each picture's
/// tile list, the page and `index/overview.json`; pictures and pages no longer planned are removed; then the region
/// index (`OverviewRegionIndex`: a picture made of the same tracks is shown from it without
/// reading its counts; its changes appended to a journal), the catalog and the stamp.
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
    /// The regions the style names (`ThumbnailSettings.overviewRegions`), which replace
    /// `options.namedRegions` and are kept for later refreshes; nil: the ones kept (a `listing`
    /// given no style lists as the runs did). Default: nil.
    package var namedRegions: [NamedRegion]?
    /// The map drawn under every picture (the run's basemap); nil draws them over the grid paper.
    /// Its stamp is part of each picture's digest and of the refresh's stamp, so a change of map
    /// draws every picture again. Default: nil.
    package var basemap: (any OverviewBasemap)?

    /// A publisher for `store`'s site.
    package init(store: ThumbnailStore) { self.store = store }

    /// Where the overview keeps its state (`Output/.tracksnap/overview`).
    package var stateDirectory: String { store.stateDirectory + "/overview" }
    var regionsDirectory: String { stateDirectory + "/regions" }
    /// The tracks added to each picture's counts since they were written whole (`CountsJournal`).
    var journalDirectory: String { stateDirectory + "/added" }
    private var stampPath: String { stateDirectory + "/stamp" }
    private var catalogPath: String { stateDirectory + "/tracks" }
    /// The region index's files (`OverviewRegionIndex+Journal`).
    var regionIndexFiles: OverviewRegionIndex.Files { OverviewRegionIndex.Files(directory: stateDirectory) }
    private var namedRegionsPath: String { stateDirectory + "/named-regions" }

    /// Cards on a region's page and on each of its numbered pages (`RegionPages`). Default: 60,
    /// as on an index page (`ListingBuilder.pageSize`, which a listing hands on).
    package var cardsPerPage = 60

    /// Tracks a picture's counts journal holds before the counts are written whole
    /// (`CountsJournal`): replaying them reads as many records (tens of microseconds each), so
    /// 128 keep the load within a few milliseconds while a busy city's counts (megabytes) are
    /// written once every 128 new tracks instead of for each. Default: 128.
    package var journalLimit = 128

    /// A region's file stem: the first 16 hex digits of its id (its oldest track's cache key);
    /// a named region's is its slug (`NamedRegion.slug`).
    package static func fileStem(_ regionID: String) -> String { String(regionID.prefix(16)) }

    /// What a refresh did.
    package struct Report: Equatable {
        /// Regions shown.
        package var regions = 0
        /// Pictures (a region's, or a region's in one year) whose counts changed by adding or
        /// removing tracks.
        package var regionsUpdated = 0
        /// Pictures drawn from their members' routes.
        package var regionsRebuilt = 0
        /// Listed tracks whose record keeps no route (rendered by an earlier version).
        package var tracksWithoutRoute = 0
        /// The file stem of the last region drawn (updated or rebuilt); empty when none was.
        package var newest = ""
        /// Why part of a picture's map is missing (the basemap's file named), one line each, at
        /// most 5; those pictures are drawn again by the next refresh. Empty without a basemap.
        package var basemapProblems: [String] = []
    }

    /// What the overview's pages need of a listed track from the listing: the year it is filed
    /// under (its listing month's), its sort time and card for the region's page, and the digest
    /// of what the card is made of (`ListingCache.Entry`).
    package struct ListedTrack {
        /// The year of the listing month the track is filed under.
        package var year: Int
        /// The time the listing sorts by.
        package var sortTime: Double
        /// The track's card on the index pages.
        package var card: CardBytes
        /// Changes when the card does.
        package var digest: UInt64
    }

    /// What the listing would show of the track of `record` filed as a job named after its id
    /// (for callers without a listing: the benchmark); nil when the record is not there.
    package func listedTrack(_ id: String) -> ListedTrack? {
        guard let key = CacheKey(hex: id), let record = store.record(key) else { return nil }
        let track = ListingTrack(record: record, source: id + ".gpx", jobs: [id + ".gpx"], fileTime: 0)
        let fragments = TrackFragments(track)
        return ListedTrack(
            year: Int(track.month.prefix(4)) ?? 0, sortTime: track.sortTime, card: CardBytes(fragments.card[...]),
            digest: ListingCache.digest(fragments.json))
    }

    /// Brings the overview to the tracks `listed` (their cache keys; a key whose record is not
    /// published yet is left out, and the stamp is not kept, so a later refresh adds it).
    /// `inputStamp`, when given, already stands for every listed key (the listing's own stamp of
    /// done/), which saves sorting and hashing them again; nil hashes `listed`. `years`, when
    /// given, are the years the listing files its tracks under (`ListedTrack.year` of every
    /// listed track), which saves asking `listing` for each. `listing` gives what the listing
    /// shows of a listed track (nil: not listed); it is called only when something is to be
    /// done, and then for the members of the regions. `cardsUnchanged`: every track listed at the
    /// last complete refresh still shows the same card and year (a listing that only added
    /// tracks), so the regions those tracks alone make are shown as kept without asking `listing`.
    /// `added`, with `cardsUnchanged`: the listed tracks the last complete refresh did not list
    /// (some may be known all the same); when the catalog, with them, has the listing's count and
    /// set digest (`OverviewCatalog.setDigest`), it is the listing, and `listed` is not compared
    /// with it key by key.
    ///
    /// The order of writing makes every link point at a file already there: a region's pictures
    /// (every year's, then each year's) and counts, then its page; the year pages; then each
    /// picture's tile list, `overview.html` and `index/overview.json`. The caller writes the track pages the region
    /// pages link before, and the index pages that link the overview after.
    package func refresh(
        listed: Set<String>, inputStamp: String? = nil, years knownYears: Set<Int>? = nil, cardsUnchanged: Bool = false,
        added: [String]? = nil, listing: (String) -> ListedTrack?
    ) throws(FileError) -> Report {
        let keys = listed.compactMap(TrackKey.init(hex:))
        return try refresh(
            listedKeys: keys, allCacheKeys: keys.count == listed.count, inputStamp: inputStamp, years: knownYears, cardsUnchanged: cardsUnchanged,
            added: added?.compactMap(TrackKey.init(hex:)), listing: listing)
    }

    /// `refresh(listed:…)` given the listed tracks' keys (each once), as the listing keeps them:
    /// 100,000 ids are not made into strings and parsed back. `allCacheKeys` false: some listed
    /// id was not a cache key (it has no record, so the refresh is not complete).
    func refresh(
        listedKeys: [TrackKey], allCacheKeys: Bool = true, inputStamp: String? = nil, years knownYears: Set<Int>? = nil,
        cardsUnchanged: Bool = false, added: [TrackKey]? = nil, listing: (String) -> ListedTrack?
    ) throws(FileError) -> Report {
        try FileStore.createDirectories([
            store.root + "/" + Self.directory, store.root + "/" + OverviewPage.tileListDirectory, regionsDirectory, journalDirectory,
        ])
        let keptNamed = keptNamedRegions()
        var options = self.options
        options.namedRegions = namedRegions ?? keptNamed
        let stamp = Self.stampText(listedKeys, inputStamp: inputStamp, options: options, basemapStamp: basemap?.stamp)
        let kept = (try? FileStore.readFile(stampPath, maximumBytes: 1 << 16)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let keptLines = kept.split(separator: "\n", omittingEmptySubsequences: false)
        if keptLines.first.map(String.init) == stamp, let states = try? FileStore.listDirectory(regionsDirectory),
            publishedFilesExist(states, years: keptLines.dropFirst().compactMap { Int($0) })
        {
            return Report(regions: states.filter { !$0.contains(".") }.count)
        }
        var work = Work(regionIndex: OverviewRegionIndex.load(regionIndexFiles))
        work.cardsUnchanged = cardsUnchanged
        work.records.use(store)
        var catalog = OverviewCatalog.load(catalogPath)
        var complete = true
        var catalogAdded: [TrackKey] = []
        var pending: [(TrackKey, OverviewCatalog.Entry)] = []
        // Reads the records of `keys` the catalog lacks and adds their entries (`complete` false
        // when one cannot be read: it is added by a later refresh).
        func add(_ keys: [TrackKey]) {
            for key in keys where !catalog.contains(key) {
                if let record = work.records.record(key.hex) {
                    catalogAdded.append(key)
                    pending.append((key, OverviewCatalog.Entry(record)))
                } else {
                    complete = false
                }
            }
            for (key, entry) in pending { catalog.insert(key, entry) }
            pending = []
            catalog.settle()
        }
        // Only tracks added (the caller's word): when the catalog then has the listing's count and
        // set digest, it is the listing, and the listing's 100,000 keys are not sorted against it.
        // The digest, not the word alone: a refresh killed after saving the catalog can leave
        // a track in it that is gone from the listing by the next.
        if cardsUnchanged, let added { add(added) }
        // An id that is not a cache key has no record: never listed whole.
        if !allCacheKeys { complete = false }
        let same = cardsUnchanged && added != nil && catalog.count == listedKeys.count && catalog.setDigest == OverviewCatalog.setDigest(listedKeys)
        var catalogRemoved = false
        if !same {
            let wanted = listedKeys.sorted()
            add(wanted)
            catalogRemoved = catalog.keepOnly { key in
                var low = 0, high = wanted.count
                while low < high {
                    let middle = (low + high) / 2
                    if wanted[middle] < key { low = middle + 1 } else { high = middle }
                }
                return low < wanted.count && wanted[low] == key
            }
        }
        work.report.tracksWithoutRoute = catalog.tracksWithoutRoute
        let extents = catalog.routedInIDOrder().compactMap { id, entry in TrackExtent(id: id, bboxDegrees: entry.bbox, startTime: entry.startTime) }
        var shown: [OverviewPage.Region] = []
        let years = knownYears ?? Set(listedKeys.compactMap { listing($0.hex)?.year })
        for plan in OverviewAtlas.plan(extents, options: options) {
            shown.append(try publishRegion(plan, options: options, listing: listing, work: &work))
        }
        shown.sort { ($0.picture.trackCount, $1.picture.stem) > ($1.picture.trackCount, $0.picture.stem) }
        var report = work.report
        report.regions = shown.count
        let sortedYears = years.sorted()
        for year in sortedYears {
            let path = store.root + "/" + OverviewPage.yearPagePath(year)
            let page = OverviewPage.yearHTML(year, regions: shown, years: sortedYears)
            if !Self.isOnDisk(page, at: path) { try FileStore.writeAtomically(page, to: path) }
        }
        // Each picture's tile list before the part that names it, when it is not on disk as it
        // should be (compared, as the year pages are: a few kilobytes each, and whatever a killed
        // refresh left, the list then names the tiles the pages name).
        let shownPictures = shown.flatMap { region in [region.picture] + region.years.map(\.picture) }
        var tileLists: [(bytes: [UInt8], path: String)] = []
        var listed: Set<String> = []
        for picture in shownPictures where listed.insert(picture.stem).inserted {
            let path = store.root + "/" + OverviewPage.tileListPath(stem: picture.stem), list = OverviewPage.tileList(picture)
            if !Self.isOnDisk(list, at: path) { tileLists.append((list, path)) }
        }
        try FileStore.writeAtomically(tileLists)
        try FileStore.writeAtomically([
            (OverviewPage.html(shown, years: sortedYears, tracksLeftOut: report.tracksWithoutRoute), store.root + "/" + Self.pageName),
            (OverviewPage.json(shown, years: sortedYears), store.root + "/" + Self.partPath),
        ])
        let live = Set(shownPictures.map(\.stem))
        var regionIndex = work.regionIndex
        for stem in regionIndex.entries.keys where !live.contains(stem) { regionIndex.entries[stem] = nil }
        for stem in regionIndex.regions.keys where !live.contains(stem) { regionIndex.regions[stem] = nil }
        for name in regionIndex.pages.keys where !work.regionPages.contains(name) { regionIndex.pages[name] = nil }
        let liveImages = Set(shownPictures.flatMap(imagePaths).map { String($0.dropFirst(store.root.count + 1)) })
        try removeStale(livePictures: live, liveImages: liveImages, liveRegionPages: work.regionPages, years: years)
        // One batch, the stamp last: a refresh killed before it does the work again.
        var state: [(bytes: [UInt8], path: String)] = []
        if let namedRegions, namedRegions != keptNamed { state.append((Self.bytes(of: namedRegions), namedRegionsPath)) }
        // New tracks only: their entries written over the catalog's end (fsynced before the stamp).
        var catalogSaved = false
        if !catalogRemoved { catalogSaved = try catalog.save(catalogPath, added: catalogAdded) }
        if !catalogSaved { state.insert((catalog.bytes(), catalogPath), at: 0) }
        // The stamp names the years, so an unchanged refresh can check their pages are there.
        let stampFile = ([stamp] + sortedYears.map(String.init)).joined(separator: "\n")
        if complete && report.basemapProblems.isEmpty { state.append((Array(stampFile.utf8), stampPath)) } else { try FileStore.remove(stampPath) }
        // The region index's changes appended to its journal before the batch (or the whole
        // index written first in it).
        try regionIndex.save(regionIndexFiles, thenWrite: state)
        return report
    }

    /// Whether the file at `path` holds exactly `bytes` (a page, list or thumbnail that need not be
    /// written again); false when it is missing, unreadable or of another size.
    static func isOnDisk(_ bytes: [UInt8], at path: String) -> Bool {
        (try? FileStore.readFile(path, maximumBytes: bytes.count + 1)) == bytes
    }

    /// The stamp of a refresh's inputs: the options, the basemap's stamp and every listed key (or
    /// `inputStamp`, which stands for them).
    private static func stampText(_ listed: [TrackKey], inputStamp: String?, options: OverviewOptions, basemapStamp: String?) -> String {
        var hash = SHA256()
        // "3": region pages are paged (`RegionPages`): a site an older version listed gets them
        // at its next refresh, not at its next new track. "4": pictures cut into tiles.
        hash.update("overview 4 \(options)\n")
        if let basemapStamp { hash.update("basemap \(basemapStamp)\n") }
        if let inputStamp {
            hash.update(inputStamp + "\n")
        } else {
            for key in listed.sorted() { hash.update(key.hex + "\n") }
        }
        return hash.finalize().hex
    }

    /// The named regions the last refresh given some kept (`namedRegions`).
    func keptNamedRegions() -> [NamedRegion] {
        Self.namedRegions(from: (try? FileStore.readFile(namedRegionsPath, maximumBytes: 1 << 20)) ?? [])
    }

    /// Named regions as kept: one line each, `name \t west \t south \t east \t north` (the
    /// numbers as Swift writes a double, which reads back exactly).
    static func bytes(of regions: [NamedRegion]) -> [UInt8] {
        Array(regions.map { TabSeparated.line([$0.name] + $0.boundsDegrees.map { "\($0)" }) }.joined().utf8)
    }

    /// The named regions kept in `bytes` (lines that do not read are left out).
    static func namedRegions(from bytes: [UInt8]) -> [NamedRegion] {
        TabSeparated.records(bytes).compactMap { fields in
            let numbers = fields.dropFirst().compactMap(Double.init)
            guard fields.count == 5, numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
            return NamedRegion(name: fields[0], boundsDegrees: numbers)
        }
    }
}

/// A `RecordReader` the pictures drawn at once share (one reads at a time: a refresh reads few
/// records, and reading one is far shorter than drawing a picture).
final class SharedRecords: Sendable {
    private let reader: Mutex<RecordReader?> = Mutex(nil)

    /// Sets the store the records are read from (before the first read).
    func use(_ store: ThumbnailStore) { reader.withLock { $0 = RecordReader(store: store) } }

    /// The record of track `id` (read once).
    func record(_ id: String) -> TrackRecord? { reader.withLock { $0?.record(id) } }

    /// The route kept in track `id`'s record.
    func route(_ id: String) -> OverviewRoute? { reader.withLock { $0?.route(id) } }
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
