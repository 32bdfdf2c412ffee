import ArchiveOverview
import ContentHash
import FileStore

/// One region of a refresh: its pictures (every year's with its thumbnail, then each year's),
/// its page, and what is removed when regions and years go.
extension OverviewPublisher {
    /// What a refresh carries from region to region.
    struct Work {
        /// The records read so far.
        var records: RecordReader
        /// The pictures and pages as kept, updated as they are written.
        var regionIndex: OverviewRegionIndex
        /// What was done.
        var report = Report()
    }

    /// Brings one planned region's pictures and page up to date and returns what the pages show
    /// of it.
    func publishRegion(
        _ plan: RegionPlan, options: OverviewOptions, listing: (String) -> ListedTrack?, work: inout Work
    ) throws(FileError) -> OverviewPage.Region {
        let stem = plan.named?.slug ?? Self.fileStem(plan.id)
        let shape = OverviewPage.Picture(
            stem: stem, trackCount: 0, distanceMeters: 0, widthPoints: plan.frame.widthPoints, heightPoints: plan.frame.heightPoints,
            mapRect: plan.frame.mapRect, scales: options.scales, thumbnailScales: options.thumbnailScales(for: plan.frame))
        var region = OverviewPage.Region(picture: try publishPicture(plan, shape: shape, work: &work), name: plan.named?.name)
        var membersByYear: [Int: [String]] = [:]
        var cards: [(id: String, track: ListedTrack)] = []
        for id in plan.members {
            guard let track = listing(id) else { continue }
            membersByYear[track.year, default: []].append(id)
            cards.append((id, track))
        }
        // Each year's picture has the region's frame: the same streets in the same place, year after year.
        for (year, members) in membersByYear.sorted(by: { $0.key < $1.key }) {
            var yearShape = shape
            yearShape.stem = stem + ".\(year)"
            yearShape.thumbnailScales = []
            let yearPlan = RegionPlan(id: plan.id, members: members, frame: plan.frame)
            region.years.append((year, try publishPicture(yearPlan, shape: yearShape, work: &work)))
        }
        cards.sort { ($0.track.sortTime, $0.id) > ($1.track.sortTime, $1.id) }
        var hash = SHA256()
        hash.update("region page 1\n\(region.name ?? "")\n")
        for picture in [region.picture] + region.years.map(\.picture) { hash.update("\(picture)\n") }
        for card in cards { hash.update("\(card.id) \(card.track.year) \(card.track.digest)\n") }
        let digest = hash.finalize().hex
        let path = store.root + "/" + region.page
        if work.regionIndex.pages[stem] != digest || !FileStore.exists(path) {
            let page = OverviewPage.regionHTML(region, cards: cards.map { OverviewPage.Card(year: $0.track.year, card: $0.track.card) })
            try FileStore.writeAtomically(page, to: path)
            work.regionIndex.pages[stem] = digest
        }
        return region
    }

    /// Brings one picture (its images at every scale of `shape`, detail then thumbnail, and its
    /// kept counts) to `plan`: as kept when the plan's digest is the one kept and every file is
    /// there, else updated on the kept counts or drawn again (`OverviewAtlas.update`).
    func publishPicture(_ plan: RegionPlan, shape: OverviewPage.Picture, work: inout Work) throws(FileError) -> OverviewPage.Picture {
        let scales = shape.scales + shape.thumbnailScales
        let statePath = regionsDirectory + "/" + shape.stem
        let digest = OverviewRegionIndex.digest(plan, scales: scales)
        let imagePaths = (shape.images + shape.thumbnails).map { store.root + "/" + $0.path }
        if let kept = work.regionIndex.entries[shape.stem], kept.digest == digest, FileStore.exists(statePath),
            imagePaths.allSatisfy(FileStore.exists)
        {
            return kept.picture
        }
        let previous = (try? FileStore.readFile(statePath)).flatMap(RegionOverview.init(stateBytes:))
        let (region, update) = OverviewAtlas.update(previous, to: plan, scales: scales) { work.records.route($0) }
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
        case .incremental: work.report.regionsUpdated += 1
        case .rebuilt: work.report.regionsRebuilt += 1
        }
        if update != .unchanged { work.report.newest = String(shape.stem.prefix { $0 != "." }) }
        var picture = shape
        picture.trackCount = region.trackCount
        picture.distanceMeters = region.distanceMeters
        work.regionIndex.entries[shape.stem] = OverviewRegionIndex.Entry(digest: digest, picture: picture)
        return picture
    }

    /// Whether the page, the part, the pages of `years` and every kept picture's images (and each
    /// region's page) are on disk; `states` are the names of the kept counts (`<region>` or
    /// `<region>.<year>`).
    func publishedFilesExist(_ states: [String], years: [Int]) -> Bool {
        let root = store.root + "/"
        guard FileStore.exists(root + Self.pageName), FileStore.exists(root + Self.partPath),
            years.allSatisfy({ FileStore.exists(root + OverviewPage.yearPagePath($0)) })
        else { return false }
        return states.allSatisfy { stem in
            if stem.hasPrefix(".") { return true }
            let region = !stem.contains(".")
            return options.scales.allSatisfy { scale in
                FileStore.exists(root + OverviewPage.imagePath(stem: stem, scale: scale))
                    && (!region || FileStore.exists(root + OverviewPage.imagePath(stem: stem, scale: scale, thumbnail: true)))
            } && (!region || FileStore.exists(root + OverviewPage.regionPagePath(stem: stem)))
        }
    }

    /// Removes the pictures, kept counts and pages of regions and years no longer shown: pictures
    /// whose counts are kept and not in `livePictures` (regions merged or emptied, a year a region
    /// no longer has), region pages not of `liveRegions`, year pages not of `years`.
    func removeStale(livePictures: Set<String>, liveRegions: Set<String>, years: Set<Int>, options: OverviewOptions) throws(FileError) {
        let root = store.root + "/"
        for name in try FileStore.listDirectory(regionsDirectory) where !name.hasPrefix(".") && !livePictures.contains(name) {
            for scale in options.scales {
                try FileStore.remove(root + OverviewPage.imagePath(stem: name, scale: scale))
                try FileStore.remove(root + OverviewPage.imagePath(stem: name, scale: scale, thumbnail: true))
            }
            try FileStore.remove(regionsDirectory + "/" + name)
        }
        // By name, not by the kept counts: a page a killed refresh left is removed all the same.
        for name in try FileStore.listDirectory(store.root) where name.hasSuffix(".html") {
            if name.hasPrefix("region-"), !liveRegions.contains(String(name.dropFirst(7).dropLast(5))) {
                try FileStore.remove(root + name)
            } else if let year = SitePlan.numbered(name, prefix: "overview-", suffix: ".html"), !years.contains(year) {
                try FileStore.remove(root + name)
            }
        }
    }
}
