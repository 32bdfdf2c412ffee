import MapGeometry
import Testing
import TrackModel
import TrackSynthesis
@testable import SnapshotRendering

/// The stroke's work per image has a ceiling (issue 13, item 2).
@Suite struct StrokeBudgetTests {
    /// 60,000 random points in a 5 km box: drawing every segment visited the image hundreds of
    /// times over (3.8 s for one 512² image, minutes for a run's four; now 0.6 s).
    @Test func aTrackOfRandomPointsIsThinnedAndSaysSo() throws {
        var state: UInt64 = 7
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let fixes = (0..<60_000).map { _ in Fix(latitudeDegrees: 47 + random() * 0.045, longitudeDegrees: 8 + random() * 0.066) }
        let track = Track(format: .csv, segments: [TrackSegment(fixes: fixes)])
        let snapshot = try SnapshotRenderer.render(track: track)
        #expect(snapshot.info.verticesDrawn < 20_000, "\(snapshot.info.verticesDrawn) vertices")
        #expect(snapshot.info.notes?.contains { $0.hasPrefix("route thinned to every") } == true)

        let line = (0..<10_000).map { _ in PixelPoint(x: random() * 512, y: random() * 512) }
        let capped = StrokeBudget.cap([line], strokeWidthPixels: 8, pixelCount: 512 * 512)
        #expect(capped.step > 1 && capped.polylines[0].first == line.first && capped.polylines[0].last == line.last)
    }

    /// An ordinary track is far below the ceiling at every default size: nothing is thinned.
    @Test func anOrdinaryTrackIsNeverThinned() throws {
        let track = try SnapshotRenderer.decode(trackBytes: Array(SampleCatalog.benchmarkRun(fixCount: 18_000).utf8))
        for (width, height, scale) in [(320, 240, 1.0), (320, 240, 2.0), (1280, 960, 1.0), (1280, 960, 2.0), (512, 512, 1.0)] {
            var options = RenderOptions()
            options.widthPoints = width
            options.heightPoints = height
            options.scale = scale
            let info = try SnapshotRenderer.render(track: track, options: options).info
            #expect(info.notes?.contains { $0.hasPrefix("route thinned") } != true, "\(width)x\(height)@\(scale)")
        }
    }
}
