import FileStore
import Foundation
import HistoryListing
import TrackSynthesis

/// `make bench` section "vector" (issue 23): the default four images of a region's tracks over a
/// vector map, against the grid in the same `tracksnap run --workers 1` and against Mapnik drawing
/// the same tiles, viewports and sizes through GDAL's MVT driver (scripts/mapnik_vector_bench.py,
/// an OSM-Bright-like style).
///
/// - tiles: scripts/vector-tiles.sh makes the OpenMapTiles MBTiles of the Liechtenstein extract in
///   ../shared/maps with tilemaker (once; kept in WORK/vector/).
/// - tracks: `RegionTracks` loops (walks, runs, hikes, rides) inside Liechtenstein's border.
/// - grid: a cold `tracksnap run --workers 1` over them (fresh queue and output each time; wall
///   time of the run, listing and fsync included), median of `runs`.
/// - Mapnik: each image's `viewport_epsg3857` and size from that run's index.json, drawn with the
///   track on top, median of `runs` per image.
/// - TrackSnap vector: the same run with `--basemap` the vector MBTiles (built-in style), runs
///   alternating with the grid's so both see the same load.
enum VectorBenchmark {
    /// One image as the run's index.json lists it.
    struct Image {
        var track: String
        var role: String
        var width: Int
        var height: Int
        var scale: Double
        var viewport: [Double]
    }

    static func run(work: String, trackCount: Int = 24, runs: Int = 3) throws {
        let tracksnap = ".build/release/tracksnap"
        guard FileManager.default.isExecutableFile(atPath: tracksnap) else { throw DevToolError("build \(tracksnap) first (make bench does)") }
        let folder = work + "/vector"
        try FileStore.createDirectories(folder)
        let mbtiles = folder + "/liechtenstein.mbtiles"
        guard execute("/bin/bash", [scriptsFolder + "/vector-tiles.sh", mbtiles], quiet: true) else {
            print(
                "\nVector: no vector tiles (scripts/vector-tiles.sh failed: tilemaker or the shared Liechtenstein extract missing); section skipped")
            return
        }
        let archive = try writeTracks(folder + "/tracks", count: trackCount)
        print(
            "\nVector: \(trackCount) generated tracks in Liechtenstein, the default four images each, cold `tracksnap run --workers 1`, median of \(runs)"
        )

        // Wall time and CPU time (the run's workers included): on a shared machine the wall time
        // swings with the other processes, the CPU time much less. Grid and vector runs alternate,
        // so both see the same load.
        var grid: [(wall: Double, cpu: Double)] = [], vector: [(wall: Double, cpu: Double)] = []
        let root = folder + "/grid", vectorRoot = folder + "/vector-run"
        for _ in 0..<runs {
            grid.append(try timedRun(tracksnap, archive: archive, root: root, extra: [], tracks: trackCount))
            vector.append(try timedRun(tracksnap, archive: archive, root: vectorRoot, extra: ["--basemap", mbtiles], tracks: trackCount))
        }
        let gridWall = Benchmark.median(grid.map(\.wall)), gridCPUMedian = Benchmark.median(grid.map(\.cpu))
        let vectorWall = Benchmark.median(vector.map(\.wall)), vectorCPU = Benchmark.median(vector.map(\.cpu))
        print(
            "  grid, a track (run / tracks):   \(format(gridWall, 1)) ms wall, \(format(gridCPUMedian, 1)) ms CPU (runs: \(grid.map { format($0.wall, 1) }.joined(separator: ", ")) ms wall), \(try pngKilobytes(root + "/Output", tracks: trackCount)) KB of PNG"
        )
        print(
            "  TrackSnap vector, a track:      \(format(vectorWall, 1)) ms wall, \(format(vectorCPU, 1)) ms CPU (runs: \(vector.map { format($0.wall, 1) }.joined(separator: ", ")) ms wall), \(try pngKilobytes(vectorRoot + "/Output", tracks: trackCount)) KB of PNG; \(format(vectorCPU / gridCPUMedian, 2))x the grid's CPU (goal ≤ 4x)"
        )

        let images = try imagesOfRun(root + "/Output", archive: archive)
        guard let mapnik = mapnikTimes(mbtiles: mbtiles, images: images, runs: runs, folder: folder) else {
            print("  Mapnik: not available (install python3-mapnik and gdal-bin); no figures")
            return
        }
        var sizes: [String] = []
        for image in images where !sizes.contains(label(image)) { sizes.append(label(image)) }
        var perTrack: [String: (wall: Double, cpu: Double, bytes: Int)] = [:]
        for (image, result) in zip(images, mapnik) {
            let sum = perTrack[image.track, default: (0, 0, 0)]
            perTrack[image.track] = (sum.wall + result.wall, sum.cpu + result.cpu, sum.bytes + result.bytes)
        }
        print(
            "  Mapnik \(Benchmark.mapnikVersion()) through GDAL's MBTiles/MVT driver, OSM-Bright-like style, route on top, palette PNG (median over the tracks of each image's median):"
        )
        for size in sizes {
            let results = zip(images, mapnik).filter { label($0.0) == size }.map(\.1)
            print(
                "    \(size.padding(toLength: 12, withPad: " ", startingAt: 0)) \(format(Benchmark.median(results.map(\.wall)), 0)) ms wall, \(format(Benchmark.median(results.map(\.cpu)), 0)) ms CPU, tile zooms \(Set(results.map(\.tileZoom)).sorted().map(String.init).joined(separator: ","))"
            )
        }
        let wall = Benchmark.median(perTrack.values.map(\.wall)), cpu = Benchmark.median(perTrack.values.map(\.cpu))
        let cpuRange = perTrack.values.map(\.cpu).sorted()
        print(
            "    a track (four images): \(format(wall, 0)) ms wall, \(format(cpu, 0)) ms CPU (\(format(cpuRange.first ?? 0, 0))–\(format(cpuRange.last ?? 0, 0)) ms CPU over the tracks), \(perTrack.values.reduce(0) { $0 + $1.bytes } / max(1, perTrack.count) / 1024) KB of PNG; \(format(cpu / gridCPUMedian, 0))x the grid's CPU; TrackSnap vector is \(format(cpu / vectorCPU, 1))x faster (goal ≥ 10x)"
        )
        // The same scope as Mapnik's figures: drawing and encoding in a warm process, no run around it.
        let drawing = try drawingAlone(archive: archive, mbtiles: mbtiles)
        print(
            "  TrackSnap vector, drawing alone (in-process, warm tile cache, as Mapnik's figures): \(format(drawing, 1)) ms CPU a track (median); \(format(cpu / drawing, 1))x faster than Mapnik"
        )
    }

    /// "1280x960@2x": an image's size in points and its scale, as the style names it.
    /// One cold `tracksnap run --workers 1` (fresh queue and output), per track: wall and CPU ms.
    static func timedRun(
        _ tracksnap: String, archive: String, root: String, extra: [String], tracks: Int
    ) throws -> (wall: Double, cpu: Double) {
        try? FileManager.default.removeItem(atPath: root)
        guard execute(tracksnap, ["enqueue", archive, "--jobs", root + "/Jobs", "--quiet"]) else { throw DevToolError("tracksnap enqueue failed") }
        let start = ContinuousClock.now, cpuStart = QueueBenchmark.childrenCPUSeconds()
        guard execute(tracksnap, ["run", "--jobs", root + "/Jobs", "--output", root + "/Output", "--workers", "1", "--quiet"] + extra) else {
            throw DevToolError("tracksnap run failed")
        }
        let cpu = QueueBenchmark.childrenCPUSeconds() - cpuStart
        return (seconds(ContinuousClock.now - start) * 1000 / Double(tracks), cpu * 1000 / Double(tracks))
    }

    /// The PNG bytes under `output`/thumbs a track, in KB.
    static func pngKilobytes(_ output: String, tracks: Int) throws -> Int {
        let folder = output + "/thumbs"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }
        let bytes = try names.reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + $1)[.size] as? Int) ?? 0) }
        return bytes / max(1, tracks) / 1024
    }

    private static func label(_ image: Image) -> String {
        "\(Int((Double(image.width) / image.scale).rounded()))x\(Int((Double(image.height) / image.scale).rounded()))@\(format(image.scale, 0))x"
    }

    /// The region's tracks, written once (reused while complete) and aged an hour, because `enqueue`
    /// waits for files modified in the last seconds.
    static func writeTracks(_ directory: String, count: Int) throws -> String {
        if (try? FileStore.listDirectory(directory).count) == count { return directory }
        try? FileManager.default.removeItem(atPath: directory)
        try FileStore.createDirectories(directory)
        let hourAgo = Date().addingTimeInterval(-3600)
        for file in RegionTracks.files(count: count) {
            try FileStore.writeAtomically(Array(file.contents.utf8), to: directory + "/" + file.name)
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: directory + "/" + file.name)
        }
        return directory
    }

    /// Every image of the run's listing with its viewport, in the listing's order.
    static func imagesOfRun(_ output: String, archive: String) throws -> [Image] {
        var images: [Image] = []
        for path in IndexDocument.partPaths(inIndex: try FileStore.readFile(output + "/index.json")) ?? [] {
            let document = try JSONSerialization.jsonObject(with: Data(try FileStore.readFile(output + "/" + path))) as? [String: Any]
            for track in document?["tracks"] as? [[String: Any]] ?? [] {
                // A job is named "<hash>-<file name>": the file is in the archive under that name.
                guard let job = (track["jobs"] as? [String])?.first, let dash = job.firstIndex(of: "-") else { continue }
                let file = archive + "/" + job[job.index(after: dash)...]
                for image in track["images"] as? [[String: Any]] ?? [] {
                    guard let width = image["width"] as? Int, let height = image["height"] as? Int,
                        let viewport = image["viewport_epsg3857"] as? [Double], viewport.count == 4
                    else { continue }
                    images.append(
                        Image(
                            track: file, role: image["role"] as? String ?? "", width: width, height: height,
                            scale: image["scale"] as? Double ?? 1, viewport: viewport))
                }
            }
        }
        guard !images.isEmpty else { throw DevToolError("no images with a viewport in \(output)/index.json") }
        return images
    }

    /// Mapnik's median wall and CPU milliseconds, tile zoom and PNG bytes for each image, or nil
    /// when Mapnik or GDAL is missing.
    static func mapnikTimes(
        script: String = "mapnik_vector_bench.py", mbtiles: String, images: [Image], runs: Int, folder: String
    ) -> [(wall: Double, cpu: Double, tileZoom: Int, bytes: Int)]? {
        let viewports = folder + "/viewports.jsonl"
        var lines = ""
        for image in images {
            let object: [String: Any] = [
                "viewport_epsg3857": image.viewport, "width": image.width, "height": image.height, "scale": image.scale,
                "track": image.track, "role": image.role,
            ]
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
            lines += String(decoding: data, as: UTF8.self) + "\n"
        }
        guard (try? FileStore.writeAtomically(Array(lines.utf8), to: viewports)) != nil else { return nil }
        guard let lines = Benchmark.pythonScriptLines(script, ["--runs", String(runs), mbtiles, viewports]) else {
            return nil
        }
        let values = lines.compactMap { object -> (wall: Double, cpu: Double, tileZoom: Int, bytes: Int)? in
            guard let wall = object["median_ms"] as? Double, let cpu = object["median_cpu_ms"] as? Double,
                let tileZoom = object["tile_zoom"] as? Int, let bytes = object["png_bytes"] as? Int
            else { return nil }
            return (wall, cpu, tileZoom, bytes)
        }
        return values.count == images.count ? values : nil
    }

    /// The repository's scripts/ folder (found from this source file, as `Benchmark.mapnik` does).
    private static var scriptsFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts").path
    }

    /// Runs a program to its end; false when it cannot start or exits non-zero.
    private static func execute(_ executable: String, _ arguments: [String], quiet: Bool = false) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if quiet { process.standardOutput = FileHandle.nullDevice }
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
