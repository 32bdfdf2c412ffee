import Testing
@testable import Raster

@Suite struct ScaleBarAndLayerTests {
    @Test func theBarIsTheLongestRoundDistanceThatFits() {
        #expect(ScaleBarPainter.choose(groundMetersPerPixel: 10, maximumPixels: 96)?.label == "500 m")
        #expect(ScaleBarPainter.choose(groundMetersPerPixel: 30, maximumPixels: 96)?.label == "2 km")
        #expect(ScaleBarPainter.choose(groundMetersPerPixel: 1000, maximumPixels: 96)?.label == "50 km")
        #expect(ScaleBarPainter.choose(groundMetersPerPixel: 0.005, maximumPixels: 96) == nil)
        #expect(BitmapFont.canDraw("500 m") && BitmapFont.canDraw("20 km") && BitmapFont.widthDots("2 km") == 23)
    }

    @Test func theBarAndItsLabelArePaintedInTheBottomLeftCorner() {
        var canvas = Canvas(width: 200, height: 100, fill: RGBAColor(red: 255, green: 255, blue: 255))
        let style = ScaleBarStyle(
            color: RGBAColor(red: 0, green: 0, blue: 0), haloColor: RGBAColor(red: 255, green: 255, blue: 255), dotPixels: 1, marginPixels: 6)
        #expect(ScaleBarPainter.paint(&canvas, groundMetersPerPixel: 10, style: style) == "500 m")
        // The bar: 50 px long on the row 7 px above the bottom edge.
        #expect(
            canvas.color(x: 6, y: 93) == RGBAColor(red: 0, green: 0, blue: 0) && canvas.color(x: 55, y: 93) == RGBAColor(red: 0, green: 0, blue: 0))
        #expect(canvas.color(x: 57, y: 93) == RGBAColor(red: 255, green: 255, blue: 255))
        // Nothing above the label or right of the bar.
        #expect((0..<200).allSatisfy { canvas.color(x: $0, y: 10) == RGBAColor(red: 255, green: 255, blue: 255) })
    }

    @Test func overlappingBandsAreBlendedOnceNotTwice() {
        let paper = RGBAColor(red: 200, green: 200, blue: 200)
        var canvas = Canvas(width: 4, height: 1, fill: paper)
        var layer = LayerCompositor.emptyLayer(like: canvas)
        var first = CoverageMask(width: 4, height: 1), second = CoverageMask(width: 4, height: 1)
        first.values = [255, 255, 0, 0]
        first.touch(minX: 0, minY: 0, maxX: 1, maxY: 0)
        second.values = [0, 255, 255, 0]
        second.touch(minX: 1, minY: 0, maxX: 2, maxY: 0)
        LayerCompositor.paint(&layer, mask: first, color: RGBAColor(red: 0, green: 0, blue: 255))
        LayerCompositor.paint(&layer, mask: second, color: RGBAColor(red: 255, green: 0, blue: 0))
        LayerCompositor.blend(&canvas, layer: layer, opacity: 128, minX: 0, minY: 0, maxX: 3, maxY: 0)
        // Where both bands cover, the later one wins and the route's opacity applies once: the
        // pixel equals the single red band's, not red over blue over paper.
        #expect(canvas.color(x: 1, y: 0) == canvas.color(x: 2, y: 0))
        #expect(canvas.color(x: 2, y: 0) == RGBAColor(red: 228, green: 100, blue: 100))
        #expect(canvas.color(x: 3, y: 0) == paper)
    }
}
