import FileStore
import Foundation
import JobQueue
import TestSupport
import Testing

@Suite struct ReaperTests {

    /// A claim left behind means the whole run died (its supervisor settles the claims of every
    /// worker that dies while it lives): the job is not charged an attempt, one interruption is
    /// counted instead.
    @Test func aClaimOfADeadRunGoesBackWithoutAnAttemptAndOneMoreInterruption() throws {
        let sandbox = try QueueSandbox()
        let claim = Claim(name: "orphan.gpx", attempt: 1, host: ProcessIdentity.current.host, pid: try deadProcessIdentifier(), startTicks: 1)
        try FileStore.writeAtomically(Array("x".utf8), to: sandbox.queue.layout.running + "/" + claim.fileName)
        let report = try sandbox.queue.reap(leaseSeconds: 600)
        #expect(report.returned == ["orphan.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["orphan.gpx~a0r1"])
        // Claimed again, it is still its first attempt; a second run death makes r2.
        let ready = try sandbox.queue.readyJobs().ready
        #expect(ready == [ReadyJob(name: "orphan.gpx", fileName: "orphan.gpx~a0r1", previousAttempts: 0, interruptions: 1)])
        guard case .claimed(let again) = try sandbox.queue.claim(ready[0]) else { Issue.record("not claimed"); return }
        #expect(again.attempt == 1 && again.interruptions == 1)
        let dead = Claim(
            name: again.name, attempt: again.attempt, interruptions: again.interruptions, host: again.host, pid: try deadProcessIdentifier(),
            startTicks: 1)
        try FileStore.move(sandbox.queue.path(of: again), to: sandbox.queue.layout.running + "/" + dead.fileName)
        _ = try sandbox.queue.reap(leaseSeconds: 600)
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["orphan.gpx~a0r2"])
    }

    @Test func aJobInFlightAtTooManyRunDeathsIsQuarantinedWithThatReason() throws {
        var sandbox = try QueueSandbox()
        sandbox.queue.maxInterruptions = 4
        let claim = Claim(
            name: "oom.gpx", attempt: 2, interruptions: 3, host: ProcessIdentity.current.host, pid: try deadProcessIdentifier(), startTicks: 1)
        try FileStore.writeAtomically([], to: sandbox.queue.layout.running + "/" + claim.fileName)
        #expect(try sandbox.queue.reap(leaseSeconds: 600).quarantined == ["oom.gpx"])
        let failure = try #require(try QueueStatus.read(sandbox.queue).failed.first)
        #expect(failure.failureClass == "crash" && failure.attempts == 1)
        #expect(
            failure.message.contains("the run was killed") && failure.message.contains("died 4 times while this job was in flight"),
            "\(failure.message)")
    }

    @Test func retryPutsQuarantinedJobsBackWithTheirCountsReset() throws {
        var sandbox = try QueueSandbox()
        sandbox.queue.maxInterruptions = 1
        for name in ["a.gpx", "b.gpx"] {
            let claim = Claim(
                name: name, attempt: 3, interruptions: 0, host: ProcessIdentity.current.host, pid: try deadProcessIdentifier(), startTicks: 1)
            try FileStore.writeAtomically([], to: sandbox.queue.layout.running + "/" + claim.fileName)
        }
        #expect(try sandbox.queue.reap(leaseSeconds: 600).quarantined.sorted() == ["a.gpx", "b.gpx"])
        #expect(try sandbox.queue.retry(["b.gpx", "missing.gpx"]) == ["b.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["b.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.failed) == ["a.gpx", "a.gpx.error"])
        #expect(try sandbox.queue.retry(nil) == ["a.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.failed) == [])
        #expect(try sandbox.queue.readyJobs().ready.allSatisfy { $0.previousAttempts == 0 && $0.interruptions == 0 })
    }

    @Test func aReusedPidWithAnotherStartTimeIsStale() throws {
        let sandbox = try QueueSandbox()
        let me = ProcessIdentity.current
        let claim = Claim(name: "reused.gpx", attempt: 2, host: me.host, pid: me.pid, startTicks: me.startTicks + 12345)
        try FileStore.writeAtomically([], to: sandbox.queue.layout.running + "/" + claim.fileName)
        let live = Claim(name: "mine.gpx", attempt: 1, host: me.host, pid: me.pid, startTicks: me.startTicks)
        try FileStore.writeAtomically([], to: sandbox.queue.layout.running + "/" + live.fileName)
        let report = try sandbox.queue.reap(leaseSeconds: 600)
        #expect(report.returned == ["reused.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["reused.gpx~a1r1"])
        #expect(try sandbox.names(sandbox.queue.layout.running) == [live.fileName])
    }

    @Test func aForeignHostClaimIsStaleOnlyAfterTheLease() throws {
        let sandbox = try QueueSandbox()
        let claim = Claim(name: "remote.gpx", attempt: 1, host: "other-node", pid: 1, startTicks: 1)
        let path = sandbox.queue.layout.running + "/" + claim.fileName
        try FileStore.writeAtomically([], to: path)
        #expect(try sandbox.queue.reap(leaseSeconds: 600).returned.isEmpty)
        sandbox.age(path, seconds: 601)
        #expect(try sandbox.queue.reap(leaseSeconds: 600).returned == ["remote.gpx"])
    }

    @Test func aClaimOnItsLastAttemptIsNotBlamedForItsRunDying() throws {
        let sandbox = try QueueSandbox()
        let claim = Claim(name: "unlucky.gpx", attempt: 3, host: ProcessIdentity.current.host, pid: try deadProcessIdentifier(), startTicks: 1)
        try FileStore.writeAtomically([], to: sandbox.queue.layout.running + "/" + claim.fileName)
        #expect(try sandbox.queue.reap(leaseSeconds: 600).quarantined == [])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["unlucky.gpx~a2r1"])
    }

    @Test func temporariesOfDeadWritersAreSweptAndLiveOnesKept() throws {
        let sandbox = try QueueSandbox()
        let dead = ".x.png.tmp~\(ProcessIdentity.current.host)~\(try deadProcessIdentifier())~12"
        let live = TemporaryName.make(for: "y.png")
        for name in [dead, live] { try FileStore.writeAtomically([1], to: sandbox.root + "/" + name) }
        let report = try sandbox.queue.reap(leaseSeconds: 600, stagingDirectories: [sandbox.root])
        #expect(report.temporariesRemoved == 1)
        #expect(FileStore.exists(sandbox.root + "/" + live) && !FileStore.exists(sandbox.root + "/" + dead))
    }
}
