import ContentHash
import FileStore
import Foundation
import TrackSynthesis

/// The batch part of `make bench`: a 2,000-track mixed archive (300–18,000 fixes per track)
/// rendered cold by `tracksnap run` with 1 and 2 workers, and an unchanged nightly rerun
/// (`enqueue` + `run`) over 10,000 tracks. Runs the release `tracksnap` binary as a user would.
enum QueueBenchmark {
    static func run(work: String, runs requestedRuns: Int) throws {
        let runs = max(1, requestedRuns)
        let tracksnap = ".build/release/tracksnap"
        guard FileManager.default.isExecutableFile(atPath: tracksnap) else { throw DevToolError("build \(tracksnap) first (make bench does)") }
        let mixed = try archive(work + "/archive-mixed-2000", count: 2000, fixes: mixedFixCount)
        try hashThroughput(work: work)
        let sizes = try FileStore.listDirectory(mixed).compactMap { try FileStore.status(mixed + "/" + $0)?.sizeBytes }
        print(
            "\nBatch: \(sizes.count)-track mixed archive (300–18,000 fixes, \(sizes.reduce(0, +) / 1_048_576) MB), cold `tracksnap run`, median of \(runs):"
        )
        var rates: [Int: Double] = [:]
        for workers in [1, 2] {
            var times: [Double] = []
            var coresBusy: [Double] = []
            for _ in 0..<runs {
                let root = work + "/queue-cold"
                try? FileManager.default.removeItem(atPath: root)
                try execute(tracksnap, ["enqueue", mixed, "--jobs", root + "/Jobs", "--quiet"])
                let cpuBefore = childrenCPUSeconds()
                let seconds = try timed {
                    try execute(tracksnap, ["run", "--jobs", root + "/Jobs", "--output", root + "/Output", "--workers", "\(workers)", "--quiet"])
                }
                times.append(seconds)
                coresBusy.append((childrenCPUSeconds() - cpuBefore) / seconds)
            }
            let middle = times.indices.sorted { times[$0] < times[$1] }[times.count / 2]
            let median = times[middle]
            rates[workers] = Double(sizes.count) / median
            print(
                "  \(workers) worker\(workers == 1 ? " " : "s"): \(format(median, 2)) s, \(format(Double(sizes.count) / median, 1)) tracks/s, \(format(coresBusy[middle], 2)) cores busy  (runs: \(times.map { format($0, 2) }.joined(separator: ", ")) s)"
            )
        }
        print("  2 workers / 1 worker: \(format(rates[2]! / rates[1]!, 2))x (target ≥ 1.8x)")

        let small = try archive(work + "/archive-10000", count: 10_000) { _, random in 300 + Int(random.uniform() * 700) }
        let root = work + "/queue-warm"
        let jobs = root + "/Jobs", output = root + "/Output"
        if !FileManager.default.fileExists(atPath: output + "/index.json") {
            print("\n(first bench run: rendering the 10,000-track archive once to warm the cache)")
            try execute(tracksnap, ["enqueue", small, "--jobs", jobs, "--quiet"])
            try execute(tracksnap, ["run", "--jobs", jobs, "--output", output, "--quiet"])
        }
        var warm: [Double] = []
        for _ in 0..<max(5, runs) {
            warm.append(
                try timed {
                    try execute(tracksnap, ["enqueue", small, "--jobs", jobs, "--quiet"])
                    try execute(tracksnap, ["run", "--jobs", jobs, "--output", output, "--quiet"])
                })
        }
        let median = warm.sorted()[warm.count / 2]
        print(
            "\nWarm nightly rerun over 10,000 unchanged tracks (`enqueue` + `run`): \(format(median, 3)) s median of \(warm.count) (target ≤ 2 s; runs: \(warm.map { format($0, 3) }.joined(separator: ", ")))"
        )
    }

    /// Log-uniform between 300 and 18,000 fixes: many short tracks, some long ones.
    static func mixedFixCount(_ index: Int, _ random: inout SplitMix64) -> Int {
        Int((300 * pow(60, random.uniform())).rounded()) + index % 2
    }

    /// Writes `count` generated tracks into `directory` once (reused while complete).
    static func archive(_ directory: String, count: Int, fixes: (Int, inout SplitMix64) -> Int) throws -> String {
        if (try? FileStore.listDirectory(directory).count) == count { return directory }
        try? FileManager.default.removeItem(atPath: directory)
        try FileStore.createDirectories(directory)
        var random = SplitMix64(seed: UInt64(count))
        print("(generating \(count) tracks in \(directory) …)")
        for index in 0..<count {
            let fixCount = fixes(index, &random)
            let path = directory + "/track-\(index).gpx"
            try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: fixCount, seed: UInt64(index) &+ 1000).utf8), to: path)
        }
        // Aged like a real archive (enqueue waits for files modified within the settle time).
        let hourAgo = Date().addingTimeInterval(-3600)
        for name in try FileStore.listDirectory(directory) {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: directory + "/" + name)
        }
        return directory
    }

    /// SHA-256 speed (every job's bytes are hashed for its cache key).
    private static func hashThroughput(work: String) throws {
        let path = work + "/run-1000000.gpx"
        // Written by the render section; generated here when this section runs alone.
        if !FileManager.default.fileExists(atPath: path) {
            try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: 1_000_000).utf8), to: path)
        }
        let bytes = try FileStore.readFile(path)
        var times: [Double] = []
        for _ in 0..<5 { times.append(try timed { _ = SHA256.hash(bytes) }) }
        let median = times.sorted()[2]
        print("\nSHA-256 (ContentHash): \(format(Double(bytes.count) / median / 1_048_576, 0)) MB/s over \(bytes.count / 1_048_576) MB")
    }

    /// User + system CPU seconds of every child process waited for so far (workers included:
    /// `run` waits for them, so their time rolls up).
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func execute(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DevToolError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
    }

    private static func timed(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(ContinuousClock.now - start)
    }
}
