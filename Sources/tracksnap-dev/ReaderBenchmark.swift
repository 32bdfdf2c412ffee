import FileStore
import Foundation
import TrackFormats
import TrackModel
import TrackSynthesis

/// The reader section of `make bench`: MB/s and fixes/s per format on one large generated track
/// (the same fixes written in every format), and the peak memory of reading a 1 GB GPX file in its
/// own process (`tracksnap-dev decode`), against the size of the fixes it yields.
enum ReaderBenchmark {
    static let fixCount = 800_000

    static func run(work: String, runs: Int) throws {
        let directory = work + "/readers"
        try FileStore.createDirectories(directory)
        var recipe = RouteRecipe(
            startLatitude: 45.83, startLongitude: 6.86, startTime: 1_714_806_720, fixCount: fixCount, intervalSeconds: 1,
            speedMetersPerSecond: 3, headingDegrees: 10, headingJitterDegrees: 3, baseElevation: 1_000, hillAmplitude: 300)
        recipe.cornerProbability = 0.002
        var cached: Track?
        func track() -> Track {
            if let cached { return cached }
            let made = Track(format: .gpx, name: "Reader benchmark", segments: [TrackSegment(fixes: RouteSynthesizer.fixes(recipe, seed: 7))])
            cached = made
            return made
        }
        let files: [(label: String, name: String, make: () -> [UInt8])] = [
            ("GPX 1.1", "big.gpx", { Array(TrackWriters.gpx11(track()).utf8) }),
            ("GPX, gzip", "big.gpx.gz", { Compression.deflate(Array(TrackWriters.gpx11(track()).utf8), gzip: true) }),
            ("TCX", "big.tcx", { Array(TrackWriters.tcx(track()).utf8) }),
            ("KML gx:Track", "big.kml", { Array(TrackWriters.kml(track(), timed: true).utf8) }),
            ("KMZ (LineString)", "big.kmz", { Compression.zip([("doc.kml", Array(TrackWriters.kml(track(), timed: false).utf8))]) }),
            ("GeoJSON", "big.geojson", { Array(TrackWriters.geoJSON(track()).utf8) }),
            ("CSV", "big.csv", { Array(TrackWriters.csv(track()).utf8) }),
            ("FIT", "big.fit", { FITEncoder.encode(track()) }),
            (
                "FIT, compressed timestamps", "big-compressed.fit",
                {
                    var options = FITEncoder.Options()
                    options.compressedTimestamps = true
                    options.chainedCompressedTimestamps = true
                    return FITEncoder.encode(track(), options: options)
                }
            ),
        ]
        print("\nReaders: one thread, file already in memory, median of \(runs) decodes; \(fixCount) fixes written in every format")
        print(
            pad("format", 28) + pad("file MB", 10, left: true) + pad("ms", 10, left: true) + pad("MB/s", 10, left: true)
                + pad("M fixes/s", 12, left: true))
        for file in files {
            let path = directory + "/" + file.name
            if !FileStore.exists(path) { try FileStore.writeAtomically(file.make(), to: path) }
            let bytes = try FileStore.readFile(path)
            var times: [Double] = []
            var fixes = 0
            for _ in 0..<(runs + 1) {
                let start = ContinuousClock.now
                let decoded = try TrackDecoder.decode(bytes, fileName: file.name)
                times.append(seconds(ContinuousClock.now - start))
                fixes = decoded.fixCount
            }
            times.removeFirst()  // warm-up
            let median = times.sorted()[times.count / 2]
            let megabytes = Double(bytes.count) / 1e6
            print(
                pad(file.label, 28) + pad(format(megabytes, 1), 10, left: true) + pad(format(median * 1000, 1), 10, left: true)
                    + pad(format(megabytes / median, 0), 10, left: true) + pad(format(Double(fixes) / median / 1e6, 1), 12, left: true))
        }
        print("(MB/s counts the file as stored: compressed bytes for gzip and KMZ; FIT fixes are record messages)")
        try peakMemoryOfGigabyteGPX(directory: directory)
    }

    /// Writes a GPX file of about 1 GB by streaming segments of the benchmark fixes, shifted in time.
    private static func gigabyteGPX(_ path: String) throws {
        if FileStore.exists(path) { return }
        let temporary = path + ".partial"
        _ = FileManager.default.createFile(atPath: temporary, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var recipe = RouteRecipe(
            startLatitude: 45.83, startLongitude: 6.86, startTime: 1_714_806_720, fixCount: 100_000, intervalSeconds: 1,
            speedMetersPerSecond: 3, headingDegrees: 10, headingJitterDegrees: 3, baseElevation: 1_000, hillAmplitude: 300)
        recipe.cornerProbability = 0.002
        let fixes = RouteSynthesizer.fixes(recipe, seed: 11)
        let text = TrackWriters.gpx11(Track(format: .gpx, name: "One gigabyte", segments: [TrackSegment(fixes: fixes)]))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let head = lines.prefix { !$0.contains("<trkseg>") }.joined(separator: "\n") + "\n"
        let body = lines.filter { $0.contains("<trkpt") }.joined(separator: "\n") + "\n"
        handle.write(Data(head.utf8))
        var written = head.utf8.count
        let bodyBytes = Data(body.utf8)
        // Up to just under the default 1 GiB input limit.
        while written + bodyBytes.count + 40 < 1_070_000_000 {
            handle.write(Data("  <trkseg>\n".utf8))
            handle.write(bodyBytes)
            handle.write(Data("  </trkseg>\n".utf8))
            written += bodyBytes.count + 24
        }
        handle.write(Data(" </trk>\n</gpx>\n".utf8))
        try handle.close()
        try FileStore.move(temporary, to: path)
    }

    private static func peakMemoryOfGigabyteGPX(directory: String) throws {
        let path = directory + "/gigabyte.gpx"
        try gigabyteGPX(path)
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M %e", tool, "decode", path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = report.split(separator: "\n").last?.split(separator: " ") ?? []
        guard process.terminationStatus == 0, fields.count == 2, let kilobytes = Double(fields[0]),
            let fixes = Int(printed.split(separator: " ").first ?? "")
        else {
            throw DevToolError("tracksnap-dev decode failed on \(path): \(printed) \(report)")
        }
        let fileMB = Double((try? FileStore.status(path))??.sizeBytes ?? 0) / 1e6
        let fixesMB = Double(fixes * MemoryLayout<Fix>.stride) / 1e6
        let peakMB = kilobytes * 1024 / 1e6
        print(
            "\n1 GB GPX (\(format(fileMB, 0)) MB, \(fixes) fixes = \(format(fixesMB, 0)) MB of fixes) read in its own process (mapped, pages released behind the reader): "
                + "peak RSS \(format(peakMB, 0)) MB = \(format(peakMB / fixesMB, 2))x the fixes, \(fields[1]) s")
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? fill + text : text + fill
    }
}
