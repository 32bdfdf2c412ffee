import FileStore
import Foundation
import JobQueue
import Testing

@Suite struct ClaimTests {
    @Test func claimNameRoundTripsEvenWithTildesInTheJobName() {
        let claim = Claim(name: "odd~name~a2.gpx", attempt: 3, host: "node-7", pid: 4242, startTicks: 987_654)
        #expect(claim.fileName == "odd~name~a2.gpx~a3~node-7~4242~987654")
        #expect(Claim(fileName: claim.fileName) == claim)
        #expect(Claim(fileName: "no-claim-suffix.gpx") == nil)
    }

    @Test func readyNamesCarryPreviousAttempts() {
        #expect(JobName.parseReady("run.gpx") == ReadyJob(name: "run.gpx", fileName: "run.gpx", previousAttempts: 0))
        #expect(JobName.parseReady("run.gpx~a2") == ReadyJob(name: "run.gpx", fileName: "run.gpx~a2", previousAttempts: 2))
        #expect(JobName.readyFileName("run.gpx", previousAttempts: 0) == "run.gpx")
        #expect(JobName.readyFileName("run.gpx", previousAttempts: 1) == "run.gpx~a1")
        #expect(JobName.readyFileName("run.gpx", previousAttempts: 0, interruptions: 2) == "run.gpx~a0r2")
        #expect(JobName.parseReady("run.gpx~a1r3") == ReadyJob(name: "run.gpx", fileName: "run.gpx~a1r3", previousAttempts: 1, interruptions: 3))
        // Not a counts field: part of the name.
        #expect(JobName.parseReady("run~a1rx.gpx").name == "run~a1rx.gpx" && JobName.parseReady("x~a1r0").name == "x~a1r0")
        let interrupted = Claim(name: "r.gpx", attempt: 2, interruptions: 5, host: "h", pid: 9, startTicks: 3)
        #expect(interrupted.fileName == "r.gpx~a2r5~h~9~3" && Claim(fileName: interrupted.fileName) == interrupted)
    }

    @Test func claimMovesTheJobAndALostRaceIsNil() throws {
        let sandbox = try QueueSandbox()
        try sandbox.drop("a.gpx")
        let job = try sandbox.queue.readyJobs().ready[0]
        let claim = try #require(try sandbox.queue.claim(job).claim)
        #expect(claim.attempt == 1 && claim.pid == getpid())
        #expect(try sandbox.names(sandbox.queue.layout.running) == [claim.fileName])
        #expect(try sandbox.queue.claim(job) == .lostRace)
        try sandbox.queue.acknowledge(claim)
        #expect(try sandbox.names(sandbox.queue.layout.done) == ["a.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.running).isEmpty)
    }

    @Test func giveBackCountsAttemptsAndQuarantinesAtTheLimit() throws {
        let sandbox = try QueueSandbox()
        try sandbox.drop("crashy.gpx")
        for attempt in 1...3 {
            let job = try #require(try sandbox.queue.readyJobs().ready.first)
            let claim = try #require(try sandbox.queue.claim(job).claim)
            #expect(claim.attempt == attempt)
            try sandbox.queue.giveBack(claim, countsAsAttempt: true, failureClass: .crash, message: "boom")
        }
        #expect(try sandbox.names(sandbox.queue.layout.new).isEmpty)
        #expect(try sandbox.names(sandbox.queue.layout.failed) == ["crashy.gpx", "crashy.gpx.error"])
        let status = try QueueStatus.read(sandbox.queue)
        #expect(status.failed == [QueueStatus.Failure(job: "crashy.gpx", failureClass: "crash", message: "boom (3 attempts)", attempts: 3)])
    }

    @Test func giveBackWithoutAttemptKeepsTheCount() throws {
        let sandbox = try QueueSandbox()
        try sandbox.drop("full-disk.gpx~a1")
        let claim = try #require(try sandbox.queue.claim(try sandbox.queue.readyJobs().ready[0]).claim)
        #expect(claim.attempt == 2)
        try sandbox.queue.giveBack(claim, countsAsAttempt: false)
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["full-disk.gpx~a1"])
    }

    @Test func aSuccessAfterAQuarantineLeavesTheJobInOnePlace() throws {
        let sandbox = try QueueSandbox()
        try sandbox.drop("fixed-later.gpx")
        var claim = try #require(try sandbox.queue.claim(try sandbox.queue.readyJobs().ready[0]).claim)
        try sandbox.queue.quarantine(claim, failureClass: .invalidInput, message: "GPX, line 3: truncated")
        try sandbox.drop("fixed-later.gpx")
        claim = try #require(try sandbox.queue.claim(try sandbox.queue.readyJobs().ready[0]).claim)
        try sandbox.queue.acknowledge(claim)
        #expect(try sandbox.names(sandbox.queue.layout.failed).isEmpty)
        #expect(try sandbox.names(sandbox.queue.layout.done) == ["fixed-later.gpx"])
    }

    @Test func settlingFilesAreNotReadyUntilOldEnoughOrSealed() throws {
        let sandbox = try QueueSandbox(settleSeconds: 30)
        try sandbox.drop("being-written.gpx")
        #expect(try sandbox.queue.readyJobs().ready.isEmpty)
        #expect(try sandbox.queue.readyJobs().settling == 1)
        sandbox.age(sandbox.queue.layout.new + "/being-written.gpx", seconds: 60)
        #expect(try sandbox.queue.readyJobs().ready.count == 1)
        // A read-only file was sealed by its producer: ready at once.
        try sandbox.drop("sealed.gpx")
        chmod(sandbox.queue.layout.new + "/sealed.gpx", 0o444)
        #expect(try sandbox.queue.readyJobs().ready.map(\.name).sorted() == ["being-written.gpx", "sealed.gpx"])
    }

    @Test func dotfilesAndPartialUploadsAreIgnored() throws {
        let sandbox = try QueueSandbox()
        for name in [".hidden.gpx", "upload.gpx.part", "x.gpx.crdownload", "café run ☕.gpx", "with space.gpx"] {
            try sandbox.drop(name)
        }
        #expect(try sandbox.queue.readyJobs().ready.map(\.name).sorted() == ["café run ☕.gpx", "with space.gpx"])
    }

    @Test func aNameTooLongToClaimIsQuarantinedWithAReason() throws {
        let sandbox = try QueueSandbox()
        let name = String(repeating: "n", count: 251) + ".gpx"
        #expect(name.utf8.count == 255)
        try sandbox.drop(name)
        #expect(try sandbox.queue.claim(try sandbox.queue.readyJobs().ready[0]).claim == nil)
        let status = try QueueStatus.read(sandbox.queue)
        #expect(status.failed.count == 1)
        #expect(status.failed.first?.job == name && status.failed.first?.failureClass == "name")
        #expect(status.failed.first?.message.contains("too long") == true)
    }
}
