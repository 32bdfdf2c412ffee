import FileStore
import Foundation
import TestSupport
import Testing
import TrackSynthesis

/// Issues 21 and 26: the run's start, enqueue's copies, retry and forget, driven through the binary.
@Suite(.serialized) struct QueueLifecycleTests {

    /// Issue 26 item 1: kill -9 while v1 renders, edit in place, enqueue: only v2 renders, and
    /// v2 is what stays in done/ night after night.
    @Test func anEditAfterAKillNineIsWhatStaysDone() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(2, fixCount: 200)
        try sandbox.enqueueArchive()
        let job = try #require(sandbox.jobs(in: "new").first { $0.hasSuffix(names[0]) })
        try FileStore.move(
            sandbox.jobs + "/new/" + job, to: sandbox.jobs + "/running/\(job)~a1~\(TemporaryName.host)~\(try deadProcessIdentifier())~5")
        let edited = SampleCatalog.benchmarkRun(fixCount: 300, seed: 99)
        try editInPlace(sandbox.archive + "/" + names[0], edited)
        sandbox.age(sandbox.archive + "/" + names[0], seconds: 1800)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.summary(result)["claimed"] as? Int == 2, "the killed v1 was rendered beside v2: \(result.stdout)")
        for _ in 0..<2 {
            try sandbox.enqueueArchive()
            #expect(try sandbox.runQueue().status == 0)
        }
        #expect(try FileStore.readFile(sandbox.jobs + "/done/" + job) == Array(edited.utf8))
        #expect(sandbox.places().values.allSatisfy { $0 == ["done"] } && sandbox.listedTracks().count == 2)
    }

    /// Issue 26 item 1: a style change re-queues every finished job; the older version of an
    /// edited track must not be moved from done/ over its newer copy waiting in new/.
    @Test func aSettingsChangeDoesNotPutAnOlderVersionOverANewerOne() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let job = try #require(sandbox.jobs(in: "done").first { $0.hasSuffix(names[0]) })
        let edited = SampleCatalog.benchmarkRun(fixCount: 150, seed: 55)
        try editInPlace(sandbox.archive + "/" + names[0], edited)
        sandbox.age(sandbox.archive + "/" + names[0], seconds: 1800)
        try sandbox.enqueueArchive()
        let dark = sandbox.root + "/dark.json"
        try FileStore.writeAtomically(Array(#"{"version": 1, "theme": "dark", "detail": false}"#.utf8), to: dark)
        let result = try sandbox.runQueue(["--style", dark])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileStore.readFile(sandbox.jobs + "/done/" + job) == Array(edited.utf8))
        #expect(sandbox.jobs(in: "done").count == 2 && sandbox.jobs(in: "new").isEmpty)
    }

    /// Review of issue 26 item 1: v0 done, v1 queued and claimed by a run killed with -9, then a
    /// run with changed settings: the re-queue of finished jobs must not move v0 to new/ (the
    /// reaper then dropped v1 as superseded, and enqueue called the edited file unchanged).
    @Test func aSettingsChangeAfterAKillNineKeepsTheEdit() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let job = try #require(sandbox.jobs(in: "done").first { $0.hasSuffix(names[0]) })
        let edited = SampleCatalog.benchmarkRun(fixCount: 150, seed: 77)
        try editInPlace(sandbox.archive + "/" + names[0], edited)
        sandbox.age(sandbox.archive + "/" + names[0], seconds: 1800)
        try sandbox.enqueueArchive()
        try FileStore.move(
            sandbox.jobs + "/new/" + job, to: sandbox.jobs + "/running/\(job)~a1~\(TemporaryName.host)~\(try deadProcessIdentifier())~5")
        let result = try sandbox.runQueue(["--color-by", "elevation"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("dropped"), "\(result.stderr)")
        #expect(try FileStore.readFile(sandbox.jobs + "/done/" + job) == Array(edited.utf8))
        #expect(sandbox.places().values.allSatisfy { $0 == ["done"] })
    }

    /// Issue 26 item 4: a SIGTERM as soon as the run has started (its lock file exists) ends it
    /// with 0 or 75, never by the signal: with 3,000 jobs to look at, and with nothing queued.
    @Test func aSigtermAtTheStartOfARunExitsZeroOrSeventyFive() throws {
        for round in 0..<6 {
            let sandbox = try RunSandbox()
            #expect(try sandbox.run(["enqueue", sandbox.archive, "--jobs", sandbox.jobs, "--quiet"]).status == 0)
            if round % 2 == 0 {
                for index in 0..<3000 {
                    _ = FileManager.default.createFile(atPath: sandbox.jobs + "/done/job-\(index).gpx", contents: Data("<gpx>\(index)</gpx>".utf8))
                }
            }
            let process = try startWithSignalsUnblocked(
                sandbox, ["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "0", "--style", sandbox.thumbnailsOnlyStyle])
            let deadline = Date().addingTimeInterval(20)
            while !FileStore.exists(sandbox.jobs + "/.lock") && Date() < deadline { usleep(100) }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit, "round \(round): ended by signal \(process.terminationStatus)")
            #expect([0, 75].contains(process.terminationStatus), "round \(round)")
            #expect(sandbox.jobs(in: "running").isEmpty)
        }
    }

    /// Starts the binary with SIGTERM and SIGINT unblocked and at their default action, as cron
    /// or systemd start it: the test runner's threads block them, and a child inherits its mask
    /// (which hid the early-signal bug: the signal waited until the trap unblocked it).
    private func startWithSignalsUnblocked(_ sandbox: RunSandbox, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "signal.signal(signal.SIGTERM, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        process.arguments = ["-c", script, RunSandbox.binary] + arguments
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Issue 26 item 5: a track without times is dated by its archive file's mtime, not by the
    /// moment it was queued.
    @Test func aTrackWithoutTimesIsDatedByItsArchiveFile() throws {
        let sandbox = try RunSandbox()
        let path = sandbox.archive + "/walk-2019-no-times.geojson"
        let geojson = #"{"type": "LineString", "coordinates": [[9.50, 47.10], [9.51, 47.11], [9.53, 47.12], [9.55, 47.14]]}"#
        try FileStore.writeAtomically(Array(geojson.utf8), to: path)
        let mtimeSeconds = 1_560_600_000.0  // 2019-06-15 12:00 UTC
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: mtimeSeconds)], ofItemAtPath: path)
        try sandbox.enqueueArchive()
        let job = try #require(sandbox.jobs(in: "new").first)
        let copy = try #require(try FileStore.status(sandbox.jobs + "/new/" + job))
        #expect(copy.modificationNanoseconds == 1_560_600_000_000_000_000)
        #expect(try sandbox.runQueue().status == 0)
        let track = try #require(sandbox.listedTracks().first)
        #expect(track["start_time"] == nil || track["start_time"] is NSNull)
        let sortTime = try #require(track["sort_time"] as? Double)
        #expect(abs(sortTime - mtimeSeconds) < 1, "dated \(sortTime), the file's mtime is \(mtimeSeconds)")
    }

    /// Issue 21 item 4: `retry ''` used to rename failed/ over new/.
    @Test func retryWithABadNameExitsTwoNamingItAndMovesNothing() throws {
        let sandbox = try RunSandbox()
        try sandbox.enqueueArchive()
        try FileStore.writeAtomically([1], to: sandbox.jobs + "/failed/bad.gpx")
        try FileStore.writeAtomically(Array(#"{"job": "bad.gpx"}"#.utf8), to: sandbox.jobs + "/failed/bad.gpx.error")
        for name in ["", ".", "..", "new/x.gpx", "missing.gpx"] {
            let result = try sandbox.run(["retry", name, "--jobs", sandbox.jobs])
            #expect(result.status == 2, "'\(name)': \(result.stderr)")
            #expect(result.stderr.contains("\"\(name)\""), "'\(name)': \(result.stderr)")
            #expect(!result.stderr.contains("back in the queue"), "'\(name)': \(result.stderr)")
            #expect(sandbox.jobs(in: "failed") == ["bad.gpx", "bad.gpx.error"] && sandbox.jobs(in: "new").isEmpty, "'\(name)'")
        }
        let good = try sandbox.run(["retry", "bad.gpx", "--jobs", sandbox.jobs])
        #expect(good.status == 0 && sandbox.jobs(in: "new") == ["bad.gpx"], "\(good.stderr)")
    }

    /// Issue 21 item 10: a finished job re-queued because its bytes changed (a queue from before
    /// copies holds hard links to the archive files) is said to have changed, not lost its images.
    @Test func aJobRequeuedBecauseItsArchiveFileChangedSaysSo() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let job = try #require(sandbox.jobs(in: "done").first { $0.hasSuffix(names[0]) })
        try FileStore.remove(sandbox.jobs + "/done/" + job)
        #expect(link(sandbox.archive + "/" + names[0], sandbox.jobs + "/done/" + job) == 0)
        let edited = SampleCatalog.benchmarkRun(fixCount: 150, seed: 77)
        try editInPlace(sandbox.archive + "/" + names[0], edited)
        // The run before the nightly enqueue finds the finished job's bytes changed.
        let result = try sandbox.runQueue()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileStore.readFile(sandbox.jobs + "/done/" + job) == Array(edited.utf8))
        #expect(!result.stderr.contains("lost their images or record"), "\(result.stderr)")
        #expect(
            result.stderr.contains("changed since it was rendered") || result.stderr.contains("changed since they were rendered"), "\(result.stderr)")
    }

    /// Issue 26, last paragraph: a deleted archive file's track stays by default; `enqueue
    /// --mirror` forgets it, but not every track of a folder that looks unmounted (empty).
    @Test func enqueueMirrorForgetsDeletedFilesButNotAnEmptiedFolder() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        try FileStore.remove(sandbox.archive + "/" + names[0])
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.listedTracks().count == 3)
        let mirror = try sandbox.run(["enqueue", sandbox.archive, "--jobs", sandbox.jobs, "--mirror"])
        #expect(mirror.status == 0 && mirror.stderr.contains(names[0]), "\(mirror.stderr)")
        #expect(try sandbox.runQueue().status == 0)
        #expect(sandbox.listedTracks().count == 2 && sandbox.jobs(in: "done").count == 2)
        for name in names.dropFirst() { try FileStore.remove(sandbox.archive + "/" + name) }
        let emptied = try sandbox.run(["enqueue", sandbox.archive, "--jobs", sandbox.jobs, "--mirror"])
        #expect(emptied.status == 1 && emptied.stderr.contains("not mounted"), "\(emptied.stderr)")
        #expect(sandbox.jobs(in: "done").count == 2)
    }

    /// Issue 26, last paragraph: `forget` takes a track off the site at the next listing.
    @Test func forgetRemovesATrackFromTheSiteAtTheNextListing() throws {
        let sandbox = try RunSandbox(detailImages: true)
        let names = try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let job = try #require(sandbox.jobs(in: "done").first { $0.hasSuffix(names[1]) })
        let track = try #require(sandbox.listedTracks().first { ($0["jobs"] as? [String])?.contains(job) == true })
        let id = try #require(track["id"] as? String)
        let images = try FileStore.listDirectory(sandbox.output + "/thumbs").filter { $0.hasPrefix(id) }
        #expect(!images.isEmpty && FileStore.exists(sandbox.output + "/tracks/\(id).html"))
        try FileStore.remove(sandbox.archive + "/" + names[1])

        let unknown = try sandbox.run(["forget", "no-such-job.gpx", "--jobs", sandbox.jobs])
        #expect(unknown.status == 2 && unknown.stderr.contains("no-such-job.gpx"), "\(unknown.stderr)")
        let forget = try sandbox.run(["forget", job, "--jobs", sandbox.jobs])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(sandbox.places()[job] == nil)
        let index = String(decoding: try FileStore.readFile(sandbox.jobs + "/.archive-index"), as: UTF8.self)
        #expect(!index.contains(names[1]))

        let listing = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(sandbox.listedTracks().count == 2)
        #expect(!sandbox.listedTracks().contains { ($0["jobs"] as? [String])?.contains(job) == true })
        #expect(try FileStore.listDirectory(sandbox.output + "/thumbs").filter { $0.hasPrefix(id) } == [])
        #expect(!FileStore.exists(sandbox.output + "/tracks/\(id).html"))
        // Forgetting by the archive path works as well, also once the file is deleted.
        let other = try #require(sandbox.jobs(in: "done").first { $0.hasSuffix(names[2]) })
        try FileStore.remove(sandbox.archive + "/" + names[2])
        let byPath = try sandbox.run(["forget", sandbox.archive + "/" + names[2], "--jobs", sandbox.jobs])
        #expect(byPath.status == 0 && sandbox.places()[other] == nil, "\(byPath.stderr)")
    }

    /// Review of issue 26 item 5: forgetting the last track says that the next run or listing
    /// keeps the site as it is, and how to empty it.
    @Test func forgettingTheLastTrackSaysHowToEmptyTheSite() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let forget = try sandbox.run(["forget", sandbox.archive + "/" + names[0], "--jobs", sandbox.jobs])
        #expect(forget.status == 0 && forget.stderr.contains("listing --allow-empty"), "\(forget.stderr)")
        let listing = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(listing.stderr.contains("forgotten"), "\(listing.stderr)")
        #expect(sandbox.listedTracks().count == 1)
    }
}
