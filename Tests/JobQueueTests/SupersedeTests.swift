import FileStore
import Foundation
import JobQueue
import TestSupport
import Testing

/// Issue 26 item 1: two versions of one archive file are never both live in the queue, and the
/// newer one wins whatever finishes last.
@Suite struct SupersedeTests {

    /// A queue with `archive/track.gpx` (holding `text`, aged an hour) enqueued once.
    private func queuedArchiveFile(_ text: String) throws -> (QueueSandbox, String, ArchiveEnqueuer) {
        let sandbox = try QueueSandbox()
        let file = sandbox.root + "/archive/track.gpx"
        try FileStore.createDirectories([sandbox.root + "/archive"])
        try FileStore.writeAtomically(Array(text.utf8), to: file)
        sandbox.age(file, seconds: 3600)
        let enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        _ = try enqueuer.enqueue([file])
        return (sandbox, file, enqueuer)
    }

    private func contents(_ path: String) -> String? {
        (try? FileStore.readFile(path)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func aNewerVersionSupersedesTheOlderClaimAndWinsWhateverFinishesLast() throws {
        let (sandbox, file, enqueuer) = try queuedArchiveFile("<gpx>v1</gpx>")
        let first = try #require(try sandbox.queue.readyJobs().ready.first)
        let claimOfFirst = try #require(try sandbox.queue.claim(first).claim)
        // The user edits the file while v1 renders; the nightly enqueue queues v2.
        try editInPlace(file, "<gpx>version two</gpx>")
        sandbox.age(file, seconds: 1800)
        _ = try enqueuer.enqueue([file])
        #expect(try sandbox.names(sandbox.queue.layout.running) == [], "the v1 claim is still live beside v2")
        let second = try #require(try sandbox.queue.readyJobs().ready.first)
        let claimOfSecond = try #require(try sandbox.queue.claim(second).claim)
        _ = try sandbox.queue.acknowledge(claimOfSecond)
        // v1 finishes last: it must not land over v2.
        _ = try sandbox.queue.acknowledge(claimOfFirst)
        #expect(contents(sandbox.queue.layout.done + "/" + first.name) == "<gpx>version two</gpx>")
        #expect(try sandbox.names(sandbox.queue.layout.new) == [])
    }

    /// An unchanged file whose job is being rendered is not queued again (that would supersede
    /// the claim and throw its render away).
    @Test func anUnchangedFileBeingRenderedIsNotQueuedAgain() throws {
        let (sandbox, file, enqueuer) = try queuedArchiveFile("<gpx>v1</gpx>")
        let job = try #require(try sandbox.queue.readyJobs().ready.first)
        let claim = try #require(try sandbox.queue.claim(job).claim)
        let report = try enqueuer.enqueue([file])
        #expect(report.queued == 0 && report.unchanged == 1)
        #expect(sandbox.queue.isHeld(claim))
        #expect(try sandbox.names(sandbox.queue.layout.new) == [])
    }

    /// A copy a producer drops into new/ after a run died is newer than the dead claim. (The
    /// queue itself never puts an older version there: see the next test.)
    @Test func theReaperDoesNotResurrectAClaimANewerCopySuperseded() throws {
        let sandbox = try QueueSandbox()
        let dead = Claim(name: "track.gpx", attempt: 1, host: ProcessIdentity.current.host, pid: try deadProcessIdentifier(), startTicks: 1)
        try FileStore.writeAtomically(Array("v1".utf8), to: sandbox.queue.layout.running + "/" + dead.fileName)
        try sandbox.drop("track.gpx", "v2")
        let report = try sandbox.queue.reap(leaseSeconds: 600)
        #expect(report.returned == [])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["track.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.running) == [])
        #expect(contents(sandbox.queue.layout.new + "/track.gpx") == "v2")
    }

    /// Review of issue 26 item 1: v0 finished, v1 was claimed by a run killed with -9, and a
    /// settings change re-queues finished jobs before the reaper looks: v0 must stay in done/
    /// (moved to new/, it would make the reaper drop v1 as superseded), and v1 is what comes back.
    @Test func aFinishedJobIsNotRequeuedWhileANewerVersionIsLive() throws {
        let sandbox = try QueueSandbox()
        let name = "track.gpx"
        try FileStore.writeAtomically(Array("v0".utf8), to: sandbox.queue.layout.done + "/" + name)
        let dead = Claim(name: name, attempt: 1, host: ProcessIdentity.current.host, pid: try deadProcessIdentifier(), startTicks: 1)
        try FileStore.writeAtomically(Array("v1".utf8), to: sandbox.queue.layout.running + "/" + dead.fileName)
        #expect(try sandbox.queue.requeueFinished(name) == false)
        let report = try sandbox.queue.reap(leaseSeconds: 600)
        #expect(report.returned == [name] && report.superseded == [])
        #expect(try sandbox.names(sandbox.queue.layout.new) == [name + "~a0r1"])
        #expect(contents(sandbox.queue.layout.new + "/" + name + "~a0r1") == "v1")
        // Given back with counts (NAME~a0r1, NAME~a1), or claimed under a name that does not
        // parse, the newer version still keeps the older one in done/.
        #expect(try sandbox.queue.requeueFinished(name) == false)
        try FileStore.move(sandbox.queue.layout.new + "/" + name + "~a0r1", to: sandbox.queue.layout.new + "/" + name + "~a1")
        #expect(try sandbox.queue.requeueFinished(name) == false)
        try FileStore.move(sandbox.queue.layout.new + "/" + name + "~a1", to: sandbox.queue.layout.running + "/" + name)
        #expect(try sandbox.queue.requeueFinished(name) == false)
        #expect(contents(sandbox.queue.layout.done + "/" + name) == "v0")
        try FileStore.remove(sandbox.queue.layout.running + "/" + name)
        #expect(try sandbox.queue.requeueFinished(name) == true)
    }

    /// Review of issue 26 item 2: while an enqueue waits (here for a file still settling; on a
    /// large archive, for minutes of copying), a worker gives v1 back as `NAME~a1`. That copy
    /// must not survive beside v2, and a v1 claim that finishes after v2 appeared does not land.
    @Test func anOlderVersionGivenBackDuringAnEnqueueDoesNotStayLiveBesideTheNewOne() throws {
        let sandbox = try QueueSandbox(settleSeconds: 1.5)
        let file = sandbox.root + "/archive/track.gpx"
        try FileStore.createDirectories([sandbox.root + "/archive"])
        try FileStore.writeAtomically(Array("v1".utf8), to: file)
        sandbox.age(file, seconds: 3600)
        let enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        _ = try enqueuer.enqueue([file])
        let job = try #require(try sandbox.queue.readyJobs().ready.first)
        let claim = try #require(try sandbox.queue.claim(job).claim)
        // Edited just now: enqueue waits for it to settle, and the worker fails v1 meanwhile.
        try editInPlace(file, "v2")
        let queue = sandbox.queue
        let givenBack = DispatchGroup()
        DispatchQueue.global().async(group: givenBack) {
            usleep(400_000)
            try? queue.giveBack(claim, countsAsAttempt: true)
        }
        let report = try enqueuer.enqueue([file])
        givenBack.wait()
        #expect(report.queued == 1 && report.stillChanging == [])
        #expect(try sandbox.names(sandbox.queue.layout.new) == [job.name], "v1 is live beside v2")
        #expect(contents(sandbox.queue.layout.new + "/" + job.name) == "v2")
    }

    /// Review of issue 26 item 2: an ack finding any ready copy of its job (with counts too)
    /// removes its claim: that copy is newer.
    @Test func anAckFindingANewerCopyWithCountsDoesNotLand() throws {
        let sandbox = try QueueSandbox()
        try sandbox.drop("track.gpx", "v1")
        let job = try #require(try sandbox.queue.readyJobs().ready.first)
        let claim = try #require(try sandbox.queue.claim(job).claim)
        try sandbox.drop("track.gpx~a0r1", "v2")
        #expect(try sandbox.queue.acknowledge(claim) == false)
        #expect(try sandbox.names(sandbox.queue.layout.done) == [])
        #expect(try sandbox.names(sandbox.queue.layout.running) == [])
    }

    @Test func aNewerVersionSupersedesAnOlderQuarantineAndOlderReadyCopies() throws {
        let (sandbox, file, enqueuer) = try queuedArchiveFile("v1")
        let job = try #require(try sandbox.queue.readyJobs().ready.first)
        let claim = try #require(try sandbox.queue.claim(job).claim)
        try sandbox.queue.quarantine(claim, failureClass: .invalidInput, message: "v1 is broken")
        try editInPlace(file, "v2, repaired")
        sandbox.age(file, seconds: 1800)
        _ = try enqueuer.enqueue([file])
        #expect(try sandbox.names(sandbox.queue.layout.failed) == [])
        #expect(try QueueStatus.read(sandbox.queue).failed == [])
        // An older copy given back with attempts (NAME~a1) is superseded too.
        try FileStore.writeAtomically(Array("v2, repaired".utf8), to: sandbox.queue.layout.new + "/" + job.name + "~a1")
        try editInPlace(file, "v3")
        sandbox.age(file, seconds: 900)
        _ = try enqueuer.enqueue([file])
        #expect(try sandbox.names(sandbox.queue.layout.new) == [job.name])
        #expect(contents(sandbox.queue.layout.new + "/" + job.name) == "v3")
    }
}

/// Issue 21 item 10: claims whose owner cannot be read are not left in running/ for ever.
@Suite struct UnreadableClaimTests {
    @Test func aClaimWithAnUnparsablePidIsReapedOnceItsLeaseIsOver() throws {
        let sandbox = try QueueSandbox()
        let odd = sandbox.queue.layout.running + "/odd.gpx~a2~node~not-a-pid~5"
        let bare = sandbox.queue.layout.running + "/bare.gpx"
        try FileStore.writeAtomically([1], to: odd)
        try FileStore.writeAtomically([2], to: bare)
        // Its owner cannot be checked, so it is given the lease a foreign host's claim gets.
        #expect(try sandbox.queue.reap(leaseSeconds: 600).returned == [])
        #expect(try sandbox.names(sandbox.queue.layout.running).count == 2)
        usleep(50_000)
        let report = try sandbox.queue.reap(leaseSeconds: 0.01)
        #expect(report.returned.sorted() == ["bare.gpx", "odd.gpx"])
        #expect(try sandbox.names(sandbox.queue.layout.running) == [])
        #expect(try sandbox.names(sandbox.queue.layout.new) == ["bare.gpx~a0r1", "odd.gpx~a1r1"])
        #expect(try QueueStatus.read(sandbox.queue).running == 0)
    }
}

/// Issue 21 item 4: job names given to retry are checked before anything moves.
@Suite struct RetryNameTests {
    @Test func retryRefusesNamesThatAreNotQuarantinedJobs() throws {
        let sandbox = try QueueSandbox()
        try FileStore.writeAtomically([1], to: sandbox.queue.layout.failed + "/bad.gpx")
        try FileStore.writeAtomically([2], to: sandbox.queue.layout.failed + "/bad.gpx.error")
        for name in ["", ".", "..", "../failed", "bad.gpx/", "bad.gpx.error"] {
            #expect(try sandbox.queue.retry([name]) == [], "'\(name)'")
        }
        #expect(try sandbox.names(sandbox.queue.layout.failed) == ["bad.gpx", "bad.gpx.error"])
        #expect(try sandbox.names(sandbox.queue.layout.new) == [])
        #expect(try sandbox.queue.retry(["bad.gpx"]) == ["bad.gpx"])
    }
}
