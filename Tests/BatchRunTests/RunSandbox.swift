import FileStore
import Foundation
import Testing
import TrackSynthesis

/// A temporary archive, queue and output folder, driven through the real `tracksnap` binary
/// (built by `swift build --build-tests`, as `make test` does).
struct RunSandbox {
    let root: String
    var archive: String { root + "/archive" }
    var jobs: String { root + "/Jobs" }
    var output: String { root + "/Output" }

    /// The `tracksnap` these tests run: `TRACKSNAP_TEST_BIN`'s folder when set (`make test` and CI
    /// set it to the release build users run, which renders 5-10 times faster than the debug one
    /// and so keeps CI within its time), else `.build/debug`.
    static let binary: String = {
        if let folder = ProcessInfo.processInfo.environment["TRACKSNAP_TEST_BIN"], !folder.isEmpty {
            return URL(fileURLWithPath: folder).appendingPathComponent("tracksnap").path
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/tracksnap").path
    }()

    /// With `detailImages: false` (most batch tests), `run` and `listing` get a style without the
    /// 1280×960 detail snapshots: they are about the queue, and the large images would triple
    /// their time.
    let detailImages: Bool
    var thumbnailsOnlyStyle: String { root + "/thumbnails-only.json" }

    init(detailImages: Bool = false) throws {
        root = NSTemporaryDirectory() + "tracksnap-run-\(UUID().uuidString)"
        self.detailImages = detailImages
        try FileStore.createDirectories([root + "/archive"])
        try FileStore.writeAtomically(Array(#"{"version": 1, "detail": false}"#.utf8), to: root + "/thumbnails-only.json")
    }

    /// Writes `count` small generated tracks into the archive (distinct bytes per seed), aged an
    /// hour so enqueue need not wait for them to settle.
    @discardableResult
    func writeTracks(_ count: Int, fixCount: Int = 120, seed: UInt64 = 1, prefix: String = "track") throws -> [String] {
        var names: [String] = []
        for index in 0..<count {
            let name = "\(prefix)-\(index).gpx"
            let path = archive + "/" + name
            try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: fixCount, seed: seed &+ UInt64(index)).utf8), to: path)
            age(path, seconds: 3600)
            names.append(name)
        }
        return names
    }

    func age(_ path: String, seconds: Double) {
        try? FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: path)
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// Runs `tracksnap` to completion.
    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = try start(arguments, environment: environment)
        let started = Date()
        let stdout = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        let stderr = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
            seconds: Date().timeIntervalSince(started))
    }

    /// `tracksnap run` over this sandbox's queue and output, plus `extra` arguments.
    @discardableResult
    func runQueue(_ extra: [String] = [], environment: [String: String] = [:]) throws -> Result {
        try run(["run", "--jobs", jobs, "--output", output, "--settle", "0"] + extra, environment: environment)
    }

    /// `tracksnap enqueue` of the archive.
    func enqueueArchive() throws {
        let result = try run(["enqueue", archive, "--jobs", jobs, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Starts `tracksnap` without waiting (stdout and stderr piped).
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        let styled = !detailImages && ["run", "listing"].contains(arguments.first ?? "") && !arguments.contains("--style")
        process.arguments = styled ? arguments + ["--style", thumbnailsOnlyStyle] : arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// The `--json` summary of a run.
    func summary(_ result: Result) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// Non-dot names in a queue folder.
    func jobs(in folder: String) -> [String] {
        ((try? FileStore.listDirectory(jobs + "/" + folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Problems with what a reader of Output/ can see: temp names without a leading dot, PNGs
    /// that are not complete (signature and a final IEND chunk), JSON that does not parse.
    func visibleOutputProblems() -> [String] {
        var problems: [String] = []
        guard let enumerator = FileManager.default.enumerator(atPath: output) else { return ["no output"] }
        while let relative = enumerator.nextObject() as? String {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                if relative.hasPrefix(".") { enumerator.skipDescendants() }
                continue
            }
            let path = output + "/" + relative
            guard let bytes = try? FileStore.readFile(path) else { continue }
            if relative.contains(".tmp") { problems.append("temporary visible: \(relative)") }
            if relative.hasSuffix(".png") && !Self.isCompletePNG(bytes) { problems.append("partial PNG: \(relative)") }
            if relative.hasSuffix(".json") && (try? JSONSerialization.jsonObject(with: Data(bytes))) == nil {
                problems.append("invalid JSON: \(relative)")
            }
        }
        return problems
    }

    /// PNG signature at the start, IEND chunk (with its CRC) at the end.
    static func isCompletePNG(_ bytes: [UInt8]) -> Bool {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        return bytes.count > 20 && Array(bytes.prefix(8)) == signature && Array(bytes.suffix(12)) == end
    }

    /// Every job's places among new, running, done, failed (each must have exactly one).
    func places() -> [String: [String]] {
        var result: [String: [String]] = [:]
        for folder in ["new", "running", "done", "failed"] {
            for name in jobs(in: folder) where !name.hasSuffix(".error") {
                let job =
                    folder == "running"
                    ? String(name.split(separator: "~").dropLast(4).joined(separator: "~"))
                    : folder == "new" ? String(name.split(separator: "~a").first ?? Substring(name)) : name
                result[job, default: []].append(folder)
            }
        }
        return result
    }

    /// The listing's tracks, newest first: index.json's parts (schema 4: counted, part N at
    /// `part_path` with N for `{n}`) read newest first.
    func listedTracks() -> [[String: Any]] {
        func object(_ path: String) -> [String: Any]? {
            guard let bytes = try? FileStore.readFile(output + "/" + path) else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        }
        guard let document = object("index.json"), let parts = document["parts"] as? Int, let pattern = document["part_path"] as? String
        else { return [] }
        return stride(from: parts, through: 1, by: -1).flatMap { number in
            object(pattern.replacingOccurrences(of: "{n}", with: String(number)))?["tracks"] as? [[String: Any]] ?? []
        }
    }
}
