import Raster
import Testing
import TrackSynthesis
@testable import SnapshotRendering

/// Renders fixed tracks and compares them with `Tests/Golden/*.png`.
///
/// Tolerance and regeneration: `GoldenImage` (the vector maps' goldens are in `VectorGoldenImageTests`).
@Suite struct GoldenImageTests {
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
        try GoldenImage.check(png, name: testCase.name)
    }
}
