import Foundation
import PNGEncoding
import Raster
import Testing
import TrackSynthesis
@testable import SnapshotRendering

/// Renders fixed tracks and compares them with `Tests/Golden/*.png`.
///
/// Tolerance: every channel within 3 levels and at most 0.5% of pixels different at all. Rendering
/// is deterministic on one machine; the slack absorbs floating-point differences between CPUs and
/// compiler versions, not visible changes. Regenerate on purpose with `make golden`.
@Suite struct GoldenImageTests {
    private static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    private static let cases: [(name: String, bytes: @Sendable () throws -> [UInt8], width: Int, height: Int, scale: Double, style: SnapshotStyle)] =
        [
            ("two-segments-gap", { try fixtureBytes("two-segments-gap.gpx") }, 256, 192, 1, SnapshotStyle()),
            ("cdata-and-entities-in-name", { try fixtureBytes("cdata-and-entities-in-name.gpx") }, 128, 128, 2, SnapshotStyle()),
            ("synthetic-run-3000", { Array(SampleCatalog.benchmarkRun(fixCount: 3_000).utf8) }, 256, 256, 2, SnapshotStyle()),
            ("synthetic-run-3000-dark-speed-bands", { Array(SampleCatalog.benchmarkRun(fixCount: 3_000).utf8) }, 256, 256, 2, Self.darkSpeedBands),
        ]

    private static var darkSpeedBands: SnapshotStyle {
        var style = SnapshotStyle(theme: .dark)
        style.coloring = .speed
        return style
    }

    @Test(arguments: cases.indices)
    func matchesTheGoldenImage(index: Int) throws {
        let testCase = Self.cases[index]
        var options = RenderOptions()
        options.widthPoints = testCase.width
        options.heightPoints = testCase.height
        options.scale = testCase.scale
        options.style = testCase.style
        let png = try SnapshotRenderer.render(trackBytes: try testCase.bytes(), options: options).png
        let url = Self.goldenDirectory.appendingPathComponent(testCase.name + ".png")
        if ProcessInfo.processInfo.environment["TRACKSNAP_WRITE_GOLDEN"] == "1" {
            try Data(png).write(to: url)
            return
        }
        guard let golden = FileManager.default.contents(atPath: url.path) else {
            Issue.record("no golden image at \(url.path): run 'make golden' and review it")
            return
        }
        let expected = try PNGDecoder.decode(Array(golden)), actual = try PNGDecoder.decode(png)
        #expect(expected.width == actual.width && expected.height == actual.height)
        var differing = 0, worst = 0
        for pixel in 0..<(expected.width * expected.height) {
            var pixelDiffers = false
            for channel in 0..<4 {
                let difference = abs(Int(expected.pixels[pixel * 4 + channel]) - Int(actual.pixels[pixel * 4 + channel]))
                worst = max(worst, difference)
                if difference > 0 { pixelDiffers = true }
            }
            if pixelDiffers { differing += 1 }
        }
        #expect(worst <= 3, "\(testCase.name): a channel differs by \(worst)")
        #expect(Double(differing) <= 0.005 * Double(expected.width * expected.height), "\(testCase.name): \(differing) pixels differ")
    }
}
