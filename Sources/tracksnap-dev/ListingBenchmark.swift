import ArchiveOverview
import ContentHash
import FileStore
import Foundation
import HistoryListing
import JobQueue
import MapGeometry
import StyleFile
import ThumbnailCache
import TrackSynthesis

/// `bench --section listing`: regenerating the site for 100,000 tracks (target ≤ 2 s). Builds a
/// queue whose done/ folder holds 100,000 small distinct jobs and a store with a record for each
/// (written directly: the listing reads records, not images), then times `ListingBuilder.refresh`:
/// cold (no cache, no pages), unchanged, one new track (index.html, the newest page and part, index.json),
/// and a forced full regeneration with warm caches.
enum ListingBenchmark {
    /// The archive's size: `TRACKSNAP_BENCH_TRACKS` (for the million-track figures; about 21 GB of
    /// jobs, records and pages then), else 100,000.
    static func trackCount() -> Int {
        ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_TRACKS"].flatMap { Int($0) }.map { max(1_000, $0) } ?? 100_000
    }

    static func run(work: String, tracks count: Int = 100_000, runs: Int = 3) throws {
        let root = work + "/listing-\(count)"
        let queue = JobQueue(root: root + "/Jobs")
        let store = ThumbnailStore(root: root + "/Output", settings: ThumbnailSettings())
        try queue.prepare()
        try store.prepare()
        print("\nListing benchmark: \(count) tracks (release build, in-process ListingBuilder.refresh)")
        let setup = try timed { try populate(queue: queue, store: store, range: 0..<count) }
        print("  setup (done/ jobs and records): \(format(setup, 1)) s")
        let builder = ListingBuilder(queue: queue, store: store)
        var report = ListingReport()
        // As `tracksnap listing` during a run: the listing's work without pruning.
        let occasion = ListingOccasion.listingCommand(queueCheckedAtNanoseconds: 0, queueIdle: false)
        if ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_WARM_ONLY"] != "1" {
            // Cold: as after a fresh checkout of Output/ without the listing's state.
            for state in ["listing", "listing-cache", "pages", "pages-tracks", "catalog", "published"] {
                try? FileStore.remove(store.stateDirectory + "/" + state)
            }
            // The old detail pages are moved aside and deleted after the timing, as a first listing
            // finds no folder of 100,000 pages deleted seconds before: ext4 without a journal (this
            // machine's disk) skips inodes freed recently when it makes new ones, which was 28–40%
            // of a cold listing's samples here (`TRACKSNAP_BENCH_COLD_DELETE=1`: deleted first).
            let aside = store.root + "/tracks.deleting-\(getpid())"
            if ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_COLD_DELETE"] == "1" {
                try? FileManager.default.removeItem(atPath: store.root + "/tracks")
            } else {
                try? FileManager.default.moveItem(atPath: store.root + "/tracks", toPath: aside)
                waitOutRecentDeletions(marker: root + "/.deleted-at")
            }
            if ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_DROP_CACHES"] == "1" { dropPageCache(root: root) }
            let before = Cost.now()
            let cold = try timed { report = try builder.refresh(after: occasion) }
            print(
                "  cold (hash every job, read every record, write every page): \(format(cold, 2)) s (\(Cost.now() - before)), \(report.pagesWritten) files"
            )
            try? FileManager.default.removeItem(atPath: aside)
            try? FileStore.syncFileSystem(containing: root)
            try? FileStore.writeAtomically(Array("\(Int(Date().timeIntervalSince1970))\n".utf8), to: root + "/.deleted-at")
        }
        var unchanged: [Double] = [], added: [Double] = [], forced: [Double] = []
        var cost = (unchanged: Cost(), added: Cost(), forced: Cost())
        var next = count
        while FileStore.exists(queue.layout.done + "/track-\(next).gpx") { next += 1 }
        for _ in 0..<runs {
            // Refreshes seconds apart, as runs are: a folder changed less than
            // `DirectorySnapshot.coarseSettleNanoseconds` before a refresh is checked file by file by the
            // next one (the cost of an immediate rerun, printed as "forced" for the worst case).
            Thread.sleep(forTimeInterval: 2.1)
            var before = Cost.now()
            unchanged.append(try timed { report = try builder.refresh(after: occasion) })
            cost.unchanged = Cost.now() - before
            try populate(queue: queue, store: store, range: next..<(next + 1))
            next += 1
            Thread.sleep(forTimeInterval: 2.1)
            before = Cost.now()
            added.append(try timed { report = try builder.refresh(after: occasion) })
            cost.added = Cost.now() - before
            let addedPages = report.pagesWritten, addedBytes = report.bytesWritten
            // TRACKSNAP_BENCH_ADD_ONLY=1 leaves the forced refresh out (a profile of the short refresh alone).
            if ProcessInfo.processInfo.environment["TRACKSNAP_BENCH_ADD_ONLY"] != "1" {
                try FileStore.remove(store.stateDirectory + "/listing")
                before = Cost.now()
                forced.append(try timed { report = try builder.refresh(after: occasion) })
                cost.forced = Cost.now() - before
            }
            print(
                "  run: unchanged \(format(unchanged.last!, 3)) s (\(cost.unchanged)); one new track \(format(added.last!, 3)) s (\(cost.added); pages: \(addedPages) files, \(addedBytes / 1000) KB); forced \(forced.last.map { format($0, 3) } ?? "-") s (\(cost.forced))"
            )
        }
        print(
            "  median: unchanged \(format(median(unchanged), 3)) s, one new track \(format(median(added), 3)) s, forced regeneration \(forced.isEmpty ? "-" : format(median(forced), 3)) s (target ≤ 1 s)"
        )
        let json = (try? FileStore.status(store.root + "/index.json"))??.sizeBytes ?? 0
        print("  index.json \(json / 1000) KB (its parts in index/); \(report.tracks) tracks listed")
    }

    /// How long a cold timing waits after the previous bench run deleted its 100,000 pages:
    /// ext4 without a journal passes over an inode freed less than 60 s ago (5 minutes more while
    /// its inode table block is unwritten, hence the `sync` after deleting) when it allocates one,
    /// looking each up in the buffer cache (`recently_deleted` in fs/ext4/ialloc.c). Runs back to
    /// back spent 40% of a cold listing's samples there (15.8 s against 56.4 s for the same binary),
    /// a cost of this bench's own deletions that no user's first listing pays.
    static let recentDeletionSeconds = 75

    /// Sleeps until `recentDeletionSeconds` have passed since the time `marker` holds (written when
    /// the previous run deleted its pages), saying so; nothing when there is no marker or it is old.
    private static func waitOutRecentDeletions(marker: String) {
        guard let bytes = try? FileStore.readFile(marker, maximumBytes: 64), let text = String(validating: bytes, as: UTF8.self),
            let deletedAt = Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return }
        let wait = deletedAt + recentDeletionSeconds - Int(Date().timeIntervalSince1970)
        guard wait > 0 else { return }
        print("  (waiting \(wait) s: the previous run deleted 100,000 pages; ext4 without a journal slows new files for a minute after)")
        Thread.sleep(forTimeInterval: Double(wait))
    }

    /// Writes the dirty pages out and empties the kernel's page cache (root only), so the cold
    /// listing reads its 100,000 jobs and records from the disk, as a first listing of an archive
    /// written over many nights does (`TRACKSNAP_BENCH_DROP_CACHES=1`; scripts/cold-listing-bench.sh).
    private static func dropPageCache(root: String) {
        try? FileStore.syncFileSystem(containing: root)
        if let handle = FileHandle(forWritingAtPath: "/proc/sys/vm/drop_caches"), (try? handle.write(contentsOf: Data("3\n".utf8))) != nil {
            try? handle.close()
            print("  (page cache emptied: the cold listing reads from the disk)")
        } else {
            print("  (the page cache could not be emptied, not root?: the cold listing may read cached files)")
        }
    }

    /// Jobs `track-N.gpx` in done/ (distinct bytes) and a record per key; existing ones are kept.
    /// Each record keeps a route for the overview, as every record written since issue 25 does:
    /// a loop of 3 km or so in Zürich (4 tracks in 10), Vienna or San Francisco (3 each), so the
    /// overview has three busy regions, as an archive of a few homes has.
    private static func populate(queue: JobQueue, store: ThumbnailStore, range: Range<Int>) throws {
        let template = recordTemplate()
        for index in range {
            let job = queue.layout.done + "/track-\(index).gpx"
            let content = Array("benchmark track \(index)\n".utf8)
            let key = store.key(content: SHA256.hash(content))
            if FileStore.exists(store.recordPath(key)) && FileStore.exists(job) { continue }
            _ = FileManager.default.createFile(atPath: job, contents: Data(content))
            let start = 1_500_000_000 + Double(index) * 3_719
            let (route, bbox) = loop(index)
            let record = template.replacingOccurrences(of: "KEY", with: key.hex)
                .replacingOccurrences(of: "START", with: "\(start)").replacingOccurrences(of: "END", with: "\(start + 3600)")
                .replacingOccurrences(of: "NAME", with: "Morning run \(index)").replacingOccurrences(of: "BBOX", with: bbox)
                .replacingOccurrences(of: "ROUTE", with: route)
            _ = FileManager.default.createFile(atPath: store.recordPath(key), contents: Data(record.utf8))
        }
    }

    /// Track `index`'s route (`RouteCoding` text) and its bbox as JSON: 24 points on a circle of
    /// 300–800 m around a point up to 4 km from its city's centre.
    private static func loop(_ index: Int) -> (route: String, bbox: String) {
        var random = SplitMix64(seed: UInt64(index))
        let city: (latitude: Double, longitude: Double) = index % 10 < 4 ? (47.377, 8.540) : index % 10 < 7 ? (48.208, 16.373) : (37.77, -122.42)
        let center = WebMercator.project(latitudeDegrees: city.latitude, longitudeDegrees: city.longitude)
        let scale = WebMercator.scaleFactor(atLatitudeDegrees: city.latitude)
        let x = center.xMeters + (random.uniform() * 8000 - 4000) * scale, y = center.yMeters + (random.uniform() * 8000 - 4000) * scale
        let radius = (300 + random.uniform() * 500) * scale
        let points = (0...24).map { step in
            let angle = Double(step) / 24 * 2 * Double.pi
            return MercatorPoint(xMeters: x + radius * cos(angle), yMeters: y + radius * sin(angle))
        }
        let southWest = WebMercator.unproject(MercatorPoint(xMeters: x - radius, yMeters: y - radius))
        let northEast = WebMercator.unproject(MercatorPoint(xMeters: x + radius, yMeters: y + radius))
        let bbox = [southWest.longitudeDegrees, southWest.latitudeDegrees, northEast.longitudeDegrees, northEast.latitudeDegrees]
        return (RouteCoding.encode([points]), "[" + bbox.map { "\($0)" }.joined(separator: ",") + "]")
    }

    private static func recordTemplate() -> String {
        let viewport = "[950000.5,6000000.25,960000.75,6007500.125]"
        let images = ["", "@2x", "-1280x960", "-1280x960@2x"].enumerated().map { index, suffix in
            let (width, height) = index < 2 ? (320 * (index + 1), 240 * (index + 1)) : (1280 * (index - 1), 960 * (index - 1))
            return
                "{\"height\":\(height),\"path\":\"thumbs/KEY\(suffix).png\",\"role\":\"\(index < 2 ? "thumbnail" : "detail")\",\"scale\":\(index % 2 + 1),\"viewport_epsg3857\":\(viewport),\"width\":\(width)}"
        }
        return """
            {"activity":"running","bbox":BBOX,"distance_m":10300.25,"duration_s":3600,"elevation_gain_m":120.5,\
            "end_time":END,"fixes":3600,"fixes_drawn":400,"fixes_kept":3590,"format":"gpx","id":"KEY","images":[\(images.joined(separator: ","))],\
            "moving_distance_m":10234.5,"moving_time_s":3400,"name":"NAME","overview_route":"ROUTE","segments":1,"start_lon_lat":[8.5,47.3],"start_time":START}
            """
    }

    /// CPU time and bytes written (`/proc/self/io` wchar: every `write`, state files included) of
    /// this process: wall time alone says little on a machine other work shares.
    struct Cost: CustomStringConvertible {
        var cpuSeconds = 0.0
        var bytesWritten = 0

        static func now() -> Cost {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            let io = (try? FileStore.readStream("/proc/self/io")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            let written = io.split(separator: "\n").first { $0.hasPrefix("wchar:") }.flatMap {
                Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces))
            }
            return Cost(cpuSeconds: cpu, bytesWritten: written ?? 0)
        }

        static func - (later: Cost, earlier: Cost) -> Cost {
            Cost(cpuSeconds: later.cpuSeconds - earlier.cpuSeconds, bytesWritten: later.bytesWritten - earlier.bytesWritten)
        }

        var description: String { "cpu \(format(cpuSeconds, 3)) s, \(format(Double(bytesWritten) / 1e6, 2)) MB written" }
    }

    private static func timed(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(ContinuousClock.now - start)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
