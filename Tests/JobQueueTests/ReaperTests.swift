import FileStore
import Foundation
import JobQueue
import Testing

@Suite struct ReaperTests {
    /// The pid of a process that has exited.
    private func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func aClaimOfADeadProcessGoesBackWithOneMoreAttempt() throws {
        let sandbox = try QueueSandbox()
        let claim = Claim(name: "orphan.gpx", attempt: 1, host: ProcessIdentity.current.host, pid: try deadPid(), startTicks: 1)
        try FileStore.writeAtomically(Array("x".utf8), to: sandbox.queue.layout.running + "/" + claim.fileName)
        let report = try sandbox.queue.reap(leaseSeconds: 600)
        #expect(report.returned == ["orphan.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["orphan.gpx~a1"])
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

    @Test func aClaimOnItsLastAttemptIsQuarantinedAsACrash() throws {
        let sandbox = try QueueSandbox()
        let claim = Claim(name: "poison.gpx", attempt: 3, host: ProcessIdentity.current.host, pid: try deadPid(), startTicks: 1)
        try FileStore.writeAtomically([], to: sandbox.queue.layout.running + "/" + claim.fileName)
        #expect(try sandbox.queue.reap(leaseSeconds: 600).quarantined == ["poison.gpx"])
        let failure = try #require(try QueueStatus.read(sandbox.queue).failed.first)
        #expect(failure.failureClass == "crash" && failure.attempts == 3)
    }

    @Test func temporariesOfDeadWritersAreSweptAndLiveOnesKept() throws {
        let sandbox = try QueueSandbox()
        let dead = ".x.png.tmp~\(ProcessIdentity.current.host)~\(try deadPid())~12"
        let live = TemporaryName.make(for: "y.png")
        for name in [dead, live] { try FileStore.writeAtomically([1], to: sandbox.root + "/" + name) }
        let report = try sandbox.queue.reap(leaseSeconds: 600, stagingDirectories: [sandbox.root])
        #expect(report.temporariesRemoved == 1)
        #expect(FileStore.exists(sandbox.root + "/" + live) && !FileStore.exists(sandbox.root + "/" + dead))
    }
}
