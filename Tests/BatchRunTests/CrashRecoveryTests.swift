import FileStore
import Foundation
import TestSupport
import Testing
import TrackSynthesis

@Suite(.serialized) struct CrashRecoveryTests {
    @Test func aJobThatCrashesTheWorkerEveryTimeIsQuarantinedAfterThreeAttempts() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(6)
        try sandbox.writeTracks(1, prefix: "poison")
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--workers", "2", "--json"], environment: ["TRACKSNAP_TEST_CRASH_ON": "poison"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "done").count == 6)
        let failed = sandbox.jobs(in: "failed")
        #expect(failed.count == 2 && failed.allSatisfy { $0.contains("poison-0.gpx") })
        let status = try sandbox.run(["status", "--jobs", sandbox.jobs, "--json"])
        let failure = try #require(
            (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["failed"] as? [[String: Any]]
        ).first
        #expect(failure?["class"] as? String == "crash" && failure?["attempts"] as? Int == 3, "\(status.stdout)")
        #expect(sandbox.jobs(in: "running").isEmpty)
    }

    @Test func aJobPastTheTimeoutIsKilledRetriedAndQuarantined() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        try sandbox.writeTracks(1, prefix: "stuck")
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(
            ["--workers", "2", "--job-timeout", "1", "--attempts", "2", "--json"], environment: ["TRACKSNAP_TEST_HANG_ON": "stuck"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "done").count == 2)
        let sidecar = try #require(sandbox.jobs(in: "failed").first { $0.hasSuffix(".error") })
        let record = String(decoding: try FileStore.readFile(sandbox.jobs + "/failed/" + sidecar), as: UTF8.self)
        #expect(record.contains("\"class\":\"timeout\"") && record.contains("\"attempts\":2"), "\(record)")
    }

    @Test func killNineAtRandomMomentsLosesNothing() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(60, fixCount: 400)
        try sandbox.enqueueArchive()
        var generator = SystemRandomNumberGenerator()
        // A kill -9 of the whole run costs the jobs in flight no attempt (RunDeathTests has the
        // thirty-kill version); the default limits apply.
        let attempts: [String] = []
        for round in 0..<6 {
            let process = try sandbox.start(
                ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--workers", "2"] + attempts)
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.6, using: &generator))
            // The whole run: the supervisor and its workers (they share the test's process group,
            // so kill each pid, supervisor first).
            let workers = childPids(of: process.processIdentifier)
            kill(process.processIdentifier, SIGKILL)
            workers.forEach { kill($0, SIGKILL) }
            process.waitUntilExit()
            #expect(sandbox.visibleOutputProblems() == [], "round \(round)")
        }
        let final = try sandbox.runQueue(["--json"] + attempts)
        #expect(final.status == 0, "\(final.stderr)")
        #expect(sandbox.jobs(in: "done").count == 60, "\(sandbox.jobs(in: "failed"))")
        #expect(sandbox.jobs(in: "running").isEmpty && sandbox.jobs(in: "new").isEmpty && sandbox.jobs(in: "failed").isEmpty)
        #expect(sandbox.places().values.allSatisfy { $0.count == 1 })
        #expect(sandbox.visibleOutputProblems() == [])
        #expect(sandbox.listedTracks().count == 60)
        // No staging file survives the final run's sweep.
        let leftovers = FileManager.default.enumerator(atPath: sandbox.output)!.allObjects.compactMap { $0 as? String }.filter {
            $0.contains(".tmp~")
        }
        #expect(leftovers == [])
    }

    @Test func aCrashAfterPublishingBeforeTheAckIsACacheHit() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        // Put the finished job back as a claim of a dead worker: as if it died just before the ack.
        let job = sandbox.jobs(in: "done")[0]
        let dead = try deadProcessIdentifier()
        try FileStore.move(sandbox.jobs + "/done/" + job, to: sandbox.jobs + "/running/\(job)~a1~\(TemporaryName.host)~\(dead)~1")
        let rerun = try sandbox.runQueue(["--json"])
        let summary = sandbox.summary(rerun)
        #expect(summary["rendered"] as? Int == 0 && summary["cached"] as? Int == 1, "\(rerun.stdout) \(rerun.stderr)")
        #expect(sandbox.jobs(in: "done") == [job])
    }

    @Test func sigtermStopsClaimingAndReturnsWhatIsInFlight() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(40, fixCount: 400)
        try sandbox.writeTracks(1, prefix: "stuck")
        try sandbox.enqueueArchive()
        let process = try sandbox.start(
            ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--workers", "2", "--stop-deadline", "1", "--json"],
            environment: ["TRACKSNAP_TEST_HANG_ON": "stuck"])
        Thread.sleep(forTimeInterval: 0.5)
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(signalled)
        // The stuck job hangs for good: a run that waited for it would never end. 10 s is the
        // 1 s deadline plus the listing of what was done, with room for a loaded machine (at
        // load 8 this took 3.4 s; a bound of 3 s failed there).
        #expect(seconds < 10, "took \(seconds) s")
        #expect(sandbox.jobs(in: "running").isEmpty)
        #expect(sandbox.places().count == 41 && sandbox.places().values.allSatisfy { $0.count == 1 })
        // The hanging job went back without an attempt counted; the run says "try again" (75).
        #expect(sandbox.jobs(in: "new").contains { $0.hasSuffix("stuck-0.gpx") })
        #expect(process.terminationStatus == 75)
        #expect(sandbox.visibleOutputProblems() == [])
        let rest = try sandbox.runQueue([], environment: [:])
        #expect(rest.status == 0 && sandbox.jobs(in: "done").count == 41, "\(rest.stderr)")
    }

    @Test func aSecondSignalAbortsAtOnceAndStillReturnsTheJobsInFlight() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1, prefix: "stuck")
        try sandbox.enqueueArchive()
        let process = try sandbox.start(
            ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--stop-deadline", "60"],
            environment: ["TRACKSNAP_TEST_HANG_ON": "stuck"])
        for _ in 0..<200 where sandbox.jobs(in: "running").isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        kill(process.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 0.3)
        let second = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(second) < 2)
        #expect(process.terminationStatus == 75)
        #expect(sandbox.jobs(in: "running").isEmpty)
        #expect(sandbox.jobs(in: "new").count == 1 && !sandbox.jobs(in: "new")[0].contains("~a"))
    }

    @Test func aStaleClaimOfADeadPidAndAnAgedForeignClaimAreReaped() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        let jobs = sandbox.jobs(in: "new")
        try FileStore.move(
            sandbox.jobs + "/new/" + jobs[0], to: sandbox.jobs + "/running/\(jobs[0])~a1~\(TemporaryName.host)~\(try deadProcessIdentifier())~5")
        let foreign = sandbox.jobs + "/running/\(jobs[1])~a1~some-other-node~77~5"
        try FileStore.move(sandbox.jobs + "/new/" + jobs[1], to: foreign)
        let heartbeat = sandbox.jobs + "/running/.heartbeat~some-other-node~77~5"
        try FileStore.writeAtomically([], to: heartbeat)
        // A live foreign claim is left alone...
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.jobs(in: "done") == [jobs[0]])
        #expect(FileStore.exists(foreign))
        // ...until its heartbeat is older than the lease (touch -d).
        sandbox.age(foreign, seconds: 700)
        sandbox.age(heartbeat, seconds: 700)
        #expect(try sandbox.runQueue(["--lease", "600"]).status == 0)
        #expect(sandbox.jobs(in: "done") == jobs.sorted())
    }

    @Test func aFullDiskReturnsTheJobKeepsTheOldThumbnailAndExits75() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("disk-full.sh").path
        let sandbox = try RunSandbox()
        try FileStore.createDirectories([sandbox.root + "/seed"])
        // Two versions of one track, large enough that their images do not fit in what is left.
        try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: 3000, seed: 7).utf8), to: sandbox.root + "/seed/first.gpx")
        try FileStore.writeAtomically(Array(SampleCatalog.benchmarkRun(fixCount: 3000, seed: 8).utf8), to: sandbox.root + "/seed/second.gpx")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, RunSandbox.binary, sandbox.root]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("disk-full: ok"), "\(text)")
    }

    private func childPids(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }
}

/// The worker memory fence (issue 13 item 1): a track whose cost the readers misjudge stops its
/// own worker at twice `--memory-limit`, is quarantined at once with class `limit`, and the run
/// goes on with a new worker.
@Suite struct MemoryFenceTests {
    @Test func aTrackThatExhaustsTheWorkerFenceIsQuarantinedOnceWithClassLimit() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(4)
        try sandbox.writeTracks(1, prefix: "hog")
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(
            ["--workers", "2", "--memory-limit", "64", "--json"], environment: ["TRACKSNAP_TEST_ALLOCATE_ON": "hog"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "done").count == 4)
        let failed = sandbox.jobs(in: "failed")
        #expect(failed.count == 2 && failed.allSatisfy { $0.contains("hog-0.gpx") }, "\(failed)")
        let sidecar = try #require(failed.first { $0.hasSuffix(".error") })
        let record = String(decoding: try FileStore.readFile(sandbox.jobs + "/failed/" + sidecar), as: UTF8.self)
        #expect(record.contains("\"class\":\"limit\""), "\(record)")
        #expect(record.contains("128 MiB fence") && record.contains("--memory-limit"), "\(record)")
        // Once, not three attempts: the fence is deterministic.
        #expect(record.contains("\"attempts\":1") || !record.contains("\"attempts\":"), "\(record)")
        #expect(!result.stderr.contains("retrying"), "\(result.stderr)")
        #expect(sandbox.jobs(in: "running").isEmpty)
    }

    @Test func ordinaryTracksRenderUnderTheSmallestFence() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(3, fixCount: 20_000)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--workers", "1", "--memory-limit", "64"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "done").count == 3)
    }
}

@Suite struct WorkerStartupDeathTests {
    @Test func workersThatDieBeforeClaimingStopTheRunInsteadOfLooping() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--workers", "2"], environment: ["TRACKSNAP_TEST_CRASH_AT_START": "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("died (signal 6) before claiming a job"), "\(result.stderr)")
        // Nothing claimed, nothing lost: the jobs wait in new/ for a working binary.
        #expect(sandbox.jobs(in: "new").count == 3 && sandbox.jobs(in: "failed").isEmpty)
    }
}
