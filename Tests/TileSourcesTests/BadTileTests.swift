import FileStore
import Foundation
import MapTiles
import PNGEncoding
import Raster
import SnapshotRendering
import TestSupport
import Testing
import TileSources
import TrackSynthesis

/// Broken tiles and broken MBTiles files give a clear message (once per source for the log,
/// in every render's info), the grid where the tile would be, and never a crash or a hang.
struct BadTileTests {
    /// A tile folder where the tiles a render needs are each broken in one way.
    @Test func brokenTilesLeaveTheGridAndSayWhy() throws {
        let folder = try temporaryFolder("bad")
        let root = folder + "/tiles"
        try TileSetMaker.writeFolder(root, kind: .position, boundsLonLat: regionBounds, zooms: 11...11)
        let needed = TileSetMaker.coordinates(boundsLonLat: [7.3, 46.9, 7.7, 47.2], zoom: 11)
        #expect(needed.count >= 6)
        let good = try TileSetMaker.encodedTile(needed[0], kind: .position)
        let jpeg = try TileSetMaker.encodedTile(needed[0], kind: .position, jpeg: true)
        var badJPEG = jpeg
        // Past the headers, a marker that does not exist (0xFF 0x01 inside the scan).
        badJPEG.replaceSubrange((jpeg.count / 2)..<(jpeg.count / 2 + 4), with: [0xFF, 0x01, 0xFF, 0x01])
        let breakages: [(String, [UInt8]?, String)] = [
            ("truncated PNG", Array(good.prefix(good.count / 2)), "bad PNG"),
            ("wrong size", Canvas128.png(), "128x128 pixels"),
            ("not an image", Array("<html><body>Rate limited</body></html>".utf8), "not a PNG or JPEG image"),
            ("JPEG with a bad marker", badJPEG, "bad JPEG"),
            ("100 MB tile", nil, "more than the 4 MiB"),
        ]
        for (index, breakage) in breakages.enumerated() {
            let tile = needed[index]
            let path = "\(root)/\(tile.z)/\(tile.x)/\(tile.y)"
            try FileStore.remove(path + ".png")
            if let bytes = breakage.1 {
                try FileStore.writeAtomically(bytes, to: path + (breakage.0.hasPrefix("JPEG") ? ".jpg" : ".png"))
            } else {
                // Sparse: 100 MB on paper, nothing on disk; refused by size before a byte is read.
                #expect(FileManager.default.createFile(atPath: path + ".png", contents: nil))
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".png"))
                try handle.truncate(atOffset: 100 << 20)
                try handle.close()
            }
        }
        var logged: [String] = []
        let tiles = try BasemapOpener(tileCacheDirectory: folder).open(BasemapSettings(source: root)) { logged.append($0) }
        var options = backgroundOnlyOptions(width: 640, height: 480, scale: 1, source: root)
        options.basemap?.maximumOverzoomLevels = 6
        let started = Date()
        let snapshot = try SnapshotRenderer.render(track: regionTrack, options: options, tiles: tiles)
        #expect(Date().timeIntervalSince(started) < 10)
        let report = try #require(snapshot.info.basemap)
        #expect(report.zoom == 11)
        #expect(report.tilesFailed == breakages.count, "\(report)")
        let problems = (report.problems ?? []).joined(separator: "\n")
        for breakage in breakages {
            #expect(problems.contains(breakage.2), "\(breakage.0): \(problems)")
        }
        // Logged once per kind of problem, not once per tile and image.
        _ = try SnapshotRenderer.render(track: regionTrack, options: options, tiles: tiles)
        #expect(logged.count <= breakages.count && logged.count >= 3, "\(logged)")
        // The other tiles are drawn.
        #expect(report.tiles > 0)
    }

    @Test func aCorruptMBTilesFileIsNamedWithItsProblem() throws {
        let folder = try temporaryFolder("corrupt")
        for (name, bytes) in [
            ("random.mbtiles", (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }),
            ("header-only.mbtiles", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0xAB, count: 4000)),
        ] {
            let path = folder + "/" + name
            try FileStore.writeAtomically(bytes, to: path)
            #expect {
                _ = try BasemapOpener(tileCacheDirectory: folder).openSource(BasemapSettings(source: path))
            } throws: { error in
                let text = "\(error)"
                return text.contains(path) && (text.contains("not a database") || text.contains("malformed") || text.contains("damaged"))
            }
        }
        #expect {
            _ = try BasemapOpener(tileCacheDirectory: folder).openSource(BasemapSettings(source: folder + "/missing.mbtiles"))
        } throws: { "\($0)".contains("does not exist") }
    }

    /// A file another process is writing (an exclusive lock, as a tile downloader holds it): the
    /// open waits 2 s, then says so; it never hangs.
    @Test func aLockedMBTilesFileIsReportedNotWaitedForForever() throws {
        let folder = try temporaryFolder("locked")
        let path = folder + "/locked.mbtiles"
        try TileSetMaker.writeMBTiles(path, kind: .position, boundsLonLat: regionBounds, zooms: 9...9)
        try holdingWriteLock(on: path) {
            let started = Date()
            #expect {
                _ = try BasemapOpener(tileCacheDirectory: folder).openSource(BasemapSettings(source: path))
            } throws: { error in
                "\(error)".contains("locked") && "\(error)".contains(path)
            }
            let waited = Date().timeIntervalSince(started)
            #expect(waited >= 1.5 && waited < 6, "waited \(waited) s")
        }
    }
}

/// A 128×128 PNG (a tile of the wrong size for a 256-pixel source).
enum Canvas128 {
    static func png() -> [UInt8] {
        var canvas = Raster.Canvas(width: 128, height: 128, fill: Raster.RGBAColor(red: 10, green: 20, blue: 30))
        canvas.pixels[0] = 1
        var settings = PNGEncoding.PNGSettings()
        settings.layout = .trueColor
        return try! PNGEncoding.PNGEncoder.encode(canvas, settings: settings)
    }
}
