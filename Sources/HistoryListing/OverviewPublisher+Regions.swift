import ArchiveOverview
import ContentHash
import Dispatch
import FileStore
import Synchronization

/// One region of a refresh: its pictures (every year's with its thumbnail, then each year's),
/// its page, and what is removed when regions and years go.
extension OverviewPublisher {
    /// What a refresh carries from region to region.
    struct Work {
        /// The records read so far, shared by the pictures drawn at once.
        let records = SharedRecords()
        /// The pictures and pages as kept, updated as they are written.
        var regionIndex: OverviewRegionIndex
        /// What was done.
        var report = Report()
        /// The region pages written or kept (file names under Output/): any other is stale.
        var regionPages: Set<String> = []
        /// Whether every track listed at the last complete refresh shows the same card and year
        /// (the caller vouches: a refresh that only added tracks), so a region whose members did
        /// not change is shown as kept (`keptRegion`).
        var cardsUnchanged = false
    }

    /// One picture of a region to bring up to date: its plan (members and frame) and what the
    /// pages will show of it (its stem and scales; the counts are filled in when drawn).
    struct PictureJob: Sendable {
        var plan: RegionPlan
        var shape: OverviewPage.Picture
        /// The digest of `plan` at the shape's scales (`OverviewRegionIndex.digest`).
        var digest: String
    }

    /// Brings one planned region's pictures and page up to date and returns what the pages show
    /// of it.
    func publishRegion(
        _ plan: RegionPlan, options: OverviewOptions, listing: (String) -> ListedTrack?, work: inout Work
    ) throws(FileError) -> OverviewPage.Region {
        let stem = plan.named?.slug ?? Self.fileStem(plan.id)
        let shape = OverviewPage.Picture(
            stem: stem, trackCount: 0, distanceMeters: 0, widthPoints: plan.frame.widthPoints, heightPoints: plan.frame.heightPoints,
            mapRect: plan.frame.mapRect, scales: options.scales, thumbnailScales: options.thumbnailScales(for: plan.frame),
            tilePoints: options.tilePoints)
        let mapStamp = basemap?.stamp
        let digest = OverviewRegionIndex.digest(plan, scales: shape.allScales, tilePoints: shape.tilePoints, basemapStamp: mapStamp)
        if work.cardsUnchanged, let kept = keptRegion(plan, stem: stem, digest: digest, work: &work) { return kept }
        var membersByYear: [Int: [String]] = [:]
        var cards: [(id: String, track: ListedTrack)] = []
        for id in plan.members {
            guard let track = listing(id) else { continue }
            membersByYear[track.year, default: []].append(id)
            cards.append((id, track))
        }
        // Each year's picture has the region's frame: the same streets in the same place, year after
        // year. A region of one year shows its own picture for that year: it would be the same.
        var jobs = [PictureJob(plan: plan, shape: shape, digest: digest)]
        let years = membersByYear.keys.sorted()
        let oneYear = years.count == 1 && cards.count == plan.members.count
        for year in years where !oneYear {
            var yearShape = shape
            yearShape.stem = stem + ".\(year)"
            yearShape.thumbnailScales = []
            let yearPlan = RegionPlan(id: plan.id, members: membersByYear[year]!, frame: plan.frame, named: plan.named)
            let yearDigest = OverviewRegionIndex.digest(
                yearPlan, scales: yearShape.allScales, tilePoints: yearShape.tilePoints, basemapStamp: mapStamp)
            jobs.append(PictureJob(plan: yearPlan, shape: yearShape, digest: yearDigest))
        }
        let pictures = try publishPictures(jobs, work: &work)
        var region = OverviewPage.Region(picture: pictures[0], name: plan.named?.name)
        if oneYear {
            var same = pictures[0]
            same.thumbnailScales = []
            region.years = [(years[0], same)]
        } else {
            region.years = Array(zip(years, pictures.dropFirst()))
        }
        // Positions sorted, not the tuples: moving 40,000 of them was most of the sort.
        let newestFirst = cards.indices.sorted { (cards[$0].track.sortTime, cards[$0].id) > (cards[$1].track.sortTime, cards[$1].id) }
        let pages = RegionPages(
            region: region,
            cards: newestFirst.map { cards[$0] }.map { ($0.id, $0.track.digest, OverviewPage.Card(year: $0.track.year, card: $0.track.card)) },
            perPage: cardsPerPage)
        region.yearLinks = pages.yearLinks
        // The numbered pages first: the front page links them.
        for number in Array(1..<pages.pageCount + 1) + [0] {
            let name = number == 0 ? pages.frontPage : pages.fileName(page: number)
            let pageDigest = pages.digest(ofPage: number)
            work.regionPages.insert(name)
            if work.regionIndex.pages[name] != pageDigest || !FileStore.exists(store.root + "/" + name) {
                try FileStore.writeAtomically(pages.html(ofPage: number), to: store.root + "/" + name)
                work.regionIndex.pages[name] = pageDigest
            }
        }
        work.regionIndex.regions[stem] = OverviewRegionIndex.Summary(
            digest: digest, years: years, oneYear: oneYear, pageCount: pages.pageCount, cardsPerPage: cardsPerPage, yearLinks: region.yearLinks)
        return region
    }

    /// The region as the last refresh showed it, when its picture's `digest` (frame, map and
    /// members) and its pages' size are as kept, and every picture, count and page of it is on
    /// disk: with the caller's word that no card or year changed (`Work.cardsUnchanged`), its
    /// year pictures and pages are then as kept too, so the listing is not asked for its
    /// members' cards (40,000 in a busy city) and nothing is written. Nil otherwise.
    private func keptRegion(_ plan: RegionPlan, stem: String, digest: String, work: inout Work) -> OverviewPage.Region? {
        guard let summary = work.regionIndex.regions[stem], summary.digest == digest, summary.cardsPerPage == cardsPerPage,
            let kept = work.regionIndex.entries[stem], kept.digest == digest
        else { return nil }
        var region = OverviewPage.Region(picture: kept.picture, name: plan.named?.name)
        var pictures = [kept.picture]
        if summary.oneYear, let year = summary.years.first {
            var same = kept.picture
            same.thumbnailScales = []
            region.years = [(year, same)]
        } else {
            for year in summary.years {
                // A year's picture whose map was not whole keeps a digest no plan has: drawn again.
                guard let entry = work.regionIndex.entries[stem + ".\(year)"], entry.digest != Self.incompleteDigest else { return nil }
                region.years.append((year, entry.picture))
                pictures.append(entry.picture)
            }
        }
        region.yearLinks = summary.yearLinks
        let pages = [region.page] + (0..<summary.pageCount).map { RegionPages.fileName(stem: stem, page: $0 + 1) }
        guard pages.allSatisfy({ FileStore.exists(store.root + "/" + $0) }),
            pictures.allSatisfy({ FileStore.exists(regionsDirectory + "/" + $0.stem) && imagePaths($0).allSatisfy(FileStore.exists) })
        else { return nil }
        work.regionPages.formUnion(pages)
        return region
    }

    /// The digest kept for a picture whose map was not whole: no plan has it.
    static let incompleteDigest = "incomplete map"

    /// Brings `jobs` up to date and returns their pictures in order: a picture whose digest is
    /// the one kept and whose files are all there is shown as kept; the others are drawn at once,
    /// as many at a time as there are cores (one new track changes two pictures of its region:
    /// every year's and its year's, each some 100 ms of decoding, drawing and encoding).
    func publishPictures(_ jobs: [PictureJob], work: inout Work) throws(FileError) -> [OverviewPage.Picture] {
        var pictures: [OverviewPage.Picture?] = jobs.map { job in
            guard let kept = work.regionIndex.entries[job.shape.stem], kept.digest == job.digest,
                FileStore.exists(regionsDirectory + "/" + job.shape.stem), imagePaths(kept.picture).allSatisfy(FileStore.exists)
            else { return nil }
            return kept.picture
        }
        let pending = jobs.indices.filter { pictures[$0] == nil }
        let keptEntries = pending.map { work.regionIndex.entries[jobs[$0].shape.stem] }
        let results = Mutex<[Int: Result<DrawnPicture, FileError>]>([:])
        let records = work.records
        DispatchQueue.concurrentPerform(iterations: pending.count) { position in
            let index = pending[position]
            let kept = keptEntries[position]
            let result = Result { () throws(FileError) in
                try drawPicture(jobs[index], keptDigest: kept?.digest, keptPicture: kept?.picture, records: records)
            }
            results.withLock { $0[index] = result }
        }
        let drawn = results.withLock { $0 }
        for index in pending {
            let (picture, update, problems) = try drawn[index]!.get()
            for problem in problems where work.report.basemapProblems.count < 5 && !work.report.basemapProblems.contains(problem) {
                work.report.basemapProblems.append(problem)
            }
            switch update {
            case .unchanged: break
            case .incremental: work.report.regionsUpdated += 1
            case .rebuilt: work.report.regionsRebuilt += 1
            }
            if update != .unchanged { work.report.newest = String(picture.stem.prefix { $0 != "." }) }
            // A picture whose map is not whole keeps a digest no plan has: the next refresh draws it again.
            let digest = problems.isEmpty ? jobs[index].digest : Self.incompleteDigest
            work.regionIndex.entries[picture.stem] = OverviewRegionIndex.Entry(digest: digest, picture: picture)
            pictures[index] = picture
        }
        return pictures.map { $0! }
    }

    /// The absolute paths of a picture's files: its detail images' tiles (none before it is
    /// drawn), then its thumbnails.
    func imagePaths(_ shape: OverviewPage.Picture) -> [String] {
        (shape.images.flatMap { $0.tiles.map(\.path) } + shape.thumbnails.map(\.path)).map { store.root + "/" + $0 }
    }

    /// A picture drawn: what the pages show of it, how its counts changed, and why part of its
    /// map is missing (`OverviewMapPicture.problems`).
    typealias DrawnPicture = (picture: OverviewPage.Picture, update: RegionUpdate, problems: [String])

    /// One picture brought to its plan from its kept counts (`OverviewAtlas.update`), its images
    /// drawn and written, then its counts. Its images are drawn again when its counts changed,
    /// a file is missing, its tiles are not known (`keptPicture`, as the region index keeps it),
    /// or (over a map, whose pixels the counts do not decide) the digest they were drawn under
    /// (`keptDigest`) is not the job's: another map, or one not whole.
    ///
    /// Drawn again, a detail image is cut into tiles (`PictureTiling`) and only the tiles whose
    /// digest names no file yet are encoded and written: a new track changes the tiles it
    /// passes (the ramp's top moves seldom: `DensityRamp.topStep`), and over a map the map
    /// under the others is the same too. Tiles no page names any more are removed after the
    /// pages (`removeStale`), so a page never names a tile that is gone.
    func drawPicture(
        _ job: PictureJob, keptDigest: String?, keptPicture: OverviewPage.Picture?, records: SharedRecords
    ) throws(FileError) -> DrawnPicture {
        let statePath = regionsDirectory + "/" + job.shape.stem
        let journal = CountsJournal(path: journalDirectory + "/" + job.shape.stem)
        var previous = (try? FileStore.readFile(statePath)).flatMap(RegionOverview.init(stateBytes:))
        let journaled = previous == nil ? [] : journal.ids()
        // Taken out of the optional before it is changed: a copy of a city's counts is megabytes.
        if !journaled.isEmpty, let kept = previous.take() {
            previous = CountsJournal.replay(journaled, onto: kept) { records.route($0) }
        }
        // The tracks the counts get (the journal's next lines), found before `update` takes them.
        let added = previous.map { kept in job.plan.members.filter { !kept.members.contains($0) } } ?? []
        let (region, update) = OverviewAtlas.update(previous.take(), to: job.plan, scales: job.shape.allScales) { records.route($0) }
        // Drawn over another map (or over the grid) when the kept digest differs and a map is
        // involved now or was then; without a map the counts alone decide the pixels.
        let mapChanged = keptDigest.map { $0 != job.digest } ?? (basemap != nil)
        var picture = job.shape
        picture.trackCount = region.trackCount
        picture.distanceMeters = region.distanceMeters
        var kept = job.shape
        kept.tileDigests = keptPicture.map { $0.tiling == job.shape.tiling && $0.scales == job.shape.scales ? $0.tileDigests : [] } ?? []
        var problems: [String] = []
        guard update != .unchanged || mapChanged || kept.tileDigests.isEmpty || !imagePaths(kept).allSatisfy(FileStore.exists) else {
            picture.tileDigests = kept.tileDigests
            return (picture, update, problems)
        }
        var files: [(bytes: [UInt8], path: String)] = []
        for (index, scale) in job.shape.scales.enumerated() {
            var image = region.tiledImage(scaleIndex: index, tilePoints: job.shape.tilePoints, labelScale: scale, basemap: basemap)
            problems += image.problems.filter { !problems.contains($0) }
            picture.tileDigests.append(image.digests)
            for (tile, digest) in image.digests.enumerated() {
                let path = store.root + "/" + OverviewPage.tilePath(stem: job.shape.stem, index: tile, digest: digest, scale: scale)
                // A file of this name holds these pixels (written whole by a rename): kept as it is.
                if FileStore.exists(path) { continue }
                do {
                    files.append((try image.png(tile: tile), path))
                } catch {
                    throw FileError("encode the overview picture", path, code: 0, reason: error.description)
                }
            }
        }
        // The thumbnails stay whole (320×240 points: a few dozen kilobytes), after the detail scales
        // in the counts; one whose bytes are those on disk is not written again (a track through
        // streets already drawn often changes no pixel at that size).
        for (offset, thumbnail) in job.shape.thumbnails.enumerated() {
            let path = store.root + "/" + thumbnail.path, scaleIndex = job.shape.scales.count + offset
            let png: [UInt8]
            do {
                if let basemap {
                    let drawn = try region.png(scaleIndex: scaleIndex, labelScale: thumbnail.scale, basemap: basemap)
                    png = drawn.png
                    problems += drawn.problems.filter { !problems.contains($0) }
                } else {
                    png = try region.png(scaleIndex: scaleIndex)
                }
            } catch {
                throw FileError("encode the overview picture", path, code: 0, reason: error.description)
            }
            if !Self.isOnDisk(png, at: path) { files.append((png, path)) }
        }
        try FileStore.writeAtomically(files)
        if case .incremental(_, removed: 0) = update, !added.isEmpty, journaled.count + added.count <= journalLimit {
            try journal.append(added)
        } else {
            try FileStore.writeAtomically(region.stateBytes(), to: statePath, permissions: 0o600)
            try journal.remove()
        }
        return (picture, update, problems)
    }

    /// Whether the page, the part, the pages of `years` and every kept picture's files (its tiles
    /// and thumbnails as the region index names them, its tile list, and each region's page) are on disk;
    /// `states` are the names of the kept counts (`<region>` or `<region>.<year>`). A picture the
    /// index does not know is not there.
    func publishedFilesExist(_ states: [String], years: [Int]) -> Bool {
        let root = store.root + "/"
        guard FileStore.exists(root + Self.pageName), FileStore.exists(root + Self.partPath),
            years.allSatisfy({ FileStore.exists(root + OverviewPage.yearPagePath($0)) }),
            let files = try? Set(FileStore.listDirectory(root + Self.directory))
        else { return false }
        let index = OverviewRegionIndex.load(regionIndexFiles)
        let prefix = Self.directory + "/"
        return states.allSatisfy { stem in
            if stem.hasPrefix(".") { return true }
            guard let entry = index.entries[stem], !entry.picture.tileDigests.isEmpty else { return false }
            let picture = entry.picture
            let paths = picture.images.flatMap { $0.tiles.map(\.path) } + picture.thumbnails.map(\.path)
            return paths.allSatisfy { $0.hasPrefix(prefix) && files.contains(String($0.dropFirst(prefix.count))) }
                && (stem.contains(".") || FileStore.exists(root + OverviewPage.regionPagePath(stem: stem)))
                && FileStore.exists(root + OverviewPage.tileListPath(stem: stem))
        }
    }

    /// Removes the pictures, kept counts and pages of regions and years no longer shown: pictures
    /// whose counts are kept and not in `livePictures` (regions merged or emptied, a year a region
    /// no longer has), every image in `overview/` not in `liveImages` (paths relative to Output/:
    /// the tiles and thumbnails the pages now name; a tile replaced by one of other pixels goes
    /// here, after the pages that name its successor), region pages not in `liveRegionPages`
    /// (file names), year pages not of `years`, tile lists of pictures not in `livePictures`.
    func removeStale(livePictures: Set<String>, liveImages: Set<String>, liveRegionPages: Set<String>, years: Set<Int>) throws(FileError) {
        let root = store.root + "/"
        for name in try FileStore.listDirectory(regionsDirectory) where !name.hasPrefix(".") && !livePictures.contains(name) {
            try FileStore.remove(regionsDirectory + "/" + name)
            try FileStore.remove(journalDirectory + "/" + name)
        }
        // By name: a tile a killed refresh wrote and no page names is removed all the same.
        for name in try FileStore.listDirectory(root + Self.directory) where !name.hasPrefix(".") && name.hasSuffix(".png") {
            if !liveImages.contains(Self.directory + "/" + name) { try FileStore.remove(root + Self.directory + "/" + name) }
        }
        let lists = root + OverviewPage.tileListDirectory
        for name in (try? FileStore.listDirectory(lists)) ?? [] where name.hasSuffix(".json") && !livePictures.contains(String(name.dropLast(5))) {
            try FileStore.remove(lists + "/" + name)
        }
        // By name, not by the kept counts: a page a killed refresh left is removed all the same.
        for name in try FileStore.listDirectory(store.root) where name.hasSuffix(".html") {
            if name.hasPrefix("region-"), !liveRegionPages.contains(name) {
                try FileStore.remove(root + name)
            } else if let year = SitePlan.numbered(name, prefix: "overview-", suffix: ".html"), !years.contains(year) {
                try FileStore.remove(root + name)
            }
        }
    }
}
