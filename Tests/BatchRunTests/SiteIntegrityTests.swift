import FileStore
import Foundation
import Testing

/// A wrong or unmounted queue path, and lost images, must not make tracks vanish from the site
/// (issue 12, item 2). Each case emptied the site or kept a track unlisted before.
@Suite struct SiteIntegrityTests {
    /// A sandbox with five rendered, listed tracks.
    private func renderedSite() throws -> RunSandbox {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(5)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.listedTracks().count == 5)
        return sandbox
    }

    private func siteFiles(_ sandbox: RunSandbox) -> [String] {
        (FileManager.default.enumerator(atPath: sandbox.output)?.allObjects as? [String] ?? []).filter { !$0.hasPrefix(".tracksnap") }.sorted()
    }

    @Test func aMistypedOrEmptyQueueFolderLeavesTheSiteAlone() throws {
        let sandbox = try renderedSite()
        let before = siteFiles(sandbox)
        let typo = try sandbox.run(["listing", "--jobs", sandbox.jobs + "-typo", "--output", sandbox.output])
        #expect(typo.status == 2 && typo.stderr.contains("is not a job queue"), "\(typo.stderr)")
        // An NFS mount point that is not mounted: an existing, empty folder.
        let mountPoint = sandbox.root + "/mnt-jobs"
        try FileStore.createDirectories([mountPoint])
        for command in [
            ["run", "--jobs", mountPoint, "--output", sandbox.output], ["run", "--no-lock", "--jobs", mountPoint, "--output", sandbox.output],
            ["listing", "--jobs", mountPoint, "--output", sandbox.output],
        ] {
            let result = try sandbox.run(command)
            #expect(result.status == 2 && result.stderr.contains("not a job queue"), "\(command): \(result.stderr)")
        }
        #expect(siteFiles(sandbox) == before)
        #expect(sandbox.listedTracks().count == 5)
    }

    @Test func aQueueWithNothingDoneDoesNotEmptyASiteWithoutAllowEmpty() throws {
        let sandbox = try renderedSite()
        let before = siteFiles(sandbox)
        // A queue whose done/ is empty (say, the share's other half): refused, nothing changed.
        let other = sandbox.root + "/OtherJobs"
        try FileStore.createDirectories([other + "/new", other + "/done", other + "/failed", other + "/running", other + "/tmp"])
        let refused = try sandbox.run(["listing", "--jobs", other, "--output", sandbox.output])
        #expect(refused.status == 2 && refused.stderr.contains("--allow-empty"), "\(refused.stderr)")
        let run = try sandbox.run(["run", "--jobs", other, "--output", sandbox.output])
        #expect(run.status == 0 && run.stderr.contains("the listing was left as it is"), "\(run.stderr)")
        #expect(siteFiles(sandbox) == before && sandbox.listedTracks().count == 5)
        // Asked for explicitly, the empty site is published and the images pruned.
        let emptied = try sandbox.run(["listing", "--jobs", other, "--output", sandbox.output, "--allow-empty"])
        #expect(emptied.status == 0, "\(emptied.stderr)")
        #expect(sandbox.listedTracks().isEmpty)
    }

    @Test func aFinishedJobWhoseImagesWereLostIsRenderedAgain() throws {
        let sandbox = try renderedSite()
        let thumbs = sandbox.output + "/thumbs"
        let lost = try FileStore.listDirectory(thumbs).filter { $0.hasSuffix(".png") }.sorted()[0]
        try FileStore.remove(thumbs + "/" + lost)
        let rerun = try sandbox.runQueue(["--json"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(sandbox.summary(rerun)["rendered"] as? Int == 1, "\(rerun.stdout)")
        #expect(FileStore.exists(thumbs + "/" + lost))
        #expect(sandbox.listedTracks().count == 5 && sandbox.jobs(in: "done").count == 5)
    }

    @Test func aShardedRunKeepsEveryTrackListed() throws {
        let sandbox = try renderedSite()
        for shard in ["0/2", "1/2"] {
            #expect(try sandbox.runQueue(["--shard", shard]).status == 0)
            #expect(sandbox.listedTracks().count == 5, "after shard \(shard)")
        }
    }

    /// A 1 MiB track name: rendered and counted done, but its record was too big for the listing
    /// to read, so its images were pruned and it never appeared (issue 12, item 3).
    @Test func aTrackWithAHugeNameIsListedUnderAShortenedName() throws {
        let sandbox = try RunSandbox()
        let name = String(repeating: "Long way round ", count: 70_000)
        let gpx =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><name>\(name)</name><trkseg>"
            + (0..<50).map { "<trkpt lat=\"47.\(1000 + $0)\" lon=\"8.\(2000 + $0 * 3)\"/>" }.joined() + "</trkseg></trk></gpx>\n"
        try FileStore.writeAtomically(Array(gpx.utf8), to: sandbox.archive + "/huge-name.gpx")
        sandbox.age(sandbox.archive + "/huge-name.gpx", seconds: 3600)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let listed = sandbox.listedTracks()
        #expect(listed.count == 1)
        let shown = listed.first?["name"] as? String ?? ""
        #expect(shown.count == 200 && shown.hasSuffix("…") && shown.hasPrefix("Long way round"), "\(shown.prefix(40))… (\(shown.count))")
    }
}

/// A file name cannot forge a line of cron mail or drive the terminal (issue 13, item 4).
@Suite struct OutputEscapingTests {
    @Test func aNameWithANewlineAndEscapesIsPrintedEscaped() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        let evil = "evil\ntracksnap: 99 tracks: 99 rendered, 0 failed\u{1B}[2J\u{1B}]0;pwned\u{07}.gpx"
        try FileStore.writeAtomically(Array("not a track".utf8), to: sandbox.archive + "/" + evil)
        sandbox.age(sandbox.archive + "/" + evil, seconds: 3600)
        try sandbox.enqueueArchive()
        let run = try sandbox.runQueue()
        let status = try sandbox.run(["status", "--jobs", sandbox.jobs])
        for text in [run.stderr, status.stdout] {
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("tracksnap: 99 tracks") }, "\(text)")
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(text.debugDescription)")
            #expect(text.contains("evil\\x0Atracksnap: 99 tracks"), "\(text)")
        }
    }
}

/// Error output has a length limit (issue 13, item 3).
@Suite struct ErrorLengthTests {
    @Test func aHugeBadTokenGivesAShortLineAShortSidecarAndAReadableStatus() throws {
        let sandbox = try RunSandbox()
        let token = String(repeating: "9x", count: 2_500_000)  // 5 MB, not a number
        try FileStore.writeAtomically(Array("lat,lon\n47.1,8.2\n\(token),8.3\n".utf8), to: sandbox.archive + "/huge-token.csv")
        sandbox.age(sandbox.archive + "/huge-token.csv", seconds: 3600)
        try sandbox.enqueueArchive()
        let run = try sandbox.runQueue()
        #expect(run.status == 0)
        #expect(run.stderr.utf8.count < 2_000 && run.stderr.contains("bytes in all"), "\(run.stderr.utf8.count) bytes")
        let sidecar = try #require(sandbox.jobs(in: "failed").first { $0.hasSuffix(".error") })
        #expect(try FileStore.readFile(sandbox.jobs + "/failed/" + sidecar).count < 2_000)
        let status = try sandbox.run(["status", "--jobs", sandbox.jobs])
        #expect(status.stdout.contains("invalid-input") && status.stdout.utf8.count < 2_000, "\(status.stdout.prefix(300))")
        // A sidecar that cannot be read is said to be so, with its name.
        try FileStore.remove(sandbox.jobs + "/failed/" + sidecar)
        try FileStore.createDirectories([sandbox.jobs + "/failed/" + sidecar])
        let broken = try sandbox.run(["status", "--jobs", sandbox.jobs])
        #expect(broken.stdout.contains("its failure record \(sidecar) cannot be read"), "\(broken.stdout)")
    }
}
