import FileStore
import Foundation
import Testing
import TrackSynthesis

/// An attribution with bidi controls or control characters must not reorder or break the
/// "Map: …" text of the pages (issue 21, item 10): the image, the record, the pages and
/// index.json all carry the cleaned text.
@Suite struct AttributionTextTests {
    @Test func bidiControlsAndControlCharactersAreStrippedFromTheAttribution() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1, fixCount: 60)
        let mbtiles = sandbox.root + "/paris.mbtiles"
        try TileSetMaker.writeMBTiles(mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...15)
        try sandbox.enqueueArchive()
        let attribution = "\u{202E}© Test\u{07}Map\u{2066} \u{200F}data\u{2069}"
        let run = try sandbox.runQueue(["--basemap", mbtiles, "--attribution", attribution])
        #expect(run.status == 0, "\(run.stderr)")
        let track = try #require(sandbox.listedTracks().first)
        #expect(track["attribution"] as? String == "© Test Map data", "\(String(describing: track["attribution"]).debugDescription)")
        let record = try FileStore.listDirectory(sandbox.output + "/.tracksnap/records").filter { $0.hasSuffix(".json") }
        let pages =
            ["index.html", track["page"] as! String, "index/part-1.json"].map { sandbox.output + "/" + $0 }
            + record.map { sandbox.output + "/.tracksnap/records/" + $0 }
        for path in pages {
            let text = String(decoding: try FileStore.readFile(path), as: UTF8.self)
            #expect(text.contains("© Test Map data"), "\(path)")
            #expect(!text.unicodeScalars.contains { $0.properties.isBidiControl || $0 == "\u{07}" }, "\(path)")
        }
    }
}
