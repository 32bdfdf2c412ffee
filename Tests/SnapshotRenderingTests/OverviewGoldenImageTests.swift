import ArchiveOverview
import Foundation
import MapGeometry
import MapTiles
import Raster
import SnapshotRendering
import Testing
import TileSources

/// An overview picture over a vector map (`MapBackdrop` under `DensityPainter`'s heat map): two
/// walks through Vaduz over the OpenMapTiles fixture, one of them three times, at 256×192 @2x,
/// compared with `Tests/Golden/overview-vaduz-openmaptiles-256x192@2x.png` within `GoldenImage`'s
/// tolerance. Regenerate with `make golden`.
@Suite struct OverviewGoldenImageTests {
    /// A `MapBackdrop` as the overview's map, for one thread (this test's).
    private struct Backdrop: OverviewBasemap, @unchecked Sendable {
        let backdrop: MapBackdrop
        var stamp: String { "golden" }
        var readsOverNetwork: Bool { false }

        func draw(
            viewport: Viewport, latitudeDegrees: Double, labelScale: Double, mapColors: Int, heat: (inout IndexedCanvas) -> Void
        ) -> OverviewMapPicture {
            let widthPoints = Int((Double(viewport.widthPixels) / labelScale).rounded())
            let drawn = backdrop.draw(
                viewport: viewport, latitudeDegrees: latitudeDegrees, widthPoints: widthPoints, scale: labelScale, mapColors: mapColors, over: heat)
            return OverviewMapPicture(canvas: drawn.canvas, problems: drawn.report?.problems ?? [])
        }

        func tileCount(viewport: Viewport, labelScale: Double) -> Int? { nil }
    }

    @Test func twoWalksOverVaduz() throws {
        let tiles = try BasemapOpener(tileCacheDirectory: NSTemporaryDirectory()).open(BasemapSettings(source: VectorGoldenImageTests.fixture))
        let map = Backdrop(backdrop: try MapBackdrop(settings: BasemapSettings(source: VectorGoldenImageTests.fixture), tiles: tiles))
        func walk(_ id: String, _ points: [(latitude: Double, longitude: Double)]) throws -> OverviewRoute {
            try #require(OverviewRoute(id: id, latitudeLongitudeSegments: [points], distanceMeters: 700, startTime: nil, toleranceGroundMeters: 0))
        }
        let town = [(47.1390, 9.5215), (47.1410, 9.5209), (47.1445, 9.5195), (47.1462, 9.5230)].map { (latitude: $0.0, longitude: $0.1) }
        let hill = [(47.1380, 9.5180), (47.1400, 9.5240), (47.1420, 9.5262)].map { (latitude: $0.0, longitude: $0.1) }
        var options = OverviewOptions()
        options.widthPoints = 256
        options.heightPoints = 192
        options.scales = [2]
        let region = RegionOverview(
            routes: [try walk("town", town), try walk("town again", town), try walk("town once more", town), try walk("hill", hill)],
            options: options)
        let drawn = try region.png(scaleIndex: 0, labelScale: 2, basemap: map)
        #expect(drawn.problems.isEmpty, "\(drawn.problems)")
        try GoldenImage.check(drawn.png, name: "overview-vaduz-openmaptiles-256x192@2x")
    }
}
