import FileStore
import Foundation
import TrackFormats
import SnapshotRendering
import ThumbnailCache
import TrackSynthesis

// Developer tools (not part of the user-facing CLI):
//   tracksnap-dev samples DIR            write the sample tracks (Jobs/samples/)
//   tracksnap-dev corpus DIR             write the conformance corpus as DIR/<reader>/<file> (fuzz seeds)
//   tracksnap-dev decode FILE            map and decode one track file; prints "<fixes> fixes" (bench's memory figure)
//   tracksnap-dev repeat FILE W S N      render FILE at W points wide (4:3), scale S, N times (for profilers; W 0: the product)
//   tracksnap-dev tiles OUT --bounds W,S,E,N --zooms A-B [--kind map|position] [--jpeg] [--folder]
//                                        a generated tile set (MBTiles, or a {z}/{x}/{y} folder) for the README and tests
//   tracksnap-dev bench [--work DIR] [--runs N] [--queue-runs N] [--section all|product|basemap|readers|queue|listing]
//                                        the render and batch benchmarks (make bench)
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "samples":
        guard arguments.count == 2 else { throw DevToolError("usage: tracksnap-dev samples DIR") }
        try FileStore.createDirectories(arguments[1])
        for file in SampleCatalog.samples() {
            try FileStore.writeAtomically(Array(file.contents.utf8), to: arguments[1] + "/" + file.name)
            print("wrote \(arguments[1])/\(file.name)")
        }
    case "corpus":
        guard arguments.count == 2 else { throw DevToolError("usage: tracksnap-dev corpus DIR") }
        for file in ConformanceCorpus.files() {
            try FileStore.createDirectories(arguments[1] + "/" + file.reader)
            try FileStore.writeAtomically(file.bytes, to: arguments[1] + "/" + file.reader + "/" + file.name)
        }
        print("wrote \(ConformanceCorpus.files().count) files under \(arguments[1])")
    case "hostile":
        // The files that found issue 13's problems: `--full` at the sizes that found them (GBs of
        // memory before the fixes), `--seeds` only the small ones, by reader, for Fuzz/seeds/.
        let flags = Set(arguments.dropFirst(2))
        guard arguments.count >= 2, flags.isSubset(of: ["--full", "--seeds"]) else {
            throw DevToolError("usage: tracksnap-dev hostile DIR [--full | --seeds]")
        }
        var written = 0
        for file in HostileFiles.files(flags.contains("--full") ? .full : .test) {
            var folder = arguments[1]
            if flags.contains("--seeds") {
                guard file.bytes.count <= 64 << 10 else { continue }
                folder += "/" + (file.name.hasSuffix(".gz") ? "gzip" : String(file.name.split(separator: ".").last!))
            }
            try FileStore.createDirectories(folder)
            try FileStore.writeAtomically(file.bytes, to: folder + "/hostile-" + file.name)
            written += 1
        }
        print("wrote \(written) hostile files under \(arguments[1])")
    case "archive":
        // The benchmark's mixed archive (300–18,000 fixes, log-uniform), for scripts/slurm-check.sh.
        guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else { throw DevToolError("usage: tracksnap-dev archive DIR COUNT") }
        _ = try QueueBenchmark.archive(arguments[1], count: count, fixes: QueueBenchmark.mixedFixCount)
    case "tiles":
        try TileSetCommand.run(Array(arguments.dropFirst()))
    case "decode":
        guard arguments.count == 2 else { throw DevToolError("usage: tracksnap-dev decode FILE") }
        let file = try MappedFile(arguments[1])
        let track = try TrackDecoder.decode(file.bytes, fileName: arguments[1]) { file.release(upTo: $0) }
        print("\(track.fixCount) fixes in \(track.segments.count) segments (\(track.format.rawValue))")
    case "repeat":
        // For profilers: one render over and over with one scratch, as a worker does.
        guard arguments.count == 5, let width = Int(arguments[2]), let scale = Double(arguments[3]), let count = Int(arguments[4]) else {
            throw DevToolError("usage: tracksnap-dev repeat FILE WIDTH_POINTS SCALE COUNT (height is 3/4 of the width; width 0: the four default images)")
        }
        var options = RenderOptions()
        options.widthPoints = width
        options.heightPoints = width * 3 / 4
        options.scale = scale
        let bytes = try FileStore.readFile(arguments[1])
        let scratch = RenderScratch()
        // Width 0: the default product (every image of ThumbnailSettings, one decode).
        let images = width == 0 ? ThumbnailSettings().images.map(ThumbnailSettings().options(for:)) : [options]
        var times: [Double] = []
        for _ in 0..<count {
            let start = ContinuousClock.now
            _ = try SnapshotRenderer.render(track: try SnapshotRenderer.decode(trackBytes: bytes), images: images, scratch: scratch)
            times.append(seconds(ContinuousClock.now - start))
        }
        print("median \(format(Benchmark.median(times) * 1000, 2)) ms over \(count)")
    case "bench":
        try Benchmark.run(Array(arguments.dropFirst()))
    default:
        throw DevToolError("usage: tracksnap-dev samples DIR | corpus DIR | hostile DIR [--full|--seeds] | archive DIR COUNT | bench [--work DIR] [--runs N] [--queue-runs N] [--section all|product|basemap|readers|queue|listing]")
    }
} catch {
    FileHandle.standardError.write(Data("tracksnap-dev: \(error)\n".utf8))
    exit(1)
}
