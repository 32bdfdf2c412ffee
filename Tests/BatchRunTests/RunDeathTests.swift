import FileStore
import Foundation
import Testing

/// Whole runs killed at random moments (an OOM killer, a reboot, a pod eviction, a Slurm
/// preemption): the jobs in flight are not to blame (issue 12, item 11).
@Suite(.serialized) struct RunDeathTests {
    /// Kills a run as a whole: the supervisor first, so nothing settles the claims, then its workers
    /// (children of any of its threads).
    private func killWholeRun(_ process: Process) {
        let pid = process.processIdentifier
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let workers = threads.flatMap { thread in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap {
                Int32($0)
            }
        }
        kill(process.processIdentifier, SIGKILL)
        workers.forEach { kill($0, SIGKILL) }
        process.waitUntilExit()
    }

    @Test func thirtyWholeRunKillsBlameNoGoodJob() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(240, fixCount: 300)
        // Bad input is still quarantined for its own reason.
        try FileStore.writeAtomically(Array("not a track".utf8), to: sandbox.archive + "/broken.gpx")
        try sandbox.enqueueArchive()
        var generator = SystemRandomNumberGenerator()
        for round in 0..<32 {
            // Default --attempts 3 and --run-deaths 6: with the old rule, a job in flight at three
            // of these kills was quarantined as a crash.
            let process = try sandbox.start(["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--workers", "2"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.4, using: &generator))
            killWholeRun(process)
            #expect(sandbox.visibleOutputProblems() == [], "round \(round)")
        }
        let final = try sandbox.runQueue(["--json"])
        #expect(final.status == 0, "\(final.stderr)")
        #expect(sandbox.jobs(in: "done").count == 240, "\(sandbox.jobs(in: "failed"))")
        #expect(sandbox.jobs(in: "failed").filter { !$0.hasSuffix(".error") }.map { $0.hasSuffix("broken.gpx") } == [true])
        let record = try String(
            contentsOfFile: sandbox.jobs + "/failed/" + sandbox.jobs(in: "failed").first { $0.hasSuffix(".error") }!, encoding: .utf8)
        #expect(record.contains("\"class\":\"invalid-input\""), "\(record)")
        #expect(sandbox.jobs(in: "running").isEmpty && sandbox.jobs(in: "new").isEmpty)
        #expect(sandbox.places().values.allSatisfy { $0.count == 1 })
    }

    @Test func aJobWhoseRunDiesEveryTimeIsQuarantinedAfterSixRuns() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(4, prefix: "fine")
        try sandbox.writeTracks(1, seed: 9, prefix: "killer")
        try sandbox.enqueueArchive()
        // The killer hangs its worker; the test then kills the whole run, as an OOM kill would.
        let environment = ["TRACKSNAP_TEST_HANG_ON": "killer"]
        var runs = 0
        while sandbox.jobs(in: "failed").isEmpty && runs < 10 {
            let process = try sandbox.start(
                ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--workers", "1"], environment: environment)
            runs += 1
            // Wait for this run's own claim (the last run's stays until this run's reaper sees it).
            let before = Set(sandbox.jobs(in: "running"))
            let deadline = Date().addingTimeInterval(20)
            while !sandbox.jobs(in: "running").contains(where: { $0.contains("killer") && !before.contains($0) }) && process.isRunning
                && Date() < deadline
            {
                Thread.sleep(forTimeInterval: 0.02)
            }
            if process.isRunning { killWholeRun(process) }
        }
        // Six runs died with it in flight; the seventh run's reaper quarantined it.
        #expect(runs == 7, "runs: \(runs)")
        let failed = sandbox.jobs(in: "failed")
        #expect(failed.count == 2 && failed.allSatisfy { $0.contains("killer") }, "\(failed)")
        let record = try String(contentsOfFile: sandbox.jobs + "/failed/" + failed.first { $0.hasSuffix(".error") }!, encoding: .utf8)
        #expect(record.contains("\"class\":\"crash\"") && record.contains("died 6 times while this job was in flight"), "\(record)")
        #expect(record.contains("\"attempts\":0"), "no attempt was charged: \(record)")
        // The others are unharmed; `retry` puts the killer back for after a fix.
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.jobs(in: "done").count == 4)
        let retried = try sandbox.run(["retry", "--all", "--jobs", sandbox.jobs])
        #expect(retried.status == 0 && sandbox.jobs(in: "failed").isEmpty && sandbox.jobs(in: "new").count == 1, "\(retried.stderr)")
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.jobs(in: "done").count == 5)
    }
}
