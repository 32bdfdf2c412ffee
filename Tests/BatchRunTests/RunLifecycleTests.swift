import FileStore
import Foundation
import Testing

private func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

@Suite struct RunLifecycleTests {
    @Test func aRunRendersEverythingAndAnUnchangedRerunRendersNothing() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(12)
        let archiveBefore = try archiveState(sandbox)
        try sandbox.enqueueArchive()
        let first = try sandbox.runQueue(["--workers", "2", "--json"])
        #expect(try archiveState(sandbox) == archiveBefore)  // copied, never modified
        #expect(first.status == 0, "\(first.stderr)")
        let summary = sandbox.summary(first)
        #expect(summary["rendered"] as? Int == 12 && summary["failed"] as? Int == 0 && summary["claimed"] as? Int == 12)
        #expect(sandbox.jobs(in: "done").count == 12)
        #expect(sandbox.visibleOutputProblems() == [])
        let tracks = sandbox.listedTracks()
        #expect(tracks.count == 12)
        // Newest first, every image present with its size and viewport.
        let times = tracks.compactMap { $0["start_time"] as? Double }
        #expect(times == times.sorted(by: >))
        for track in tracks {
            #expect((track["source"] as? String)?.hasPrefix("track-") == true)
            for image in track["images"] as? [[String: Any]] ?? [] {
                #expect(FileStore.exists(sandbox.output + "/" + (image["path"] as! String)))
                #expect((image["viewport_epsg3857"] as? [Double])?.count == 4)
            }
        }
        let pngBytes = try FileStore.readFile(sandbox.output + "/" + ((tracks[0]["images"] as! [[String: Any]])[0]["path"] as! String))

        // Nightly rerun over the unchanged archive: nothing queued, nothing rendered, nothing printed.
        try sandbox.enqueueArchive()
        #expect(sandbox.jobs(in: "new").isEmpty)
        let quiet = try sandbox.runQueue(["--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stderr)")

        // A renderer-version bump re-renders everything, to identical bytes for identical pixels,
        // and prunes the images of the old keys once the listing no longer names them.
        let bumped = try sandbox.runQueue(["--json"], environment: ["TRACKSNAP_RENDERER_VERSION": "test-bump"])
        #expect(sandbox.summary(bumped)["rendered"] as? Int == 12, "\(bumped.stderr)")
        let pngs = try FileStore.listDirectory(sandbox.output + "/thumbs").filter { $0.hasSuffix(".png") }
        #expect(pngs.count == 24)
        let newTracks = sandbox.listedTracks()
        #expect(Set(newTracks.compactMap { $0["id"] as? String }).isDisjoint(with: tracks.compactMap { $0["id"] as? String }))
        let samePicture = newTracks.first { ($0["jobs"] as? [String]) == (tracks[0]["jobs"] as? [String]) }
        let newPath = ((samePicture?["images"] as? [[String: Any]])?[0]["path"] as? String) ?? ""
        #expect(try FileStore.readFile(sandbox.output + "/" + newPath) == pngBytes)
    }

    /// Names, bytes and mtimes of the archive's files.
    private func archiveState(_ sandbox: RunSandbox) throws -> [String: String] {
        var state: [String: String] = [:]
        for name in try FileStore.listDirectory(sandbox.archive) {
            let path = sandbox.archive + "/" + name
            state[name] = "\(try FileStore.readFile(path).hashValue) \(try FileStore.status(path)!.modificationNanoseconds)"
        }
        return state
    }

    @Test func theSameTrackUnderTwoNamesRendersOnce() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try FileStore.createDirectories([sandbox.archive + "/copy"])
        try FileStore.copyFile(sandbox.archive + "/track-0.gpx", to: sandbox.archive + "/copy/renamed.gpx", permissions: 0o644)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--workers", "2", "--json"])
        let summary = sandbox.summary(result)
        #expect(summary["rendered"] as? Int == 1 && summary["cached"] as? Int == 1, "\(result.stdout)")
        #expect(sandbox.jobs(in: "done").count == 2)
        let tracks = sandbox.listedTracks()
        #expect(tracks.count == 1 && (tracks[0]["jobs"] as? [String])?.count == 2)
    }

    @Test func malformedInputsAreQuarantinedOnTheFirstAttemptAndTheRunGoesOn() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        let bad = ["truncated.gpx", "binary-junk.bin", "empty.gpx", "nan-and-out-of-range.gpx", "csv-bad-number.csv", "undefined-entity.gpx"]
        for name in bad { try FileStore.copyFile(fixture(name), to: sandbox.jobs + "/new/" + name, permissions: 0o444) }
        let result = try sandbox.runQueue(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.summary(result)["failed"] as? Int == bad.count)
        #expect(sandbox.jobs(in: "done").count == 3)
        // One line per failure on stderr, naming the job and the position.
        #expect(result.stderr.contains("truncated.gpx: invalid-input: GPX, line 3"), "\(result.stderr)")
        let status = try sandbox.run(["status", "--jobs", sandbox.jobs, "--json"])
        let document = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as! [String: Any]
        let failures = document["failed"] as! [[String: Any]]
        #expect(Set(failures.map { $0["job"] as! String }) == Set(bad))
        #expect(failures.allSatisfy { $0["class"] as? String == "invalid-input" && $0["attempts"] as? Int == 1 })
        #expect(document["done"] as? Int == 3 && document["queued"] as? Int == 0 && document["running"] as? Int == 0)
    }

    @Test func anEntityBombAnExternalEntityAndA2GBFileAreRefusedQuickly() throws {
        let sandbox = try RunSandbox()
        try FileStore.createDirectories([sandbox.jobs + "/new"])
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            bomb += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">\n"
        }
        bomb += "]>\n<gpx version=\"1.1\"><trk><name>&lol9;</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>\n"
        try FileStore.writeAtomically(Array(bomb.utf8), to: sandbox.jobs + "/new/entity-bomb.gpx")
        let external =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!ENTITY secret SYSTEM \"file:///etc/passwd\">]>\n<gpx version=\"1.1\"><trk><name>&secret;</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>\n"
        try FileStore.writeAtomically(Array(external.utf8), to: sandbox.jobs + "/new/external-entity.gpx")
        // A sparse 2 GB file: refused by size before it is read.
        let huge = sandbox.jobs + "/new/two-gigabytes.gpx"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 2 << 30) == 0)
        chmod(huge, 0o444)
        let result = try sandbox.runQueue(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.seconds < 10)
        #expect(sandbox.summary(result)["failed"] as? Int == 3)
        #expect(result.stderr.contains("entity-bomb.gpx: invalid-input") && result.stderr.contains("lol9"), "\(result.stderr)")
        #expect(result.stderr.contains("external-entity.gpx: invalid-input") && result.stderr.contains("secret"), "\(result.stderr)")
        #expect(result.stderr.contains("two-gigabytes.gpx: limit") && result.stderr.contains("memory limit"), "\(result.stderr)")
        #expect(!result.stderr.contains("root:"))
    }

    @Test func oddNamesAreProcessedOrQuarantinedWithAReasonAndDotfilesIgnored() throws {
        let sandbox = try RunSandbox()
        try FileStore.createDirectories([sandbox.jobs + "/new"])
        let track = Array(try FileStore.readFile(fixture("gpx11-basic.gpx")))
        let names = ["with space.gpx", "Zürich – café ☕.gpx", "tab\tand\nnewline.gpx", ".hidden.gpx", String(repeating: "L", count: 251) + ".gpx"]
        for name in names { try FileStore.writeAtomically(track, to: sandbox.jobs + "/new/" + name) }
        let result = try sandbox.runQueue(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "done") == ["tab\tand\nnewline.gpx", "with space.gpx", "Zürich – café ☕.gpx"].sorted())
        #expect(FileStore.exists(sandbox.jobs + "/new/.hidden.gpx"))
        #expect(sandbox.jobs(in: "failed").contains(names[4]))
        #expect(result.stderr.contains("too long"))
        #expect(sandbox.listedTracks().count == 1)  // three names, one track
        let html = String(decoding: try FileStore.readFile(sandbox.output + "/index.html"), as: UTF8.self)
        #expect(!html.contains("tab\tand"))  // names are escaped or taken from the track
    }

    @Test func aFileStillBeingWrittenIsNotClaimedUntilItSettles() throws {
        let sandbox = try RunSandbox()
        try FileStore.createDirectories([sandbox.jobs + "/new"])
        let track = try FileStore.readFile(fixture("gpx11-basic.gpx"))
        let path = sandbox.jobs + "/new/upload.gpx"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.write(Data(track.prefix(track.count / 2)))
        let run = try sandbox.start(["run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "1.5", "--json"])
        Thread.sleep(forTimeInterval: 1.0)
        #expect(sandbox.jobs(in: "new") == ["upload.gpx"])  // not claimed while it is being written
        handle.write(Data(track.suffix(from: track.count / 2)))
        try handle.close()
        run.waitUntilExit()
        #expect(run.terminationStatus == 0)
        #expect(sandbox.jobs(in: "done") == ["upload.gpx"])
    }

    @Test func usageErrorsExitTwo() throws {
        let sandbox = try RunSandbox()
        for arguments in [
            ["run", "--shard", "3/3"], ["run", "--shard", "auto"], ["run", "--workers", "0"], ["run", "extra"],
            ["enqueue", sandbox.root + "/missing"],
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
        let auto = try sandbox.run(["run", "--jobs", sandbox.jobs, "--shard", "auto", "--shards", "4"], environment: ["JOB_COMPLETION_INDEX": "4"])
        #expect(auto.status == 2 && auto.stderr.contains("out of range"), "\(auto.stderr)")
    }
}
