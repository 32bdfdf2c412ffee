import FileStore
import Foundation
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
        try TileSetMaker.writeMBTiles(mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...17, attribution: "<a href=\"https://example.org\">&copy; Test Map</a>")
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

/// Runs `body` while a second process holds an exclusive SQLite lock on `path` (as a writer
/// such as a tile downloader does), released when `body` returns.
func holdingWriteLock(on path: String, _ body: () throws -> Void) throws {
    let locker = Process()
    locker.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    locker.arguments = ["-c", "import sqlite3,sys\nc=sqlite3.connect(sys.argv[1],isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\nc.execute('UPDATE metadata SET value=value')\nprint('locked',flush=True)\nsys.stdin.read()", path]
    let output = Pipe(), input = Pipe()
    locker.standardOutput = output
    locker.standardInput = input
    try locker.run()
    defer {
        try? input.fileHandleForWriting.close()
        locker.waitUntilExit()
    }
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard line.contains("locked") else { throw CocoaError(.fileLocking) }
    try body()
}
