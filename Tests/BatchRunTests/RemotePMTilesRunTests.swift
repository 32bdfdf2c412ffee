import FileStore
import Foundation
import TestSupport
import Testing
import TrackSynthesis

/// `run --basemap http://…/area.pmtiles` end to end: an MBTiles file converted by
/// `tracksnap-dev pmtiles`, served by the loopback tile server with range support, drawn by a
/// run; a rerun within the server's max-age asks the server nothing; an archive the server does
/// not have stops the run before any track, naming the URL.
struct RemotePMTilesRunTests {
    private static let devBinary = URL(fileURLWithPath: RunSandbox.binary).deletingLastPathComponent().appendingPathComponent("tracksnap-dev").path

    @Test func anArchiveOnAServerIsDrawnAndARerunAsksNothing() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        let server = try LoopbackTileServer(folder: sandbox.root + "/server")
        defer { server.stop() }
        // The generated tracks start in Paris.
        let mbtiles = sandbox.root + "/paris.mbtiles"
        try TileSetMaker.writeMBTiles(mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...16, attribution: "© Test Map")
        let convert = Process()
        convert.executableURL = URL(fileURLWithPath: Self.devBinary)
        convert.arguments = ["pmtiles", mbtiles, server.folder + "/tiles/paris.pmtiles"]
        let output = Pipe()
        convert.standardOutput = output
        try convert.run()
        convert.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(convert.terminationStatus == 0 && said.contains("wrote") && said.contains("distinct"), "\(said)")

        let url = server.url("ranges", file: "paris.pmtiles")
        try sandbox.enqueueArchive()
        let first = try sandbox.runQueue(["--basemap", url, "--json"])
        #expect(first.status == 0 && sandbox.summary(first)["rendered"] as? Int == 2, "\(first.stderr)")
        #expect(sandbox.listedTracks().allSatisfy { $0["attribution"] as? String == "© Test Map" }, "\(sandbox.listedTracks().first ?? [:])")
        let asked = server.requests().count
        #expect(asked > 1 && server.requests().allSatisfy { $0["range"]?.hasPrefix("bytes=") == true })

        // Unchanged, within max-age: the same content stamp, nothing rendered, no request.
        try sandbox.enqueueArchive()
        let quiet = try sandbox.runQueue(["--basemap", url, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stderr)")
        #expect(server.requests().count == asked)

        let missing = server.url("ranges", file: "nowhere.pmtiles")
        try sandbox.writeTracks(1, seed: 9, prefix: "more")
        try sandbox.enqueueArchive()
        let refused = try sandbox.runQueue(["--basemap", missing])
        #expect(refused.status == 2 && refused.stderr.contains(missing) && refused.stderr.contains("HTTP 404"), "\(refused.stderr)")
        #expect(sandbox.jobs(in: "new").count == 1)
    }
}
