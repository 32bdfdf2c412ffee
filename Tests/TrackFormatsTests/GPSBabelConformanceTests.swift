import Foundation
import Testing
import TrackModel
import TrackSynthesis
@testable import TrackFormats

/// Each reader against Debian's gpsbabel, the reference implementation, on the generated corpus
/// (`ConformanceCorpus`): gpsbabel converts every file to GPX, our GPX reader reads that, and the
/// fixes must agree: the same count per segment, coordinates within 1e-7°, equal times.
///
/// Where gpsbabel and the format's description disagree, the test follows the description and
/// the case is listed here:
/// - GeoJSON: gpsbabel 1.8 does not read `properties.coordTimes` (a togeojson convention, not
///   RFC 7946) nor elevations, so times are compared only where gpsbabel has them.
/// - TCX: gpsbabel joins the `Track`s of all laps into one segment; a TCX `Track` ends where the
///   watch paused, so TrackSnap keeps each as a segment (the gap is not drawn).
/// - GeoJSON: gpsbabel joins the lines of a `MultiLineString` into one segment; RFC 7946 makes
///   them separate lines, and TrackSnap keeps them apart.
/// - FIT: gpsbabel keeps one segment per file and ignores timer stop events; the FIT profile says a
///   timer stop pauses recording, which TrackSnap draws as a gap.
/// - FIT: gpsbabel 1.8 adds a compressed header's 5-bit offset to the last full timestamp of a
///   record; the protocol replaces the low 5 bits of the previous message's time (rolling over).
///   The two agree only when that full timestamp is a multiple of 32 s and the run is shorter than
///   32 s, which is how the corpus writes them (`FITEncoder.Options.compressedTimestamps`);
///   FITReaderTests covers the general case, including timestamps carried by event messages.
/// For TCX, GeoJSON and FIT the fixes are compared in order across segments, and the segment counts
/// against the written track.
/// CI installs gpsbabel (`.ci/run`); without it, and outside CI, the test is skipped with a note.
@Suite struct GPSBabelConformanceTests {
    static let gpsbabel = ["/usr/bin/gpsbabel", "/usr/local/bin/gpsbabel"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static let babelFormat = [
        "gpx": "gpx", "csv": "unicsv", "tcx": "gtrnctr", "fit": "garmin_fit", "kml": "kml", "geojson": "geojson",
    ]

    /// The corpus files gpsbabel can read directly (it has no KMZ reader; gzip is ours to undo).
    static let cases: [ConformanceCorpus.File] = ConformanceCorpus.files().filter { babelFormat[$0.reader] != nil }

    @Test(arguments: 0..<cases.count) func agreesWithGPSBabel(_ index: Int) throws {
        let file = Self.cases[index]
        guard let gpsbabel = Self.gpsbabel else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("gpsbabel is not installed; .ci/run must install it") }
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracksnap-babel-\(getpid())-\(index)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent(file.name)
        try Data(file.bytes).write(to: input)
        let output = directory.appendingPathComponent("babel.gpx")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gpsbabel)
        process.arguments = ["-t", "-i", Self.babelFormat[file.reader]!, "-f", input.path, "-o", "gpx", "-F", output.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "gpsbabel failed on \(file.name): \(message)")

        let ours = try TrackDecoder.decode(file.bytes, fileName: file.name)
        let theirs = try TrackDecoder.decode(Array(try Data(contentsOf: output)), fileName: "babel.gpx")
        let ourFixes = ours.segments.flatMap(\.fixes), theirFixes = theirs.segments.flatMap(\.fixes)
        if ["fit", "geojson", "tcx"].contains(file.reader) {
            #expect(ours.segments.map(\.fixes.count) == file.track.segments.map(\.fixes.count), "\(file.name)")
            #expect(ourFixes.count == theirFixes.count, "\(file.name)")
        } else {
            #expect(ours.segments.map(\.fixes.count) == theirs.segments.map(\.fixes.count), "\(file.name)")
        }
        var mismatches: [String] = []
        for (k, (a, b)) in zip(ourFixes, theirFixes).enumerated() {
            let sameTime = a.timeSeconds == b.timeSeconds || b.timeSeconds.isNaN && (a.timeSeconds.isNaN || file.reader == "geojson")
            if abs(a.latitudeDegrees - b.latitudeDegrees) > 1e-7 || abs(a.longitudeDegrees - b.longitudeDegrees) > 1e-7 || !sameTime {
                mismatches.append("fix \(k): ours \(a), gpsbabel \(b)")
            }
        }
        #expect(mismatches.isEmpty, "\(file.name): \(mismatches.count) fixes differ, first: \(mismatches.first ?? "")")
    }
}
