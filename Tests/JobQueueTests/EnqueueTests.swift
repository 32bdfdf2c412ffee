import ContentHash
import FileStore
import Foundation
import JobQueue
import Testing

@Suite struct EnqueueTests {
    private func makeArchive(_ sandbox: QueueSandbox) throws -> String {
        let archive = sandbox.root + "/archive"
        try FileStore.createDirectories([archive + "/2024", archive + "/2025", archive + "/.git"])
        try FileStore.writeAtomically(Array("<gpx>a</gpx>".utf8), to: archive + "/2024/run.gpx")
        try FileStore.writeAtomically(Array("<gpx>b</gpx>".utf8), to: archive + "/2025/run.gpx")
        try FileStore.writeAtomically(Array("lat,lon\n1,2\n".utf8), to: archive + "/2025/Ride.CSV")
        try FileStore.writeAtomically([0x1F, 0x8B], to: archive + "/2025/ride.fit.gz")
        try FileStore.writeAtomically(Array("notes".utf8), to: archive + "/README.txt")
        try FileStore.writeAtomically(Array("x".utf8), to: archive + "/.git/config.gpx")
        return archive
    }

    private func fingerprint(_ directory: String) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory)!
        while let relative = enumerator.nextObject() as? String {
            let path = directory + "/" + relative
            guard let status = try FileStore.status(path), status.isRegularFile else { continue }
            result[relative] = "\(SHA256.hash(try FileStore.readFile(path)).hex) \(status.modificationNanoseconds) \(status.mode)"
        }
        return result
    }

    @Test func queuesTrackFilesOnceAndNeverTouchesTheArchive() throws {
        let sandbox = try QueueSandbox()
        let archive = try makeArchive(sandbox)
        for file in try FileManager.default.subpathsOfDirectory(atPath: archive) { sandbox.age(archive + "/" + file, seconds: 3600) }
        let before = try fingerprint(archive)
        let enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        let first = try enqueuer.enqueue([archive])
        #expect(first.queued == 4 && first.skippedNotTracks == 1 && first.unchanged == 0)
        let names = try sandbox.names(sandbox.queue.layout.new)
        #expect(names.count == 4)
        #expect(Set(names.map { String($0.dropFirst(9)) }) == ["run.gpx", "Ride.CSV", "ride.fit.gz"])
        let second = try enqueuer.enqueue([archive])
        #expect(second.queued == 0 && second.unchanged == 4)
        #expect(try fingerprint(archive) == before)
        #expect(try sandbox.names(sandbox.queue.layout.tmp).isEmpty)
    }

    @Test func aChangedFileIsQueuedAgainUnderTheSameName() throws {
        let sandbox = try QueueSandbox()
        let archive = try makeArchive(sandbox)
        let enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        _ = try enqueuer.enqueue([archive + "/2024/run.gpx"])
        let name = try sandbox.names(sandbox.queue.layout.new)[0]
        // Simulate a finished job, then an edit of the archive file.
        try FileStore.move(sandbox.queue.layout.new + "/" + name, to: sandbox.queue.layout.done + "/" + name)
        try FileStore.writeAtomically(Array("<gpx>a, edited</gpx>".utf8), to: archive + "/2024/run.gpx")
        let report = try enqueuer.enqueue([archive + "/2024/run.gpx"])
        #expect(report.queued == 1)
        #expect(try sandbox.names(sandbox.queue.layout.new) == [name])
        #expect(try FileStore.readFile(sandbox.queue.layout.new + "/" + name) == Array("<gpx>a, edited</gpx>".utf8))
    }

    /// Enqueue waits (at most the settle time) for a fresh file, then its read-only copy is ready
    /// in new/ at once, though the run's drop-in rule would make a writable fresh file wait.
    @Test func aFreshFileIsCopiedReadOnlySoItNeedNotSettle() throws {
        let sandbox = try QueueSandbox()
        var queue = sandbox.queue
        queue.settleSeconds = 1
        let archive = try makeArchive(sandbox)
        let report = try ArchiveEnqueuer(queue: queue).enqueue([archive + "/2025/run.gpx"])
        #expect(report.copied == 1)
        let name = try sandbox.names(queue.layout.new)[0]
        let status = try #require(try FileStore.status(queue.layout.new + "/" + name))
        #expect(!status.isWritable)
        #expect(try queue.readyJobs().ready.count == 1)
    }

    // Issue 12, items 5, 6 and 9.

    @Test func specialFilesAreRefusedAndTheRestQueued() throws {
        let sandbox = try QueueSandbox()
        let archive = try makeArchive(sandbox)
        let fifo = sandbox.root + "/waiting.gpx"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Before: /dev/zero was copied until the disk filled, and the FIFO hung enqueue forever.
        let report = try ArchiveEnqueuer(queue: sandbox.queue).enqueue([fifo, "/dev/zero", archive])
        #expect(
            report.skipped == [
                EnqueueReport.Skip(path: fifo, reason: "not a regular file (a FIFO)"),
                EnqueueReport.Skip(path: "/dev/zero", reason: "not a regular file (a character device)"),
            ])
        #expect(report.queued == 4)
        #expect(try sandbox.names(sandbox.queue.layout.tmp) == [])
    }

    @Test func aFileOverTheInputLimitIsNotQueued() throws {
        let sandbox = try QueueSandbox()
        let archive = try makeArchive(sandbox)
        try FileStore.writeAtomically([UInt8](repeating: 0x20, count: 5_000), to: archive + "/big.gpx")
        var enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        enqueuer.maximumFileBytes = 4_096
        let report = try enqueuer.enqueue([archive])
        #expect(report.skipped == [EnqueueReport.Skip(path: archive + "/big.gpx", reason: "5000 bytes, more than the 4096-byte input limit")])
        #expect(report.queued == 4)
    }

    @Test func aTrackSnapOutputFolderInTheArchiveIsNotQueued() throws {
        let sandbox = try QueueSandbox()
        let archive = try makeArchive(sandbox)
        // `enqueue .` in a folder that also holds the site: its index.json looks like GeoJSON.
        try FileStore.createDirectories([archive + "/Output/.tracksnap/records"])
        try FileStore.writeAtomically(Array(#"{"type": "FeatureCollection"}"#.utf8), to: archive + "/Output/index.json")
        let report = try ArchiveEnqueuer(queue: sandbox.queue).enqueue([archive])
        #expect(report.skippedOutputFolders == [archive + "/Output"])
        #expect(report.queued == 4)
    }

    /// What the walk passes over is counted (issue 13, item 13).
    @Test func whatTheWalkPassesOverIsCounted() throws {
        let sandbox = try QueueSandbox()
        let archive = try makeArchive(sandbox)
        try FileStore.writeAtomically(Array("x".utf8), to: archive + "/..gpx")
        try FileManager.default.createSymbolicLink(atPath: archive + "/dangling.gpx", withDestinationPath: "nowhere.gpx")
        #expect(mkfifo(archive + "/pipe.gpx", 0o600) == 0)
        let report = try ArchiveEnqueuer(queue: sandbox.queue).enqueue([archive])
        // .git (from makeArchive) and ..gpx are dot-file names.
        #expect(report.skippedQuietly == ["a dot-file name": 2, "a dangling link": 1, "not a regular file": 1])
        #expect(report.queued == 4 && report.skipped.isEmpty)
    }
}

/// Review of issue 26: `enqueue --mirror` and `forget` against an archive that is still there.
@Suite struct MirrorAndForgetTests {
    private func write(_ path: String, _ text: String, sandbox: QueueSandbox) throws {
        try FileStore.writeAtomically(Array(text.utf8), to: path)
        sandbox.age(path, seconds: 3600)
    }

    /// An unmounted sub-mount (`archive/phone`) beside folders that are there: nothing under it
    /// is forgotten, while a file deleted from a folder that is there still is.
    @Test func mirrorForgetsNothingUnderAMissingSubfolder() throws {
        let sandbox = try QueueSandbox()
        let archive = sandbox.root + "/archive"
        try FileStore.createDirectories([archive + "/phone", archive + "/watch"])
        for path in ["phone/a.gpx", "phone/b.gpx", "watch/c.gpx", "watch/d.gpx"] { try write(archive + "/" + path, path, sandbox: sandbox) }
        var enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        enqueuer.mirrors = true
        #expect(try enqueuer.enqueue([archive]).queued == 4)
        try FileStore.move(archive + "/phone", to: sandbox.root + "/unmounted-phone")
        try FileStore.remove(archive + "/watch/d.gpx")
        let report = try enqueuer.enqueue([archive])
        #expect(report.forgotten == [archive + "/watch/d.gpx"])
        #expect(report.mirrorRefused == [archive + "/phone"])
        #expect(try sandbox.names(sandbox.queue.layout.new).count == 3)
        // A folder that is there but whose every queued file is gone looks unmounted too.
        try FileStore.createDirectories([archive + "/phone"])
        let emptied = try enqueuer.enqueue([archive])
        #expect(emptied.forgotten == [] && emptied.mirrorRefused == [archive + "/phone"])
        #expect(try sandbox.names(sandbox.queue.layout.new).count == 3)
    }

    /// `forget` of a file still in the archive holds until the file changes.
    @Test func aForgottenFileStillInTheArchiveIsNotQueuedAgainUntilItChanges() throws {
        let sandbox = try QueueSandbox()
        let archive = sandbox.root + "/archive"
        try FileStore.createDirectories([archive])
        for name in ["a.gpx", "b.gpx"] { try write(archive + "/" + name, name, sandbox: sandbox) }
        let enqueuer = ArchiveEnqueuer(queue: sandbox.queue)
        #expect(try enqueuer.enqueue([archive]).queued == 2)
        let jobB = JobName.forArchiveFile(absolutePath: archive + "/b.gpx")
        #expect(try sandbox.queue.forget([archive + "/a.gpx", jobB]).forgotten.count == 2)
        #expect(try sandbox.names(sandbox.queue.layout.new) == [])
        let again = try enqueuer.enqueue([archive])
        #expect(again.queued == 0, "a forgotten track came back")
        #expect(try sandbox.names(sandbox.queue.layout.new) == [])
        // Changed, the file is a new version: queued (and it can be forgotten again).
        try write(archive + "/a.gpx", "a.gpx, edited", sandbox: sandbox)
        #expect(try enqueuer.enqueue([archive]).queued == 1)
        #expect(try sandbox.names(sandbox.queue.layout.new) == [JobName.forArchiveFile(absolutePath: archive + "/a.gpx")])
        #expect(try sandbox.queue.forget([archive + "/a.gpx"]).forgotten.count == 1)
        #expect(try enqueuer.enqueue([archive]).queued == 0)
    }
}
