import BatchRun
import FileStore
import Foundation
import SnapshotRendering
import StyleFile
import ThumbnailCache
import TrackSynthesis

/// The product section of `make bench` (issue 11): what one track costs with the default
/// settings, i.e. all four images (320×240 and 1280×960 points, @1x and @2x) decoded once, drawn
/// and encoded in this process without fsync; each size on its own; the 18,000-fix 512² case;
/// Mapnik drawing the same four sizes of the same file in the same run; bytes per track over 200
/// generated tracks; and the start time of the `tracksnap` executable.
enum ProductBenchmark {
    static func run(work: String, runs: Int) throws {
        let path = work + "/run-7200.gpx"
        if !FileManager.default.fileExists(atPath: path) {
            try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: 7_200).utf8), to: path)
        }
        let bytes = try FileStore.readFile(path)
        let renderer = ThumbnailRenderer(root: work + "/product-out", settings: ThumbnailSettings()), store = renderer.store
        let key = store.key(forTrackBytes: bytes)
        print("\nProduct: one 7,200-fix GPX (\(bytes.count / 1024) kB), the default four images, in-process, no fsync, median of \(runs):")

        // Warm up, then time the whole product: decode once, four renders, four encodes, with the
        // buffers a worker keeps from one track to the next.
        let scratch = RenderScratch()
        _ = try renderer.render(trackBytes: bytes, fileName: path, key: key, scratch: scratch)
        var productTimes: [Double] = []
        var productBytes = 0
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let result = try renderer.render(trackBytes: bytes, fileName: path, key: key, scratch: scratch)
            productTimes.append(seconds(ContinuousClock.now - start))
            productBytes = result.pngs.reduce(0) { $0 + $1.count }
        }
        let product = Benchmark.median(productTimes)
        print("  four images per track: \(format(product * 1000, 2)) ms (target ≤ 12 ms), \(productBytes / 1024) KB")

        // Each size alone (decode included), with its stage split.
        print("  " + StageTable.header)
        var sizeMedians: [(ImageSpec, Double)] = []
        for image in renderer.settings.images {
            let options = renderer.settings.options(for: image)
            var samples = StageSamples()
            let track = try SnapshotRenderer.decode(trackBytes: bytes, fileName: path, options: options)
            _ = try SnapshotRenderer.render(track: track, options: options, scratch: scratch)
            for _ in 0..<runs {
                let start = ContinuousClock.now
                let decoded = try SnapshotRenderer.decode(trackBytes: bytes, fileName: path, options: options)
                let parse = seconds(ContinuousClock.now - start)
                var timings = try SnapshotRenderer.render(track: decoded, options: options, scratch: scratch).timings
                timings.parse = parse
                samples.all.append(timings)
            }
            sizeMedians.append((image, samples.median(\.total)))
            let label = "\(Int(Double(image.widthPoints) * image.scale))x\(Int(Double(image.heightPoints) * image.scale))"
            print("  " + StageTable.row(label, samples))
        }
        let largest = sizeMedians.max { $0.0.scale * Double($0.0.widthPoints) < $1.0.scale * Double($1.0.widthPoints) }!
        print("  2560x1920 alone: \(format(largest.1 * 1000, 2)) ms (target ≤ 6 ms)")

        let small = work + "/run-18000.gpx"
        if !FileManager.default.fileExists(atPath: small) {
            try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: 18_000).utf8), to: small)
        }
        let smallBytes = try FileStore.readFile(small)
        var smallTimes: [Double] = []
        let smallScratch = RenderScratch()
        _ = try SnapshotRenderer.render(track: try SnapshotRenderer.decode(trackBytes: smallBytes), scratch: smallScratch)
        for _ in 0..<runs {
            let start = ContinuousClock.now
            _ = try SnapshotRenderer.render(track: try SnapshotRenderer.decode(trackBytes: smallBytes, fileName: small), scratch: smallScratch)
            smallTimes.append(seconds(ContinuousClock.now - start))
        }
        print("  18,000-fix GPX → 512x512: \(format(Benchmark.median(smallTimes) * 1000, 2)) ms (target ≤ 4 ms)")

        if let mapnik = mapnikSum(path, images: renderer.settings.images, runs: 11) {
            print(
                "  Mapnik, same file, the same four sizes: \(mapnik.perSize.map { format($0, 1) }.joined(separator: " + ")) = \(format(mapnik.sum, 1)) ms → TrackSnap \(format(mapnik.sum / (product * 1000), 1))x faster (target ≥ 10x)"
            )
        } else {
            print("  Mapnik: not available (install python3-mapnik); no ratio printed")
        }

        try bytesPerTrack(work: work, renderer: renderer)
        try processStart()
    }

    /// Mapnik's median per size for one file, and their sum.
    private static func mapnikSum(_ path: String, images: [ImageSpec], runs: Int) -> (perSize: [Double], sum: Double)? {
        var perSize: [Double] = []
        for image in images {
            let width = Int(Double(image.widthPoints) * image.scale), height = Int(Double(image.heightPoints) * image.scale)
            guard let median = Benchmark.mapnik([path], runs: runs, width: width, height: height)?.first else { return nil }
            perSize.append(median)
        }
        return (perSize, perSize.reduce(0, +))
    }

    /// The four PNGs' bytes per track over 200 generated tracks (300–18,000 fixes, log-uniform).
    private static func bytesPerTrack(work: String, renderer: ThumbnailRenderer) throws {
        var random = SplitMix64(seed: 200)
        let scratch = RenderScratch()
        var total = 0
        var palette = 0, images = 0
        for index in 0..<200 {
            let fixes = Int((300 * pow(60, random.uniform())).rounded())
            let bytes = Array(SampleCatalog.benchmarkRun(fixCount: fixes, seed: UInt64(index) &+ 5000).utf8)
            let result = try renderer.render(
                trackBytes: bytes, fileName: "track-\(index).gpx", key: renderer.store.key(forTrackBytes: bytes), scratch: scratch)
            total += result.pngs.reduce(0) { $0 + $1.count }
            for png in result.pngs {
                images += 1
                // Colour type at byte 25 of the IHDR: 3 is a palette.
                if png.count > 25, png[25] == 3 { palette += 1 }
            }
        }
        print(
            "  bytes: 200 generated tracks, four PNGs each: \(format(Double(total) / 200 / 1024, 1)) KB per track (\(palette) of \(images) images as a palette)"
        )
    }

    /// Wall time of `tracksnap --version`, median of 31.
    private static func processStart() throws {
        let tracksnap = ".build/release/tracksnap"
        guard FileManager.default.isExecutableFile(atPath: tracksnap) else { return }
        var times: [Double] = []
        for _ in 0..<31 {
            let start = ContinuousClock.now
            var pid: pid_t = 0
            let arguments = [tracksnap, "--version"]
            var cArguments = arguments.map { strdup($0) } + [nil]
            defer { for pointer in cArguments { free(pointer) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            defer { posix_spawn_file_actions_destroy(&actions) }
            guard posix_spawn(&pid, tracksnap, &actions, nil, &cArguments, environ) == 0 else { throw DevToolError("cannot start \(tracksnap)") }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            times.append(seconds(ContinuousClock.now - start))
        }
        print("  process start, `tracksnap --version`: \(format(Benchmark.median(times) * 1000, 2)) ms wall (target ≤ 2 ms)")
    }
}
