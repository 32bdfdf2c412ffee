import FileStore
import Foundation
import MapTiles
import TestSupport
import Testing
import TrackSynthesis

/// `run --basemap` end to end through the real binary: images drawn over an MBTiles file, the
/// attribution in index.json and the pages, the basemap in the cache key (an unchanged rerun
/// renders nothing; a replaced file, or going back to the grid, re-renders).
struct BasemapRunTests {
    @Test func theBasemapIsDrawnListedAndPartOfTheCacheKey() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(3)
        // The generated tracks start in Paris.
        let mbtiles = sandbox.root + "/paris.mbtiles"
        try TileSetMaker.writeMBTiles(
            mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...17,
            attribution: "<a href=\"https://example.org\">&copy; Test Map</a>")
        try sandbox.enqueueArchive()
        let style = ["--style", sandbox.thumbnailsOnlyStyle]
        let first = try sandbox.runQueue(style + ["--basemap", mbtiles, "--json"])
        #expect(first.status == 0 && sandbox.summary(first)["rendered"] as? Int == 3, "\(first.stderr)")
        let tracks = sandbox.listedTracks()
        #expect(tracks.count == 3)
        #expect(tracks.allSatisfy { $0["attribution"] as? String == "© Test Map" }, "\(tracks.first ?? [:])")
        let page = String(decoding: try FileStore.readFile(sandbox.output + "/index.html"), as: UTF8.self)
        #expect(page.contains("Map: © Test Map"))
        let detail = String(decoding: try FileStore.readFile(sandbox.output + "/" + (tracks[0]["page"] as! String)), as: UTF8.self)
        #expect(detail.contains("<dt>Map data</dt><dd>© Test Map</dd>"))

        // Unchanged: nothing read, nothing rendered, nothing printed.
        try sandbox.enqueueArchive()
        let quiet = try sandbox.runQueue(style + ["--basemap", mbtiles, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stderr)")

        // The file replaced (a new modification time): every track is drawn again.
        sandbox.age(mbtiles, seconds: 60)
        let replaced = try sandbox.runQueue(style + ["--basemap", mbtiles, "--json"])
        #expect(sandbox.summary(replaced)["rendered"] as? Int == 3, "\(replaced.stderr)")

        // Back to the grid: drawn again, no attribution.
        let grid = try sandbox.runQueue(style + ["--json"])
        #expect(sandbox.summary(grid)["rendered"] as? Int == 3, "\(grid.stderr)")
        #expect(sandbox.listedTracks().allSatisfy { $0["attribution"] == nil })
    }

    @Test func aBadBasemapFailsBeforeAnyTrackIsRead() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        let vector = sandbox.root + "/vector.mbtiles"
        try FileStore.writeAtomically(Array("not sqlite at all".utf8), to: vector)
        let result = try sandbox.runQueue(["--basemap", vector])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(vector) && result.stderr.contains("--basemap"), "\(result.stderr)")
        #expect(sandbox.jobs(in: "new").count == 1)
    }

    @Test func aDamagedPMTilesFailsBeforeAnyTrackIsRead() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        // A PMTiles v3 header whose root directory (bytes 127…5127) lies past the file's 200 bytes.
        var header = Array("PMTiles".utf8) + [3] + [UInt8](repeating: 0, count: 192)
        for (offset, value) in [(8, 127), (16, 5_000)] {
            for k in 0..<8 { header[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
        }
        header[98] = 1  // tile type: MVT
        let archive = sandbox.root + "/vector.pmtiles"
        try FileStore.writeAtomically(header, to: archive)
        let result = try sandbox.runQueue(["--basemap", archive])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(archive), "\(result.stderr)")
        #expect(sandbox.jobs(in: "new").count == 1)
    }
}

/// Issue 21 item 10: an MBTiles file a tile downloader holds locked when the run starts is a
/// temporary condition (exit 75, "locked", try again), not a bad command line (exit 2).
struct LockedBasemapTests {
    @Test func anMBTilesLockedAtStartIsTemporary() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        let mbtiles = sandbox.root + "/locked.mbtiles"
        try TileSetMaker.writeMBTiles(mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...13)
        try holdingWriteLock(on: mbtiles) {
            let result = try sandbox.runQueue(["--basemap", mbtiles])
            #expect(result.status == 75, "\(result.status) \(result.stderr)")
            #expect(result.stderr.contains("locked") && result.stderr.contains("try again") && result.stderr.contains(mbtiles), "\(result.stderr)")
            #expect(!result.stderr.contains("--help"), "\(result.stderr)")
        }
        #expect(sandbox.jobs(in: "new").count == 1)
    }
}

/// Issue 21 item 5: the source's failure is the source's, not the track's. An MBTiles file a
/// writer locks in the middle of a run costs each image bounded time (the image's and the
/// track's time for tiles, then the circuit breaker), fails the tiles (not the job), marks the
/// images incomplete, and the next run draws them again once the lock is gone.
struct LockedMidRunBasemapTests {
    @Test func anMBTilesLockedMidRunFailsTilesNotTracks() throws {
        let sandbox = try RunSandbox()
        let mbtiles = sandbox.root + "/locked-mid-run.mbtiles"
        try TileSetMaker.writeMBTiles(mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...17)
        // Short tracks far apart, so each one needs tiles no earlier track read.
        let spots = [(2.31, 48.84), (2.39, 48.87), (2.35, 48.87), (2.39, 48.84), (2.35, 48.845), (2.31, 48.87)]
        func writeTrack(_ index: Int, settled: Bool, folder: String? = nil) throws {
            let (longitude, latitude) = spots[index]
            let points = (0..<30).map { step in
                let fraction = Double(step) / 29
                return
                    "<trkpt lat=\"\(latitude + 0.004 * fraction)\" lon=\"\(longitude + 0.006 * fraction)\"><time>2024-05-01T10:\(10 + step):00Z</time></trkpt>"
            }
            let gpx = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\"><trk><trkseg>\(points.joined())</trkseg></trk></gpx>"
            let path = (folder ?? sandbox.archive) + "/spot-\(index).gpx"
            try FileStore.writeAtomically(Array(gpx.utf8), to: path)
            if settled { sandbox.age(path, seconds: 3600) }
        }
        // The first track is drawn before the lock; the second, a producer's file dropped into
        // new/ and still settling, keeps the worker (and its open file) waiting; the other four
        // are enqueued once the lock is held.
        try writeTrack(0, settled: true)
        try sandbox.enqueueArchive()
        try writeTrack(1, settled: false, folder: sandbox.jobs + "/new")
        let run = try sandbox.start([
            "run", "--jobs", sandbox.jobs, "--output", sandbox.output, "--settle", "10", "--workers", "1", "--job-timeout", "10",
            "--attempts", "1", "--basemap", mbtiles, "--json",
        ])
        let records = sandbox.output + "/.tracksnap/records"
        let giveUp = Date().addingTimeInterval(8)
        while Date() < giveUp, ((try? FileStore.listDirectory(records)) ?? []).filter({ $0.hasSuffix(".json") }).isEmpty { usleep(50_000) }
        var stdout = Data(), stderr = Data()
        try holdingWriteLock(on: mbtiles) {
            for index in 2..<spots.count { try writeTrack(index, settled: true) }
            try sandbox.enqueueArchive()
            stdout = (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
            stderr = (run.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
            run.waitUntilExit()
        }
        let locked = RunSandbox.Result(
            status: run.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
            seconds: 0)
        let summary = sandbox.summary(locked)
        // Every track drawn and published; none blamed for the file's lock.
        #expect(locked.status == 0 && summary["rendered"] as? Int == 6 && summary["failed"] as? Int == 0, "\(locked.stdout) \(locked.stderr)")
        #expect(sandbox.jobs(in: "failed").isEmpty && !locked.stderr.contains("timeout"), "\(locked.stderr)")
        // The five drawn while it was locked lack tiles, and say why.
        let incomplete = summary["incomplete"] as? Int ?? 0
        #expect(incomplete == 5, "\(locked.stdout)")
        let causes = summary["incomplete_causes"] as? [[String: Any]] ?? []
        #expect(causes.allSatisfy { ($0["cause"] as? String)?.contains("locked") == true } && !causes.isEmpty, "\(locked.stdout)")

        // The lock released: the next run draws exactly those again, complete.
        try sandbox.enqueueArchive()
        let rerun = try sandbox.runQueue(["--basemap", mbtiles, "--json", "--job-timeout", "10", "--attempts", "1"])
        let again = sandbox.summary(rerun)
        #expect(rerun.status == 0 && again["rendered"] as? Int == incomplete && again["incomplete"] as? Int == 0, "\(rerun.stdout) \(rerun.stderr)")
        #expect(try FileStore.listDirectory(records).allSatisfy { !$0.contains("incomplete") })
    }
}

/// Issue 21 item 2: an image drawn while map tiles failed (not absent by design) is published
/// but recorded as incomplete, never reused from the cache (not even by another job with the
/// same bytes), reported by the run, and drawn again by the next run once the tiles can be had.
struct IncompleteBasemapTests {
    static let bounds = [2.30, 48.83, 2.40, 48.88]

    /// The Paris `{z}/{x}/{y}.png` folder (zooms 13-17, 1,477 tiles) both tests start from,
    /// written once per test process: `TileSetMaker.writeFolder` encodes every tile and fsyncs
    /// every file, which took 30-140 s a test on a loaded machine where a hard-linked copy takes
    /// a fraction of a second. Nil when it could not be written.
    static let parisTiles: String? = {
        let path = NSTemporaryDirectory() + "tracksnap-paris-tiles-\(UUID().uuidString)"
        return (try? TileSetMaker.writeFolder(path, kind: .position, boundsLonLat: bounds, zooms: 13...17)) == nil ? nil : path
    }()

    /// A copy of `parisTiles` at `path` (its files hard-linked: the tests only remove a tile or
    /// link one back, never write into one).
    private func copyParisTiles(to path: String) throws -> String {
        let template = try #require(Self.parisTiles, "the shared tile folder could not be written")
        try ListingCrashTests.copy(template, to: path, linking: true)
        return template
    }

    /// Puts the tile at `coordinate` back: the template's file linked where the test broke it.
    private func repair(_ coordinate: TileCoordinate, in tiles: String, from template: String) throws {
        let relative = "/\(coordinate.z)/\(coordinate.x)/\(coordinate.y).png"
        try FileManager.default.removeItem(atPath: tiles + relative)
        if try !FileStore.hardLink(template + relative, to: tiles + relative) {
            try FileManager.default.copyItem(atPath: template + relative, toPath: tiles + relative)
        }
    }

    @Test func imagesWithFailedTilesAreRedrawnOnceTheTilesCanBeHad() throws {
        let sandbox = try RunSandbox()
        let names = try sandbox.writeTracks(3)
        // The same bytes under a second name: one cache key, two jobs.
        try FileStore.writeAtomically(try FileStore.readFile(sandbox.archive + "/" + names[0]), to: sandbox.archive + "/copy-of-track-0.gpx")
        sandbox.age(sandbox.archive + "/copy-of-track-0.gpx", seconds: 3600)
        let tiles = sandbox.root + "/paris-tiles"
        let bounds = Self.bounds
        let template = try copyParisTiles(to: tiles)
        // Every other tile unreadable: a folder where its file should be (EISDIR, also as root).
        let broken = (13...17).flatMap { TileSetMaker.coordinates(boundsLonLat: bounds, zoom: $0) }.filter { ($0.x + $0.y) % 2 == 0 }
        for coordinate in broken {
            let path = "\(tiles)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y).png"
            try FileStore.remove(path)
            try FileStore.createDirectories(path)
        }
        try sandbox.enqueueArchive()
        let first = try sandbox.runQueue(["--basemap", tiles, "--json"])
        let summary = sandbox.summary(first)
        #expect(first.status == 0, "\(first.stderr)")
        // Both jobs of the shared key are drawn: the incomplete image is no cache hit.
        #expect(summary["rendered"] as? Int == 4 && summary["cached"] as? Int == 0, "\(first.stdout)")
        #expect(summary["incomplete"] as? Int == 4, "\(first.stdout)")
        let causes = summary["incomplete_causes"] as? [[String: Any]] ?? []
        #expect(causes.count == 1 && (causes.first?["tiles_failed"] as? Int ?? 0) > 0, "\(first.stdout)")
        #expect((causes.first?["cause"] as? String)?.contains("tile files") == true, "\(first.stdout)")
        // Published and listed all the same, with the record saying why it is incomplete.
        let listed = sandbox.listedTracks()
        #expect(listed.count == 3)
        let records = try FileStore.listDirectory(sandbox.output + "/.tracksnap/records").filter {
            $0.hasSuffix(".json") && !$0.contains("incomplete")
        }
        #expect(records.count == 3)
        for name in records {
            let record =
                try JSONSerialization.jsonObject(with: Data(try FileStore.readFile(sandbox.output + "/.tracksnap/records/" + name))) as? [String: Any]
            #expect(record?["incomplete"] is String, "\(name): \(record ?? [:])")
        }
        // The human summary says so too.
        let human = try sandbox.runQueue(["--basemap", tiles])
        #expect(human.stderr.contains("4 track(s) drawn with missing map tiles") && human.stderr.contains("redrawn next run"), "\(human.stderr)")
        #expect(human.stderr.contains("were drawn with missing map tiles: queued again"), "\(human.stderr)")

        // The tiles repaired (the folder's own time unchanged: the same cache key).
        for coordinate in broken { try repair(coordinate, in: tiles, from: template) }
        let repaired = try sandbox.runQueue(["--basemap", tiles, "--json"])
        // The key's first job draws it complete; the second then takes it from the cache.
        #expect(
            sandbox.summary(repaired)["rendered"] as? Int == 3 && sandbox.summary(repaired)["cached"] as? Int == 1,
            "\(repaired.stdout) \(repaired.stderr)")
        #expect(sandbox.summary(repaired)["incomplete"] as? Int == 0, "\(repaired.stdout)")
        for name in records {
            let record =
                try JSONSerialization.jsonObject(with: Data(try FileStore.readFile(sandbox.output + "/.tracksnap/records/" + name))) as? [String: Any]
            #expect(record?["incomplete"] == nil && (record?["basemap"] as? [String: Any])?["tiles_failed"] as? Int == 0, "\(name): \(record ?? [:])")
        }
        #expect(try FileStore.listDirectory(sandbox.output + "/.tracksnap/records").allSatisfy { !$0.contains("incomplete") })
        // Complete now: the next run draws nothing.
        let settled = try sandbox.runQueue(["--basemap", tiles, "--json"])
        #expect(sandbox.summary(settled)["rendered"] as? Int == 0 && sandbox.summary(settled)["incomplete"] as? Int == 0, "\(settled.stdout)")
    }

    /// With every tile failing nothing of the map is drawn, so neither is its attribution; once
    /// redrawn, the listing shows the attribution (its entry is rebuilt from the new record).
    @Test func theListingFollowsARedrawnRecord() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        let tiles = sandbox.root + "/paris-tiles"
        let bounds = Self.bounds
        let template = try copyParisTiles(to: tiles)
        let all = (13...17).flatMap { TileSetMaker.coordinates(boundsLonLat: bounds, zoom: $0) }
        for coordinate in all {
            let path = "\(tiles)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y).png"
            try FileStore.remove(path)
            try FileStore.createDirectories(path)
        }
        try sandbox.enqueueArchive()
        let options = ["--basemap", tiles, "--attribution", "© Repair Test", "--json"]
        let first = try sandbox.runQueue(options)
        #expect(sandbox.summary(first)["incomplete"] as? Int == 2, "\(first.stdout) \(first.stderr)")
        #expect(sandbox.listedTracks().count == 2 && sandbox.listedTracks().allSatisfy { $0["attribution"] == nil })
        for coordinate in all { try repair(coordinate, in: tiles, from: template) }
        let repaired = try sandbox.runQueue(options)
        #expect(sandbox.summary(repaired)["rendered"] as? Int == 2 && sandbox.summary(repaired)["incomplete"] as? Int == 0, "\(repaired.stdout)")
        let listed = sandbox.listedTracks()
        #expect(listed.count == 2 && listed.allSatisfy { $0["attribution"] as? String == "© Repair Test" }, "\(listed)")
    }
}
