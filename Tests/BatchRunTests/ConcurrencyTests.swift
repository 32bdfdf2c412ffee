import FileStore
import Foundation
import Testing

@Suite(.serialized) struct ConcurrencyTests {
    @Test func aSecondRunWhileOneIsActiveExits75AtOnceAndTouchesNothing() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(3)
        try sandbox.writeTracks(1, prefix: "stuck")
        try sandbox.enqueueArchive()
        let first = try sandbox.start(
            ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--stop-deadline", "0"],
            environment: ["TRACKSNAP_TEST_HANG_ON": "stuck"])
        defer {
            kill(first.processIdentifier, SIGTERM)
            first.waitUntilExit()
        }
        // Wait until the first run has finished the others and holds only the stuck job.
        for _ in 0..<200 where sandbox.jobs(in: "done").count < 3 || sandbox.jobs(in: "running").count != 1 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.2)
        let before = snapshot(sandbox)
        let second = try sandbox.runQueue(["--json"])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.seconds < 1, "took \(second.seconds) s")
        #expect(second.stderr.contains("another run is active"))
        #expect(snapshot(sandbox) == before)
    }

    @Test func twoProcessesWithTheLockBypassedOver2000JobsDoEachJobOnce() throws {
        let sandbox = try RunSandbox()
        // 2,000 jobs: 200 distinct tracks, each under ten names, so the two runs race for claims
        // and for the same cache keys all the time while most jobs stay cheap (cache hits).
        let distinct = try sandbox.writeTracks(200, fixCount: 60)
        for copy in 1..<10 {
            try FileStore.createDirectories([sandbox.archive + "/copy-\(copy)"])
            for name in distinct {
                _ = try FileStore.hardLink(sandbox.archive + "/" + name, to: sandbox.archive + "/copy-\(copy)/" + name)
            }
        }
        try sandbox.enqueueArchive()
        #expect(sandbox.jobs(in: "new").count == 2000)
        let arguments = ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--workers", "2", "--no-lock", "--json"]
        let runs = try (0..<2).map { _ in try sandbox.start(arguments) }
        var totals: [String: Int] = [:]
        for run in runs {
            let stdout = (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
            run.waitUntilExit()
            #expect(run.terminationStatus == 0)
            let summary = (try? JSONSerialization.jsonObject(with: stdout) as? [String: Any]) ?? [:]
            for key in ["claimed", "rendered", "cached", "failed"] { totals[key, default: 0] += summary[key] as? Int ?? 0 }
        }
        let places = sandbox.places()
        #expect(places.count == 2000 && places.values.allSatisfy { $0 == ["done"] })
        // Each job claimed once; each distinct track rendered once across both runs.
        #expect(totals == ["claimed": 2000, "rendered": 200, "cached": 1800, "failed": 0], "\(totals)")
        #expect(sandbox.visibleOutputProblems() == [])
        #expect(sandbox.listedTracks().count == 200)
    }

    @Test func aClientPollingOutputNeverSeesAPartialFile() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(80, fixCount: 1500)
        try sandbox.enqueueArchive()
        let run = try sandbox.start(["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--workers", "2"])
        var polls = 0
        var problems: [String] = []
        while run.isRunning {
            problems += sandbox.visibleOutputProblems().filter { $0 != "no output" }
            polls += 1
        }
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        #expect(polls > 5)
        #expect(problems == [])
        #expect(sandbox.jobs(in: "done").count == 80)
    }

    /// Names, sizes and mtimes of everything under the sandbox (what "touches nothing" means).
    private func snapshot(_ sandbox: RunSandbox) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: sandbox.root)!
        while let relative = enumerator.nextObject() as? String {
            // The first run's own heartbeat file is touched by it; not the second run's doing.
            if relative.contains(".heartbeat~") { continue }
            let status = try? FileStore.status(sandbox.root + "/" + relative)
            result[relative] = status.map { "\($0.sizeBytes) \($0.modificationNanoseconds)" } ?? "?"
        }
        return result
    }
}
