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

    private func draw(_ painter: inout VectorMapPainter, pixels: Int, scale: Double, zoomIn: Double = 0.3) throws -> IndexedCanvas {
        var canvas = IndexedCanvas()
        canvas.reset(width: pixels, height: pixels)
        canvas.palette.merging = .graded
        _ = painter.draw(
            into: &canvas, viewport: viewport(ofTile: Self.tile, pixels: pixels, zoomIn: zoomIn), scale: scale, provider: try provider(),
            style: .builtIn(dark: false))
        return canvas
    }

    private func colors(_ canvas: IndexedCanvas) -> [RGBAColor] {
        (0..<(canvas.width * canvas.height)).map { canvas.palette[Int(canvas.indices[$0])] }
    }

    @Test func theTwiceAsLargeImageFromTheKeptLayersIsTheOneDrawnFromScratch() throws {
        var reusing = VectorMapPainter()
        _ = try draw(&reusing, pixels: 300, scale: 1)
        #expect(reusing.prepared?.scale == 1)
        let reused = try draw(&reusing, pixels: 600, scale: 2)
        // Still the @1x layers: the @2x image used them, scaled, instead of preparing its own.
        #expect(reusing.prepared?.scale == 1)
        var fresh = VectorMapPainter()
        let drawn = try draw(&fresh, pixels: 600, scale: 2)
        #expect(fresh.prepared?.scale == 2)
        let (a, b) = (colors(reused), colors(drawn))
        #expect(a == b, "\(zip(a, b).filter { $0 != $1 }.count) of \(a.count) pixels differ")
        #expect(Set(a).count > 20, "a real map was drawn")
    }

    @Test func anotherMapRectangleOrAScaleNotAPowerOfTwoPreparesAgain() throws {
        var painter = VectorMapPainter()
        _ = try draw(&painter, pixels: 300, scale: 1)
        _ = try draw(&painter, pixels: 900, scale: 3)
        #expect(painter.prepared?.scale == 3, "a third-scale copy would not be exact: prepared again")
        _ = try draw(&painter, pixels: 900, scale: 3, zoomIn: 0.4)
        #expect(painter.prepared?.key.zoom != nil)
        let zoomAfterMove = painter.prepared?.key.zoom
        _ = try draw(&painter, pixels: 900, scale: 3, zoomIn: 0.3)
        #expect(painter.prepared?.key.zoom != zoomAfterMove, "another view, another preparation")
    }
}
