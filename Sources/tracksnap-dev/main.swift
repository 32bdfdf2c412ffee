import BatchRun
import FileStore
import Foundation
import TrackFormats
import ThumbnailCache
import SnapshotRendering
import StyleFile
import TrackSynthesis

// Developer tools (not part of the user-facing CLI); DevHelp.swift lists them.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
    if arguments.count >= 2 {
        guard let text = DevHelp.text(for: arguments[1]) else {
            FileHandle.standardError.write(Data("tracksnap-dev: no command '\(arguments[1])'\n\(DevHelp.overview)\n".utf8))
            exit(2)
        }
        print(text)
    } else {
        print(DevHelp.overview)
    }
    exit(arguments.isEmpty ? 2 : 0)
}
if arguments.count >= 2, arguments[1] == "--help" || arguments[1] == "-h", let text = DevHelp.text(for: arguments[0]) {
    print(text)
    exit(0)
}
do {
    switch arguments.first {
    case "samples":
        guard arguments.count == 2 else { throw DevHelp.usageError("samples") }
        try FileStore.createDirectories(arguments[1])
        for file in SampleCatalog.samples() {
            try FileStore.writeAtomically(Array(file.contents.utf8), to: arguments[1] + "/" + file.name)
            print("wrote \(arguments[1])/\(file.name)")
        }
    case "corpus":
        guard arguments.count == 2 else { throw DevHelp.usageError("corpus") }
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
            throw DevHelp.usageError("hostile")
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
        guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else { throw DevHelp.usageError("archive") }
        _ = try QueueBenchmark.archive(arguments[1], count: count, fixes: QueueBenchmark.mixedFixCount)
    case "region":
        // Loops inside one region, for benchmarks over a real map of it (the vector section).
        guard arguments.count == 3 || (arguments.count == 5 && arguments[3] == "--bounds"), let count = Int(arguments[2]), count > 0 else {
            throw DevHelp.usageError("region")
        }
        var outline = RegionTracks.liechtenstein
        if arguments.count == 5 {
            let bounds = arguments[4].split(separator: ",").compactMap { Double($0) }
            guard bounds.count == 4, bounds[0] < bounds[2], bounds[1] < bounds[3] else {
                throw DevHelp.usageError("region", "--bounds wants west,south,east,north in degrees with west < east and south < north")
            }
            outline = RegionTracks.outline(boundsLonLat: bounds)
        }
        try FileStore.createDirectories(arguments[1])
        for file in RegionTracks.files(outlineLonLat: outline, count: count) {
            try FileStore.writeAtomically(Array(file.contents.utf8), to: arguments[1] + "/" + file.name)
        }
        print("wrote \(count) tracks under \(arguments[1])")
    case "tiles":
        try TileSetCommand.run(Array(arguments.dropFirst()))
    case "decode":
        guard arguments.count == 2 else { throw DevHelp.usageError("decode") }
        let file = try MappedFile(arguments[1])
        let track = try TrackDecoder.decode(file.bytes, fileName: arguments[1]) { file.release(upTo: $0) }
        print("\(track.fixCount) fixes in \(track.segments.count) segments (\(track.format.rawValue))")
    case "repeat":
        // For profilers: one render over and over with one scratch and the heap kept, as a worker does.
        guard arguments.count == 5, let width = Int(arguments[2]), let scale = Double(arguments[3]), let count = Int(arguments[4]) else {
            throw DevHelp.usageError("repeat")
        }
        var options = RenderOptions()
        options.widthPoints = width
        options.heightPoints = width * 3 / 4
        options.scale = scale
        HeapRetention.keepFreedMemory()
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
    case "parse-records":
        // The listing's cold read: what parsing the records costs, without the disk.
        guard arguments.count == 2 || arguments.count == 3 else { throw DevHelp.usageError("parse-records") }
        let directory = arguments[1]
        let limit = arguments.count == 3 ? Int(arguments[2]) ?? 5000 : 5000
        let names = try FileStore.listDirectory(directory).filter { $0.hasSuffix(".json") }.prefix(limit)
        guard !names.isEmpty else { throw DevToolError("no records (*.json) in \(directory)") }
        let files = try names.map { try FileStore.readFile(directory + "/" + $0) }
        var times: [Double] = []
        var parsed = 0
        for _ in 0..<7 {
            let start = ContinuousClock.now
            for bytes in files where ThumbnailCache.TrackRecord.parse(bytes) != nil { parsed += 1 }
            times.append(seconds(ContinuousClock.now - start) / Double(files.count))
        }
        print("TrackRecord.parse: median \(format(Benchmark.median(times) * 1e6, 2)) us a record over \(files.count) records (\(parsed / 7) parsed)")
    case "bench":
        try Benchmark.run(Array(arguments.dropFirst()))
    case "pmtiles":
        try PMTilesCommand.run(Array(arguments.dropFirst()))
    case "vector-decode":
        guard arguments.count >= 2 else { throw DevHelp.usageError("vector-decode") }
        try VectorDecodeCommand.run(Array(arguments.dropFirst()))
    default:
        throw DevToolError("no command '\(arguments[0])'\n\(DevHelp.overview)")
    }
} catch {
    FileHandle.standardError.write(Data("tracksnap-dev: \(error)\n".utf8))
    exit(1)
}
