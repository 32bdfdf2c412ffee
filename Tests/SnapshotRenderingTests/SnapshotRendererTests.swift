import Foundation
import PNGEncoding
import Testing
import TrackSynthesis
@testable import SnapshotRendering

func fixtureBytes(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return Array(try Data(contentsOf: url))
}

@Suite struct SnapshotRendererTests {
    @Test func rendersATrackAndDescribesIt() throws {
        let gpx = Array(SampleCatalog.benchmarkRun(fixCount: 3_000).utf8)
        let snapshot = try SnapshotRenderer.render(trackBytes: gpx, fileName: "run.gpx")
        let info = snapshot.info
        #expect(info.format == "gpx" && info.fixes == 3_000 && info.fixesKept == 3_000 && info.segments == 1)
        #expect(info.width == 512 && info.height == 512)
        #expect(info.verticesDrawn > 10 && info.verticesDrawn < 1_500)
        #expect(info.distanceM > 4_000 && info.distanceM < 7_000)
        #expect(info.durationS == 2_999)
        #expect(info.strokeWidthPx >= 4 && info.strokeWidthPx <= 21)
        let rect = info.viewportEpsg3857
        #expect(abs((rect[2] - rect[0]) - (rect[3] - rect[1])) < 1e-6, "square image, square map rect")
        let canvas = try PNGDecoder.decode(snapshot.png)
        #expect(canvas.width == 512 && canvas.height == 512)
    }

    @Test func scaleTwoDoublesThePixelsAndTheStroke() throws {
        let gpx = Array(SampleCatalog.benchmarkRun(fixCount: 2_000).utf8)
        var options = RenderOptions()
        options.widthPoints = 320
        options.heightPoints = 240
        let one = try SnapshotRenderer.render(trackBytes: gpx, options: options).info
        options.scale = 2
        let two = try SnapshotRenderer.render(trackBytes: gpx, options: options).info
        #expect(two.width == 640 && two.height == 480)
        #expect(abs(two.strokeWidthPx - 2 * one.strokeWidthPx) < 1e-9)
        #expect(two.viewportEpsg3857 == one.viewportEpsg3857)
    }

    @Test func viewportMapsTheStartFixToTheStartMarker() throws {
        // The documented viewport lets anyone place a coordinate: check with the start fix.
        let bytes = try fixtureBytes("two-segments-gap.gpx")
        let snapshot = try SnapshotRenderer.render(trackBytes: bytes)
        let r = snapshot.info.viewportEpsg3857
        let x = 6_378_137.0 * 8 * Double.pi / 180
        let y = 6_378_137.0 * log(tan(Double.pi / 4 + 50 * Double.pi / 360))
        let px = Int((x - r[0]) / (r[2] - r[0]) * 512), py = Int((r[3] - y) / (r[3] - r[1]) * 512)
        let canvas = try PNGDecoder.decode(snapshot.png)
        let start = canvas.color(x: px, y: py)
        #expect(start.green > start.red && start.green > start.blue, "green start marker at \(px),\(py): \(start)")
    }

    /// Issue 21 item 8: the render info of a 2,400-fix track near Reykjavík (−21.78° to −21.69°)
    /// had `viewport_epsg3857` x from 37,648,386 to 37,661,638, a whole world east.
    @Test func aTrackWestOfGreenwichKeepsItsViewportInTheWorld() throws {
        var gpx = "<gpx><trk><trkseg>"
        for index in 0..<2400 { gpx += "<trkpt lat=\"\(64.2 + Double(index % 50) * 0.00002)\" lon=\"\(-21.78 + 0.09 * Double(index) / 2399)\"/>" }
        let info = try SnapshotRenderer.render(trackBytes: Array((gpx + "</trkseg></trk></gpx>").utf8), fileName: "reykjavik.gpx").info
        let r = info.viewportEpsg3857
        let lonToX = 6_378_137.0 * Double.pi / 180
        #expect(r[0] < -21.78 * lonToX && r[2] > -21.69 * lonToX && r[0] > -180 * lonToX && r[2] < 0, "\(r)")
    }

    @Test func sameInputGivesIdenticalBytes() throws {
        let bytes = try fixtureBytes("gpx11-basic.gpx")
        #expect(try SnapshotRenderer.render(trackBytes: bytes).png == (try SnapshotRenderer.render(trackBytes: bytes).png))
    }

    @Test func aTrackWithNoValidFixesIsAnInputError() throws {
        let error = #expect(throws: SnapshotError.self) { try SnapshotRenderer.render(trackBytes: try fixtureBytes("nan-and-out-of-range.gpx")) }
        #expect(error?.isInvalidInput == true)
        #expect(error?.description == "GPX: no valid fixes (read 4; dropped 4 invalid, 0 repeated, 0 spikes)")
    }

    @Test func badOptionsAreRefused() {
        var options = RenderOptions()
        options.scale = 0
        #expect(throws: SnapshotError.invalidOptions("scale must be between 0.5 and 4, found 0.0")) {
            try SnapshotRenderer.render(trackBytes: [UInt8]("<gpx/>".utf8), options: options)
        }
    }

    @Test func aMillionFixTrackRenders() throws {
        let gpx = Array(SampleCatalog.benchmarkRun(fixCount: 1_000_000).utf8)
        let snapshot = try SnapshotRenderer.render(trackBytes: gpx)
        #expect(snapshot.info.fixesKept == 1_000_000)
        #expect(snapshot.info.verticesDrawn < 50_000)
    }
}
