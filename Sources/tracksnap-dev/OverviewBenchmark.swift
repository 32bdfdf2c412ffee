import ArchiveOverview
import BatchRun
import ContentHash
import FileStore
import Foundation
import HistoryListing
import JobQueue
import SnapshotRendering
import StyleFile
import ThumbnailCache
import TrackFormats
import TrackModel
import TrackSynthesis

/// `bench --section overview` (issue 25): 10,000 generated loops over three regions on two
/// continents (Zürich, Vienna, San Francisco), each decoded and turned into its record's route as
/// a worker does (`OverviewRouteMaker`), then the overview published from the records
/// (`OverviewPublisher`, as the listing calls it): cold (every region drawn), one new track (its
/// region updated on the kept counts), unchanged (the stamp check), with the memory of each region.
enum OverviewBenchmark {
    /// The regions: name, [west, south, east, north] degrees, tracks.
    static let regions: [(name: String, bounds: [Double], count: Int)] = [
        ("Zürich", [8.45, 47.33, 8.62, 47.43], 4000), ("Vienna", [16.28, 48.16, 16.46, 48.26], 3000),
        ("San Francisco", [-122.51, 37.72, -122.38, 37.81], 3000),
    ]

    static func run(work: String, tracks total: Int = 10_000) throws {
        let root = work + "/overview-\(total)"
        // TRACKSNAP_BENCH_WARM_ONLY=1 (as in the listing section) keeps the generated tracks and
        // records of an earlier run and measures the overview alone.
        let reuse = ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_WARM_ONLY"] == "1" && FileStore.exists(root + "/setup-done")
        if !reuse { try? FileManager.default.removeItem(atPath: root) }
        let queue = JobQueue(root: root + "/Jobs")
        let store = ThumbnailStore(root: root + "/Output", settings: ThumbnailSettings())
        try queue.prepare()
        try store.prepare()
        print("\nOverview benchmark: \(total) generated tracks over \(regions.map(\.name).joined(separator: ", ")) (release build, one thread)")
        let scale = Double(total - 1) / Double(regions.reduce(0) { $0 + $1.count })
        var routeSeconds = 0.0, routeBytes = 0, fixes = 0, made = 0
        // Generated and recorded 250 at a time: 10,000 GPX files held at once took 2 GB.
        let setup = try timed {
            for (index, region) in regions.enumerated() where !reuse {
                let count = max(1, Int((Double(region.count) * scale).rounded()))
                for chunk in stride(from: 0, to: count, by: 250) {
                    let outline = RegionTracks.outline(boundsLonLat: region.bounds)
                    for file in RegionTracks.files(outlineLonLat: outline, count: min(250, count - chunk), seed: 2500 + UInt64(index * 1000 + chunk))
                    {
                        let name = region.name.prefix(3).lowercased() + "-\(chunk)-" + file.name
                        let result = try record((name, file.contents), store: store, queue: queue)
                        routeSeconds += result.routeSeconds
                        routeBytes += result.routeBytes
                        fixes += result.fixes
                        made += 1
                    }
                }
            }
        }
        try FileStore.writeAtomically([], to: root + "/setup-done")
        let newFile = RegionTracks.files(outlineLonLat: RegionTracks.outline(boundsLonLat: regions[0].bounds), count: 1, seed: 99)[0]
        if reuse {
            try? FileStore.remove(store.recordPath(store.key(content: SHA256.hash(Array(newFile.contents.utf8)))))
            try? FileManager.default.removeItem(atPath: store.stateDirectory + "/overview")
            made = 1
        }
        print("  setup (generate, decode, route, record, job for \(made) tracks): \(format(setup, 1)) s")
        print(
            "  route per track (clean, project, simplify to 1.5 m, encode; part of each render): \(format(routeSeconds / Double(made) * 1000, 2)) ms, "
                + "\(routeBytes / made) bytes in the record (\(fixes / made) fixes a track)")
        let memoryBefore = peakResidentMegabytes()
        let publisher = OverviewPublisher(store: store)
        var listed = Set(try FileStore.listDirectory(store.recordsDirectory).filter { $0.hasSuffix(".json") }.map { String($0.prefix(64)) })
        // What the listing's cache holds of each track (its card, its year), made before timing:
        // the listing keeps it from run to run.
        var listing: [String: OverviewPublisher.ListedTrack] = [:]
        for id in listed { listing[id] = publisher.listedTrack(id) }
        var report = try publisher.refresh(listed: []) { listing[$0] }
        let cold = try timed { report = try publisher.refresh(listed: listed) { listing[$0] } }
        print("  cold: \(format(cold, 2)) s for \(report.regions) regions (target ≤ 10 s)")
        print("  peak resident memory: \(format(memoryBefore, 0)) MB after setup, \(format(peakResidentMegabytes(), 0)) MB after the cold overview")
        let unchanged = try timed { _ = try publisher.refresh(listed: listed) { listing[$0] } }
        print("  unchanged rerun: \(format(unchanged * 1000, 1)) ms (target ≤ 50 ms)")
        _ = try record(("new-" + newFile.name, newFile.contents), store: store, queue: queue)
        listed = Set(try FileStore.listDirectory(store.recordsDirectory).filter { $0.hasSuffix(".json") }.map { String($0.prefix(64)) })
        for id in listed where listing[id] == nil { listing[id] = publisher.listedTrack(id) }
        let added = try timed { report = try publisher.refresh(listed: listed) { listing[$0] } }
        print(
            "  one new track: \(format(added, 3)) s (\(report.regionsUpdated) pictures updated on their counts (its region's, its year's), "
                + "\(report.regionsRebuilt) redrawn, its region's page written; target ≤ 0.3 s)"
        )
        if !report.newest.isEmpty, let page = try? FileStore.readFile(store.root + "/region-" + report.newest + ".html") {
            print("  its region's page (every track's card): \(page.count / 1024) KB")
        }
        try phases(of: newFile.contents, store: store, statePath: publisher.stateDirectory + "/regions/" + OverviewPublisher.fileStem(report.newest))
        try comparePeer(store: store, statePath: publisher.stateDirectory + "/regions/" + OverviewPublisher.fileStem(report.newest), work: root)
        var yearPictures = 0, yearBytes = 0
        for name in try FileStore.listDirectory(publisher.stateDirectory + "/regions").sorted() {
            let bytes = try FileStore.readFile(publisher.stateDirectory + "/regions/" + name)
            // A region's picture of one year (`<region>.<year>`): summed below.
            if name.contains(".") {
                yearPictures += 1
                yearBytes += bytes.count
                continue
            }
            guard let region = RegionOverview(stateBytes: bytes) else { continue }
            let frame = region.frame
            print(
                "  region \(name): \(region.trackCount) tracks, \(frame.widthPoints)×\(frame.heightPoints) pt at \(format(frame.groundMetersPerPoint, 1)) m/pt, "
                    + "counts \(format(Double(region.memoryBytes) / 1_048_576, 1)) MB in memory, \(bytes.count / 1024) KB kept on disk")
        }
        print("  year pictures: \(yearPictures), \(yearBytes / 1024) KB of counts kept on disk in all")
    }

    /// Where one new track's update goes: the steps of `OverviewPublisher` for its region, timed one by one.
    private static func phases(of contents: String, store: ThumbnailStore, statePath: String) throws {
        let key = store.key(content: SHA256.hash(Array(contents.utf8)))
        guard let record = store.record(key), let text = record.overviewRoute, let segments = RouteCoding.decode(text),
            let route = OverviewRoute(id: key.hex + "-again", segments: segments, distanceMeters: record.distanceM, startTime: record.startTime)
        else { return }
        var bytes: [UInt8] = [], region: RegionOverview?
        let read = try timed { bytes = try FileStore.readFile(statePath) }
        let decode = try timed { region = RegionOverview(stateBytes: bytes) }
        guard var region = consume region else { return }
        let add = try timed { region.add(route) }
        var pictures: [[UInt8]] = []
        let draw = try timed { pictures = try region.scales.indices.map { try region.png(scaleIndex: $0) } }
        let encode = try timed { bytes = region.stateBytes() }
        let write = try timed { try FileStore.writeAtomically(bytes, to: store.stateDirectory + "/phase-test", permissions: 0o600) }
        try? FileStore.remove(store.stateDirectory + "/phase-test")
        print(
            "    of which, for its region: read counts \(ms(read)), decode \(ms(decode)), add the route \(ms(add)), draw and encode both pictures "
                + "\(ms(draw)) (\(pictures.map { $0.count / 1024 }) KB), encode counts \(ms(encode)), write them (fsync) \(ms(write))")
    }

    /// The counting alone for the new track's region at @2x: TrackSnap's grid walk against a numpy
    /// heat map over the same routes (`scripts/overview_numpy_peer.py`: sampled every 0.25 px,
    /// unique pixels per track, `np.add.at`), as a one-shot tool counts on every run.
    private static func comparePeer(store: ThumbnailStore, statePath: String, work: String) throws {
        guard let kept = RegionOverview(stateBytes: try FileStore.readFile(statePath)), kept.scales.contains(2) else { return }
        let routes = kept.members.sorted().compactMap { id -> OverviewRoute? in
            guard let key = CacheKey(hex: id), let record = store.record(key), let text = record.overviewRoute,
                let segments = RouteCoding.decode(text)
            else { return nil }
            return OverviewRoute(id: id, segments: segments, distanceMeters: record.distanceM, startTime: record.startTime)
        }
        let viewport = kept.frame.viewport(scale: 2)
        var region = RegionOverview(frame: kept.frame, scales: [2])
        let ours = try timed { for route in routes { region.add(route) } }
        var bytes: [UInt8] = []
        for value in [Int32(viewport.widthPixels), Int32(viewport.heightPixels), Int32(routes.count)] {
            withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        }
        for route in routes {
            let points = route.pixelSegments(in: viewport).flatMap { $0 }
            withUnsafeBytes(of: Int32(points.count).littleEndian) { bytes += $0 }
            for point in points {
                withUnsafeBytes(of: point.x.bitPattern.littleEndian) { bytes += $0 }
                withUnsafeBytes(of: point.y.bitPattern.littleEndian) { bytes += $0 }
            }
        }
        try FileStore.writeAtomically(bytes, to: work + "/routes.bin")
        let grid = region.grids[0]
        let nonzero = grid.counts.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
        print(
            "  counting \(routes.count) tracks at @2x (\(viewport.widthPixels)×\(viewport.heightPixels)): TrackSnap \(ms(ours)) "
                + "(\(nonzero) pixels counted, largest count \(grid.maximumCount))")
        if let peer = Benchmark.pythonScriptLines("overview_numpy_peer.py", [work + "/routes.bin"])?.first, let seconds = peer["seconds"] as? Double {
            print(
                "  numpy peer (sampled every 0.25 px, unique per track, add): \(ms(seconds)) (\(peer["nonzero"] ?? "?") pixels, largest \(peer["maximum"] ?? "?"))"
                    + " → TrackSnap \(format(seconds / ours, 1))x faster")
        } else {
            print("  numpy peer: not available (python3 with numpy)")
        }
    }

    private static func ms(_ seconds: Double) -> String { format(seconds * 1000, 0) + " ms" }

    /// Decodes one generated file, makes its route and record as a worker would, and puts its job in done/.
    static func record(_ file: (name: String, contents: String), store: ThumbnailStore, queue: JobQueue) throws -> (
        routeSeconds: Double, routeBytes: Int, fixes: Int
    ) {
        let bytes = Array(file.contents.utf8)
        let track = try TrackDecoder.decode(bytes, fileName: file.name)
        var text: String?
        let seconds = try timed { text = OverviewRouteMaker.text(of: track, cleaning: RenderOptions().cleaning) }
        let key = store.key(content: SHA256.hash(bytes))
        let fixes = track.segments.flatMap(\.fixes)
        let latitudes = fixes.map(\.latitudeDegrees), longitudes = fixes.map(\.longitudeDegrees)
        let bbox = [longitudes.min()!, latitudes.min()!, longitudes.max()!, latitudes.max()!]
        var distance = 0.0
        for (a, b) in zip(fixes, fixes.dropFirst()) { distance += GreatCircle.distanceMeters(a, b) }
        var record = TrackRecord(
            key: key, format: "gpx", bbox: bbox, startLonLat: [longitudes[0], latitudes[0]], segments: 1, fixesDrawn: 0, distanceM: distance,
            fixes: fixes.count, fixesKept: fixes.count, images: [])
        record.startTime = fixes.first.map(\.timeSeconds).flatMap { $0.isNaN ? nil : $0 }
        record.overviewRoute = text
        try FileStore.writeAtomically(bytes, to: queue.layout.done + "/" + file.name)
        try FileStore.writeAtomically(record.jsonBytes(), to: store.recordPath(key))
        return (seconds, text?.utf8.count ?? 0, fixes.count)
    }

    /// The process's peak resident set so far (getrusage), megabytes.
    private static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    static func timed(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(ContinuousClock.now - start)
    }
}
