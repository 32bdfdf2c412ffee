import FileStore
import Foundation
import Testing

/// Ordinary things users do to an archive (issue 12, items 1, 8 and 12).
@Suite struct ArchiveChangeTests {
    /// `touch` (or an editor saving in place) and a re-enqueue, three times: the job used to be a
    /// hard link to the same inode as the finished one, `rename` between them did nothing, and the
    /// third run quarantined the good track and pruned it from the site.
    @Test func touchingAnArchiveFileKeepsItsTrackDoneAndListed() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        for round in 0..<3 {
            sandbox.age(sandbox.archive + "/" + names[0], seconds: Double(1000 + round))
            try sandbox.enqueueArchive()
            let result = try sandbox.runQueue(["--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let summary = sandbox.summary(result)
            #expect(summary["returned"] as? Int == 0 && summary["failed"] as? Int == 0, "round \(round): \(result.stdout)")
            #expect(sandbox.jobs(in: "done").count == 3 && sandbox.jobs(in: "running").isEmpty && sandbox.jobs(in: "failed").isEmpty)
            #expect(sandbox.listedTracks().count == 3, "round \(round)")
        }
    }

    /// A file still being written is waited for and, when it keeps changing, left for the next
    /// enqueue instead of being queued half-written (which failed once and mailed cron).
    @Test func aFileStillBeingWrittenIsNotQueuedHalfWritten() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        let growing = sandbox.archive + "/growing.gpx"
        try FileStore.writeAtomically(Array("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n".utf8), to: growing)
        let writer = Thread {
            for index in 0..<8 {
                Thread.sleep(forTimeInterval: 0.5)
                if let handle = FileHandle(forWritingAtPath: growing) {
                    handle.seekToEndOfFile()
                    handle.write(Data("<trkpt lat=\"1.\(index)\" lon=\"2\"/>\n".utf8))
                    handle.closeFile()
                }
            }
        }
        writer.start()
        let result = try sandbox.run(["enqueue", sandbox.archive, "--jobs", sandbox.jobs])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("still being written"), "\(result.stderr)")
        #expect(sandbox.jobs(in: "new").count == 2 && !sandbox.jobs(in: "new").contains { $0.hasSuffix("growing.gpx") })
        Thread.sleep(forTimeInterval: 1.5)  // the writer is done
        let later = try sandbox.run(["enqueue", sandbox.archive, "--jobs", sandbox.jobs])
        #expect(later.status == 0 && sandbox.jobs(in: "new").count == 3, "\(later.stderr)")
    }

    /// A private track stays private in the queue, whatever its source's mode, and a link
    /// planted in the archive to a root-only file does not become a world-readable copy.
    @Test func queueCopiesArePrivate() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(2)
        chmod(sandbox.archive + "/" + names[0], 0o600)
        let secret = sandbox.root + "/secret.gpx"
        try FileStore.writeAtomically(Array("root:*:1:0:::\n".utf8), to: secret, permissions: 0o600)
        sandbox.age(secret, seconds: 3600)
        try FileManager.default.createSymbolicLink(atPath: sandbox.archive + "/planted.gpx", withDestinationPath: secret)
        try sandbox.enqueueArchive()
        for folder in ["", "/new", "/done", "/failed", "/running", "/tmp"] {
            let mode = try #require(try FileStore.status(sandbox.jobs + folder)).mode & 0o777
            #expect(mode == 0o700, "Jobs\(folder) is \(String(mode, radix: 8))")
        }
        for job in sandbox.jobs(in: "new") {
            let mode = try #require(try FileStore.status(sandbox.jobs + "/new/" + job)).mode & 0o777
            #expect(mode == 0o400, "\(job) is \(String(mode, radix: 8))")
        }
        #expect(try sandbox.runQueue().status == 0)
        let quarantined = sandbox.jobs(in: "failed").filter { !$0.hasSuffix(".error") }
        #expect(quarantined.count == 1 && quarantined[0].hasSuffix("planted.gpx"))
        let mode = try #require(try FileStore.status(sandbox.jobs + "/failed/" + quarantined[0])).mode & 0o777
        #expect(mode == 0o400)
        let record = try String(
            contentsOfFile: sandbox.jobs + "/failed/" + sandbox.jobs(in: "failed").first { $0.hasSuffix(".error") }!, encoding: .utf8)
        #expect(!record.contains("root:"), "\(record)")
    }
}

/// The served site is readable whatever the umask cron runs with (issue 12, item 12).
@Suite struct SiteModeTests {
    @Test func theSiteIsWorldReadableUnderUmask077AndTheQueueIsNot() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "umask 077 && exec \"$0\" \"$@\"", RunSandbox.binary, "run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--quiet",
            "--style", sandbox.thumbnailsOnlyStyle,
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let thumbs = try FileStore.listDirectory(sandbox.output + "/thumbs").filter { $0.hasSuffix(".png") }
        #expect(!thumbs.isEmpty)
        for path in ["/index.html", "/index.json", "/thumbs/" + thumbs[0]] {
            #expect(try FileStore.status(sandbox.output + path)!.mode & 0o777 == 0o644, "\(path)")
        }
        for folder in ["", "/thumbs", "/tracks"] {
            #expect(try FileStore.status(sandbox.output + folder)!.mode & 0o777 == 0o755, "Output\(folder)")
        }
        #expect(try FileStore.status(sandbox.jobs + "/done")!.mode & 0o777 == 0o700)
    }
}

/// Links and odd files (issue 12, item 4).
@Suite struct OddJobFileTests {
    @Test func foldersFIFOsAndLinksDroppedIntoNewAreQuarantinedWithTheirReason() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        try FileStore.createDirectories([sandbox.jobs + "/new/folder.gpx"])
        #expect(mkfifo(sandbox.jobs + "/new/pipe.gpx", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: sandbox.jobs + "/new/dangling.gpx", withDestinationPath: "../nowhere.gpx")
        let result = try sandbox.runQueue(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "new").isEmpty && sandbox.jobs(in: "done").count == 2)
        for (name, kind) in [("folder.gpx", "a directory"), ("pipe.gpx", "a FIFO"), ("dangling.gpx", "a symbolic link")] {
            let record = try String(contentsOfFile: sandbox.jobs + "/failed/" + name + ".error", encoding: .utf8)
            #expect(record.contains("\"class\":\"invalid-input\"") && record.contains("not a regular file (\(kind))"), "\(record)")
        }
    }

    @Test func aRelativeLinkInTheArchiveIsQueuedAsACopyOfItsTarget() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(1)
        try FileStore.createDirectories([sandbox.archive + "/links", sandbox.root + "/elsewhere"])
        try FileManager.default.createSymbolicLink(atPath: sandbox.archive + "/links/again.gpx", withDestinationPath: "../" + names[0])
        try FileManager.default.createSymbolicLink(atPath: sandbox.archive + "/folder-link", withDestinationPath: sandbox.root + "/elsewhere")
        let enqueue = try sandbox.run(["enqueue", sandbox.archive, "--jobs", sandbox.jobs])
        #expect(enqueue.status == 0 && enqueue.stderr.contains("a link to a folder"), "\(enqueue.stderr)")
        let queued = sandbox.jobs(in: "new")
        #expect(queued.count == 2)
        for job in queued { #expect(try FileStore.status(sandbox.jobs + "/new/" + job)?.isRegularFile == true) }
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.jobs(in: "done").count == 2 && sandbox.jobs(in: "failed").isEmpty)
    }
}
