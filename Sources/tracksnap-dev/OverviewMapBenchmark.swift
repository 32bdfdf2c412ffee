import ArchiveOverview
import BatchRun
import FileStore
import Foundation
import HistoryListing
import JobQueue
import MapTiles
import PNGEncoding
import Raster
import StyleFile
import ThumbnailCache
import TileSources
import TrackSynthesis

/// `bench --section overview-map`: what a basemap under the overview costs. 1,000 generated loops
/// over Vaduz, recorded as a worker does, then the overview published from the records over the
/// grid and over each map of `TRACKSNAP_BENCH_MAPS` (comma-separated sources; e.g. the bench's
/// raster and vector Liechtenstein tiles): cold (every picture drawn), unchanged (the stamp), one
/// new track (its region's pictures and its year's drawn again), and the pictures' bytes.
enum OverviewMapBenchmark {
    /// Where the tracks go: Vaduz and the Rhine valley, [west, south, east, north] degrees.
    static let bounds = [9.49, 47.10, 9.57, 47.18]

    static func run(work: String, tracks: Int = 1_000) throws {
        let root = work + "/overview-map-\(tracks)"
        try? FileManager.default.removeItem(atPath: root)
        let queue = JobQueue(root: root + "/Jobs")
        let store = ThumbnailStore(root: root + "/Output", settings: ThumbnailSettings())
        try queue.prepare()
        try store.prepare()
        let outline = RegionTracks.outline(boundsLonLat: bounds)
        for file in RegionTracks.files(outlineLonLat: outline, count: tracks, seed: 7100) {
            _ = try OverviewBenchmark.record((file.name, file.contents), store: store, queue: queue)
        }
        let listed = try recordIDs(store)
        let newFile = RegionTracks.files(outlineLonLat: outline, count: 1, seed: 99)[0]
        _ = try OverviewBenchmark.record(("new-" + newFile.name, newFile.contents), store: store, queue: queue)
        let withNew = try recordIDs(store)
        let maps = (ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_MAPS"] ?? "").split(separator: ",").map(String.init)
        print("\nOverview over a map: \(tracks) generated tracks over Vaduz (release build; pictures drawn a core at a time)")
        print("  map | cold (wall, CPU) | unchanged | one new track (wall, CPU of all threads) | pictures' bytes")
        for source in [nil] + maps.map(Optional.some) {
            try? FileManager.default.removeItem(atPath: store.stateDirectory + "/overview")
            try? FileManager.default.removeItem(atPath: store.root + "/overview")
            var publisher = OverviewPublisher(store: store)
            if let source {
                var settings = BasemapSettings(source: source)
                settings.contentStamp = BasemapOpener.contentStamp(of: source)
                publisher.basemap = OverviewMap(settings: settings, opener: BasemapOpener(tileCacheDirectory: root + "/tile-cache")) {
                    print("  warning: \($0)")
                }
            }
            var listing: [String: OverviewPublisher.ListedTrack] = [:]
            for id in withNew { listing[id] = publisher.listedTrack(id) }
            let coldCPUBefore = processCPUSeconds()
            let cold = try OverviewBenchmark.timed { _ = try publisher.refresh(listed: listed) { listing[$0] } }
            let coldCPU = processCPUSeconds() - coldCPUBefore
            let unchanged = try OverviewBenchmark.timed { _ = try publisher.refresh(listed: listed) { listing[$0] } }
            var report: OverviewPublisher.Report?
            let cpuBefore = processCPUSeconds()
            let added = try OverviewBenchmark.timed { report = try publisher.refresh(listed: withNew) { listing[$0] } }
            let addedCPU = processCPUSeconds() - cpuBefore
            guard let report else { continue }
            var bytes = 0
            for name in try FileStore.listDirectory(store.root + "/overview") {
                bytes += try FileStore.readFile(store.root + "/overview/" + name).count
            }
            let name = source.map { ($0 as NSString).lastPathComponent } ?? "none (grid)"
            print(
                "  \(name) | \(format(cold, 2)) s, \(format(coldCPU, 2)) s CPU | \(format(unchanged * 1000, 1)) ms | \(format(added, 3)) s, \(format(addedCPU, 3)) s CPU (\(report.regionsUpdated) updated) | "
                    + "\(bytes / 1024) KB" + (report.basemapProblems.isEmpty ? "" : " (problems: \(report.basemapProblems))"))
            if let map = publisher.basemap { try phases(of: publisher, map: map) }
        }
    }

    /// Where the time of the region's @2x picture goes (CPU time of this thread): the map (paper,
    /// grid, tiles, attribution), fading it and painting the counts, encoding.
    private static func phases(of publisher: OverviewPublisher, map: any OverviewBasemap) throws {
        let states = try FileStore.listDirectory(publisher.stateDirectory + "/regions").filter { !$0.contains(".") }
        guard let name = states.first, let region = RegionOverview(stateBytes: try FileStore.readFile(publisher.stateDirectory + "/regions/" + name))
        else { return }
        let viewport = region.frame.viewport(scale: region.scales[1])
        let mapColors = DensityPainter.mapColors()
        var canvas: IndexedCanvas?
        let drawn = threadCPUSeconds {
            canvas = map.draw(viewport: viewport, latitudeDegrees: region.frame.latitudeDegrees, labelScale: 2, mapColors: mapColors) { _ in }.canvas
        }
        guard var canvas else { return }
        let colors = canvas.palette.count
        var tolerance = 0
        let heat = threadCPUSeconds { tolerance = DensityPainter.paintHeat(region.grids[1], over: &canvas) }
        var encoder = PalettePNGEncoder()
        let encoded = try threadCPUSeconds { _ = try encoder.encode(canvas) }
        print(
            "    its region's @2x picture (\(viewport.widthPixels)×\(viewport.heightPixels)), CPU: map \(format(drawn * 1000, 0)) ms "
                + "(\(colors) colours), fade and counts \(format(heat * 1000, 0)) ms (merge tolerance \(tolerance)), palette PNG \(format(encoded * 1000, 0)) ms"
        )
    }

    /// CPU seconds of every thread of the process so far.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// CPU seconds this thread spends in `body`.
    private static func threadCPUSeconds(_ body: () throws -> Void) rethrows -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        try body()
        return now() - start
    }

    private static func recordIDs(_ store: ThumbnailStore) throws -> Set<String> {
        Set(try FileStore.listDirectory(store.recordsDirectory).filter { $0.hasSuffix(".json") }.map { String($0.prefix(64)) })
    }
}
