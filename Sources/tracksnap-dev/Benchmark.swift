import BatchRun
import FileStore
import Foundation
import PNGEncoding
import SnapshotRendering
import TrackSynthesis

/// `make bench`: per-stage medians for fixed generated tracks in this (release) process, peak memory
/// of a one-track `tracksnap render` process, PNG settings against libpng's defaults, and Mapnik on
/// the same files in the same run.
enum Benchmark {
    static func run(_ arguments: [String]) throws {
        var work = ".bench"
        var runs = 31
        var queueRuns = 3
        var section = "all"
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--work": index += 1; work = arguments[index]
            case "--runs": index += 1; runs = Int(arguments[index]) ?? runs
            case "--queue-runs": index += 1; queueRuns = Int(arguments[index]) ?? queueRuns
            case "--section": index += 1; section = arguments[index]
            default: throw DevToolError("unknown bench option \(arguments[index])")
            }
            index += 1
        }
        try FileStore.createDirectories(work + "/out")
        // In-process figures are a worker's: its heap is kept from track to track.
        HeapRetention.keepFreedMemory()
        if section == "queue" { return try QueueBenchmark.run(work: work, runs: queueRuns) }
        if section == "readers" { return try ReaderBenchmark.run(work: work, runs: 5) }
        if section == "listing" { return try ListingBenchmark.run(work: work, tracks: ListingBenchmark.trackCount()) }
        if section == "overview" { return try OverviewBenchmark.run(work: work) }
        if section == "overview-map" { return try OverviewMapBenchmark.run(work: work) }
        if section == "product" { return try ProductBenchmark.run(work: work, runs: runs) }
        if section == "basemap" { return try BasemapBenchmark.run(work: work, trackCount: min(200, runs)) }
        if section == "vector" { return try VectorBenchmark.run(work: work, runs: queueRuns) }
        if section == "vector-drawing" { return try VectorBenchmark.runDrawingAlone(work: work, passes: queueRuns) }
        if section == "raster" { return try RasterBenchmark.run(work: work, runs: queueRuns) }
        let small = try generate(work + "/run-18000.gpx") { SampleCatalog.benchmarkRun(fixCount: 18_000) }
        let large = try generate(work + "/run-1000000.gpx") { SampleCatalog.benchmarkRun(fixCount: 1_000_000) }
        let samples = SampleCatalog.samples().map { work + "/samples/" + $0.name }
        try FileStore.createDirectories(work + "/samples")
        for (file, path) in zip(SampleCatalog.samples(), samples) { try FileStore.writeAtomically(Array(file.contents.utf8), to: path) }

        print("TrackSnap benchmark: release build, one thread, 512x512 @1x, medians")
        print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; libpng \(PNGEncoder.libpngVersion)\n")
        let smallResult = try measure(small, runs: runs, work: work)
        let largeResult = try measure(large, runs: max(3, runs / 6), work: work)
        print(StageTable.header)
        print(StageTable.row("18,000-fix GPX (\(kilobytes(small)) kB)", smallResult))
        print(StageTable.row("1,000,000-fix GPX (\(kilobytes(large) / 1024) MB)", largeResult))

        let mixed = try measureMixed(samples, rounds: max(3, runs / 6), work: work)
        print("\nsample archive (\(samples.count) mixed tracks, sequential, in-process): \(format(mixed, 1)) tracks/s")
        print(
            "18,000-fix GPX: \(format(1 / smallResult.median(\.total), 1)) tracks/s (\(format(1 / (smallResult.median(\.total) - smallResult.median(\.write)), 1)) without fsync)"
        )

        let peak = try peakMemoryOfRender(large, work: work)
        print(
            "\n1,000,000-fix GPX as its own process (tracksnap render): \(format(peak.seconds * 1000, 0)) ms wall, peak RSS \(format(peak.megabytes, 1)) MB"
        )

        try comparePNGSettings(small)

        if let mapnikSmall = Benchmark.mapnik([small], runs: 11), let mapnikLarge = Benchmark.mapnik([large], runs: 1) {
            print("\nMapnik \(mapnikVersion()) (python3-mapnik, OGR GPX datasource → render → PNG in memory), same files, same size:")
            let ours = smallResult.median(\.total) * 1000, oursLarge = largeResult.median(\.total) * 1000
            print(
                "  18,000-fix GPX:    Mapnik \(format(mapnikSmall[0], 1)) ms vs TrackSnap \(format(ours, 2)) ms → \(format(mapnikSmall[0] / ours, 1))x faster"
            )
            print(
                "  1,000,000-fix GPX: Mapnik \(format(mapnikLarge[0], 0)) ms vs TrackSnap \(format(oursLarge, 0)) ms → \(format(mapnikLarge[0] / oursLarge, 1))x faster"
            )
        } else {
            print("\nMapnik: not available (install python3-mapnik); no ratio printed")
        }
        if section == "all" {
            try ProductBenchmark.run(work: work, runs: runs)
            try BasemapBenchmark.run(work: work)
            try VectorBenchmark.run(work: work, runs: queueRuns)
            try RasterBenchmark.run(work: work, runs: queueRuns)
            try ReaderBenchmark.run(work: work, runs: 5)
            try QueueBenchmark.run(work: work, runs: queueRuns)
            try ListingBenchmark.run(work: work)
            try OverviewBenchmark.run(work: work)
        }
    }

    private static func generate(_ path: String, _ contents: () -> String) throws -> String {
        if (try? FileStore.readFile(path, maximumBytes: 1 << 30).count) ?? 0 > 0 { return path }
        try FileStore.writeAtomically(Array(contents().utf8), to: path)
        return path
    }

    /// Renders one file `runs` times after a warm-up, recording every stage including read and write.
    static func measure(_ path: String, runs: Int, work: String) throws -> StageSamples {
        var samples = StageSamples()
        for run in 0...runs {
            let start = ContinuousClock.now
            let bytes = try FileStore.readFile(path)
            let read = seconds(ContinuousClock.now - start)
            var snapshot = try SnapshotRenderer.render(trackBytes: bytes, fileName: path)
            let writeStart = ContinuousClock.now
            try FileStore.writeAtomically(snapshot.png, to: work + "/out/bench.png")
            snapshot.timings.read = read
            snapshot.timings.write = seconds(ContinuousClock.now - writeStart)
            if run > 0 { samples.all.append(snapshot.timings) }  // run 0 warms caches
        }
        return samples
    }

    /// Tracks per second over the archive, best of `rounds`.
    private static func measureMixed(_ paths: [String], rounds: Int, work: String) throws -> Double {
        var best = Double.infinity
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            for path in paths {
                let snapshot = try SnapshotRenderer.render(trackBytes: try FileStore.readFile(path), fileName: path)
                try FileStore.writeAtomically(snapshot.png, to: work + "/out/mixed.png")
            }
            best = min(best, seconds(ContinuousClock.now - start))
        }
        return Double(paths.count) / best
    }

    private static func comparePNGSettings(_ path: String) throws {
        let bytes = try FileStore.readFile(path)
        let canvasPNG = try SnapshotRenderer.render(trackBytes: bytes).png
        let canvas = try PNGDecoder.decode(canvasPNG)
        var colors = Set<UInt32>()
        for pixel in 0..<(canvas.width * canvas.height) {
            colors.insert(UInt32(canvas.pixels[pixel * 4]) << 16 | UInt32(canvas.pixels[pixel * 4 + 1]) << 8 | UInt32(canvas.pixels[pixel * 4 + 2]))
        }
        var variants: [(String, PNGSettings)] = [("TrackSnap default (palette when exact, else RGB up, level 1)", PNGSettings())]
        for (label, filter, level, strategy) in [
            ("RGB, up, Z_RLE", Int32(0x20), Int32(6), Int32(3)), ("RGB, none, Z_RLE", 0x08, 6, 3), ("RGB, sub, Z_RLE", 0x10, 6, 3),
            ("RGB, up, level 1", 0x20, 1, 0), ("RGB, up, level 6", 0x20, 6, 0), ("RGB, up, Z_FILTERED, level 1", 0x20, 1, 1),
        ] {
            var settings = PNGSettings()
            settings.layout = .trueColor
            settings.filterFlags = filter
            settings.compressionLevel = level
            settings.compressionStrategy = strategy
            variants.append((label, settings))
        }
        variants.append(("libpng defaults (all filters, level 6)", PNGSettings.libpngDefaults))
        print("\nPNG encode of the 18,000-fix snapshot (512x512, \(colors.count) distinct colours), median of 21:")
        for (name, settings) in variants {
            var times: [Double] = []
            var size = 0
            for _ in 0..<21 {
                let start = ContinuousClock.now
                size = try PNGEncoder.encode(canvas, settings: settings).count
                times.append(seconds(ContinuousClock.now - start))
            }
            print("  \(name): \(format(median(times) * 1000, 2)) ms, \(format(Double(size) / 1024, 1)) KB")
        }
    }

    /// Peak RSS of a separate `tracksnap render`, read by GNU time (`%M`). getrusage(RUSAGE_CHILDREN)
    /// would also count the forked child's pages shared with this (large) process before `exec`.
    private static func peakMemoryOfRender(_ path: String, work: String) throws -> (seconds: Double, megabytes: Double) {
        let tracksnap = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tracksnap")
        guard FileManager.default.isExecutableFile(atPath: tracksnap.path) else {
            throw DevToolError("build tracksnap in release first (make release)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw DevToolError("the peak-memory figure needs GNU time (apt-get install time)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", tracksnap.path, "render", path, "-o", work + "/out/large.png"]
        let errors = Pipe()
        process.standardError = errors
        let start = ContinuousClock.now
        try process.run()
        let report = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let elapsed = seconds(ContinuousClock.now - start)
        let lines = String(decoding: report, as: UTF8.self).split(separator: "\n")
        guard process.terminationStatus == 0, let kilobytes = lines.last.flatMap({ Double($0) }) else {
            throw DevToolError("tracksnap render failed on \(path): \(String(decoding: report, as: UTF8.self))")
        }
        return (elapsed, kilobytes / 1024)
    }

    /// Mapnik's median milliseconds per file at `width`×`height`, or nil when it is not installed.
    static func mapnik(_ paths: [String], runs: Int, width: Int = 512, height: Int = 512) -> [Double]? {
        guard let lines = pythonScriptLines("mapnik_bench.py", [String(runs), String(width), String(height)] + paths) else { return nil }
        let values = lines.compactMap { $0["median_ms"] as? Double }
        return values.count == paths.count ? values : nil
    }

    /// Runs `scripts/NAME` with python3 and reads its standard output as one JSON object a line
    /// (the peers' scripts print their figures so); nil when it cannot run or fails.
    static func pythonScriptLines(_ name: String, _ arguments: [String]) -> [[String: Any]]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/" + name).path
        process.arguments = [script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    static func mapnikVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import mapnik; print(mapnik.mapnik_version())"]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return "?" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return "?" }
        return "\(number / 100_000).\(number / 100 % 1000).\(number % 100)"
    }

    private static func kilobytes(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1024
    }
}
