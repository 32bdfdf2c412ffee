import MapGeometry
import MapStyle
import MapTiles
import Raster
import Testing

@testable import VectorMap

/// The @2x image drawn from the @1x image's prepared layers (`PreparedMap`) is the image the
/// painter would draw from scratch, pixel for pixel.
@Suite struct PreparedLayerTests {
    static let tile = TileCoordinate(z: 14, x: 8624, y: 5758)

    private func provider() throws -> MemoryVectorTiles {
        try MemoryVectorTiles([Self.tile: try vectorFixture("openmaptiles-liechtenstein-14-8624-5758.pbf.gz")])
    }

    private func draw(
        _ painter: inout VectorMapPainter, _ tiles: MemoryVectorTiles, pixels: Int, scale: Double, zoomIn: Double = 0.3
    ) -> IndexedCanvas {
        var canvas = IndexedCanvas()
        canvas.reset(width: pixels, height: pixels)
        canvas.palette.merging = .graded
        _ = painter.draw(
            into: &canvas, viewport: viewport(ofTile: Self.tile, pixels: pixels, zoomIn: zoomIn), scale: scale, provider: tiles,
            style: .builtIn(dark: false))
        return canvas
    }

    private func colors(_ canvas: IndexedCanvas) -> [RGBAColor] {
        (0..<(canvas.width * canvas.height)).map { canvas.palette[Int(canvas.indices[$0])] }
    }

    @Test func theTwiceAsLargeImageFromTheKeptLayersIsTheOneDrawnFromScratch() throws {
        let tiles = try provider()
        var reusing = VectorMapPainter()
        _ = draw(&reusing, tiles, pixels: 300, scale: 1)
        #expect(reusing.prepared?.scale == 1)
        let reused = draw(&reusing, tiles, pixels: 600, scale: 2)
        // Still the @1x layers: the @2x image used them, scaled, instead of preparing its own.
        #expect(reusing.prepared?.scale == 1)
        var fresh = VectorMapPainter()
        let drawn = draw(&fresh, tiles, pixels: 600, scale: 2)
        #expect(fresh.prepared?.scale == 2)
        let (a, b) = (colors(reused), colors(drawn))
        #expect(a == b, "\(zip(a, b).filter { $0 != $1 }.count) of \(a.count) pixels differ")
        #expect(Set(a).count > 20, "a real map was drawn")
    }

    @Test func anotherMapRectangleAnotherSourceOrAScaleNotAPowerOfTwoPreparesAgain() throws {
        let tiles = try provider()
        var painter = VectorMapPainter()
        _ = draw(&painter, tiles, pixels: 300, scale: 1)
        _ = draw(&painter, tiles, pixels: 900, scale: 3)
        #expect(painter.prepared?.scale == 3, "a third-scale copy would not be exact: prepared again")
        _ = draw(&painter, tiles, pixels: 900, scale: 3, zoomIn: 0.4)
        let zoomAfterMove = painter.prepared?.key.zoom
        _ = draw(&painter, tiles, pixels: 900, scale: 3, zoomIn: 0.3)
        #expect(painter.prepared?.key.zoom != zoomAfterMove, "another view, another preparation")
        // The same view from another source (the same tiles, another object) is prepared again.
        _ = draw(&painter, tiles, pixels: 300, scale: 1)
        _ = draw(&painter, try provider(), pixels: 600, scale: 2)
        #expect(painter.prepared?.scale == 2, "another source: prepared again")
    }
}
