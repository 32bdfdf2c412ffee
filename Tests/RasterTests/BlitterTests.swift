import MapGeometry
import Testing

@testable import Raster

/// A palette canvas of `width`×`height`, ready to draw into.
private func paletteCanvas(width: Int, height: Int) -> IndexedCanvas {
    var canvas = IndexedCanvas()
    canvas.reset(width: width, height: height)
    return canvas
}

/// Both `Blitter`s draw the same coverage: the seam between coverage and pixels.
@Suite struct BlitterTests {
    @Test func bothTargetsPaintTheSameGrid() {
        let viewport = Viewport(mapRect: MapRect(minX: 0, minY: 0, maxX: 2_560, maxY: 1_920), widthPixels: 256, heightPixels: 192)
        var rgba = Canvas(width: 256, height: 192, fill: RGBAColor(red: 0, green: 0, blue: 0))
        var palette = paletteCanvas(width: 256, height: 192)
        GridPainter.paint(&rgba, viewport: viewport, latitudeDegrees: 0, style: GridStyle(), scale: 1)
        GridPainter.paint(&palette, viewport: viewport, latitudeDegrees: 0, style: GridStyle(), scale: 1)
        #expect(!palette.ranOutOfColors)
        #expect(palette.palette.count == 3, "paper, minor line, major line (a crossing takes the major line's shade)")
        #expect(palette.expanded().pixels == rgba.pixels)
    }

    @Test func aRampStrokeOnRGBAIsTheCasingThenTheRouteAtEachLevelsCoverage() {
        let ramp = StrokeRamp(routeRadiusPixels: 3, casingRadiusPixels: 5)!
        let paper = RGBAColor(red: 242, green: 239, blue: 233)
        let route = RGBAColor(red: 10, green: 108, blue: 255, alpha: 217), casing = RGBAColor(red: 8, green: 48, blue: 107, alpha: 178)
        var levels = CoverageMask(width: 40, height: 20)
        StrokeRasterizer.stroke([[PixelPoint(x: 5, y: 10), PixelPoint(x: 35, y: 12)]], ramp: ramp, into: &levels)
        var rgba = Canvas(width: 40, height: 20, fill: paper)
        var expected = rgba
        for offset in levels.values.indices where levels.values[offset] != 0 {
            let coverages = ramp.coverages(level: Int(levels.values[offset]))
            for (coverage, color) in [(coverages.casing, casing), (coverages.route, route)] where coverage > 0 {
                var pixel = CoverageMask(width: 1, height: 1, originX: offset % 40, originY: offset / 40)
                pixel.values[0] = UInt8((coverage * 255).rounded())
                pixel.touch(minX: 0, minY: 0, maxX: 0, maxY: 0)
                expected.blend(pixel, color: color)
            }
        }
        rgba.blendStroke(levels: &levels, ramp: ramp, routeColor: route, casingColor: casing)
        #expect(rgba.pixels == expected.pixels)
        #expect(levels.isEmpty && levels.values.allSatisfy { $0 == 0 }, "the levels are cleared as they are read")
    }

    @Test func aRampStrokeBlendsIntoThePaletteAlikeWithOrWithoutABlockMap() {
        // The palette grows in the order pixels are blended: a mask that keeps blocks must give
        // the same indices, not only the same colours.
        let ramp = StrokeRamp(routeRadiusPixels: 9.07, casingRadiusPixels: 11.07)!
        let route = jitteryRoute(count: 200, start: PixelPoint(x: 60.3, y: 90.7), stepPixels: 2.5, maxTurnDegrees: 60, seed: 11)
        let viewport = Viewport(mapRect: MapRect(minX: 0, minY: 0, maxX: 3_000, maxY: 2_000), widthPixels: 300, heightPixels: 200)
        var canvases: [IndexedCanvas] = []
        for tracksBlocks in [false, true] {
            var canvas = paletteCanvas(width: 300, height: 200)
            GridPainter.paint(&canvas, viewport: viewport, latitudeDegrees: 0, style: GridStyle(), scale: 1)
            var levels = CoverageMask(width: 300, height: 200)
            if tracksBlocks { levels.trackBlocks() }
            StrokeRasterizer.stroke([route], ramp: ramp, into: &levels)
            canvas.blendStroke(
                levels: &levels, ramp: ramp, routeColor: RGBAColor(red: 10, green: 108, blue: 255, alpha: 217),
                casingColor: RGBAColor(red: 8, green: 48, blue: 107, alpha: 178))
            #expect(levels.isEmpty && levels.values.allSatisfy { $0 == 0 })
            canvases.append(canvas)
        }
        #expect(canvases[0].palette.count > 40)
        #expect(canvases[0].indices == canvases[1].indices)
        #expect(canvases[0].expanded().pixels == canvases[1].expanded().pixels)
    }

    @Test func scatteredLevelsBlendIntoThePaletteRowByRowLeftToRight() {
        // Levels alone and in runs, gaps of every length (and of 32 and more), rows whose width is
        // no multiple of 8: the blend reads a word at a time, so its order and its tails are
        // checked against one pixel at a time, row by row, left to right.
        let ramp = StrokeRamp(routeRadiusPixels: 4, casingRadiusPixels: 6)!
        let width = 77, height = 6
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        expectBlendsPixelByPixel(width: width, height: height, ramp: ramp, underIsLine: { $0 % 5 == 0 }) { offset in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let draw = Int(state >> 33)
            // Row 2 stays empty but for its last pixel; elsewhere about a third of the pixels.
            let row = offset / width, column = offset % width
            let drawn = row == 2 ? column == width - 1 : (column < 40 || column > 70) && draw % 3 == 0
            return drawn ? UInt8(1 + draw % ramp.maximumLevel) : 0
        }
    }

    @Test func runsOfOneLevelBlendIntoThePaletteAsPixelByPixel() {
        // The inside of a route: runs of one level, aligned with the blend's words or not, over
        // paper alone (one pair a word) and over paper crossed by lines (pixel by pixel), and
        // levels first met inside such a run.
        let ramp = StrokeRamp(routeRadiusPixels: 4, casingRadiusPixels: 6)!
        let width = 83, height = 5
        expectBlendsPixelByPixel(width: width, height: height, ramp: ramp, underIsLine: { $0 / width == 3 && $0 % 7 == 0 }) { offset in
            let row = offset / width, column = offset % width
            switch row {
            case 0: return column < 64 ? UInt8(ramp.maximumLevel) : 0
            case 1: return (3..<45).contains(column) ? UInt8(1 + column / 10) : 0
            case 2: return column >= 8 ? UInt8(ramp.maximumLevel - (column / 16) % 3) : 0
            default: return column % 20 < 17 ? UInt8(ramp.maximumLevel) : 5
            }
        }
    }

    /// Fills a mask with `level(offset)` (in offset order) and a palette canvas with paper or, where
    /// `underIsLine`, a grid line's colour; expects `blendStroke` to give the canvas and palette of
    /// blending one pixel at a time, row by row, left to right, and to leave the mask empty.
    private func expectBlendsPixelByPixel(
        width: Int, height: Int, ramp: StrokeRamp, underIsLine: (Int) -> Bool, level: (Int) -> UInt8
    ) {
        let route = RGBAColor(red: 10, green: 108, blue: 255, alpha: 217), casing = RGBAColor(red: 8, green: 48, blue: 107, alpha: 178)
        var levels = CoverageMask(width: width, height: height)
        for offset in levels.values.indices { levels.values[offset] = level(offset) }
        levels.touch(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1)
        var canvas = paletteCanvas(width: width, height: height)
        let paper = canvas.index(of: RGBAColor(red: 242, green: 239, blue: 233))!
        let line = canvas.index(of: RGBAColor(red: 200, green: 190, blue: 170))!
        for offset in canvas.indices.indices.prefix(width * height) { canvas.indices[offset] = underIsLine(offset) ? line : paper }
        var expected = canvas
        var blended: [Int: UInt8] = [:]
        for offset in 0..<(width * height) where levels.values[offset] != 0 {
            let level = Int(levels.values[offset]), key = Int(expected.indices[offset]) * 256 + level
            if let index = blended[key] {
                expected.indices[offset] = index
                continue
            }
            let (casingCoverage, routeCoverage) = ramp.coverages(level: level)
            var color = expected.palette[Int(expected.indices[offset])]
            color = IndexedCanvas.blend(color, casing, casingCoverage)
            color = IndexedCanvas.blend(color, route, routeCoverage)
            let index = expected.index(of: color)!
            blended[key] = index
            expected.indices[offset] = index
        }
        canvas.blendStroke(levels: &levels, ramp: ramp, routeColor: route, casingColor: casing)
        #expect(!canvas.ranOutOfColors)
        #expect(canvas.palette.colors == expected.palette.colors)
        #expect(canvas.indices == expected.indices)
        #expect(levels.isEmpty && levels.values.allSatisfy { $0 == 0 })
    }

    @Test func aFullPaletteSaysItRanOutOfColorsUntilReset() {
        var canvas = paletteCanvas(width: 4, height: 1)
        for index in 0..<256 {
            // Colours far apart, so none merges with another.
            _ = canvas.index(of: RGBAColor(red: UInt8(index), green: UInt8(255 - index), blue: UInt8((index * 37) % 256)))
        }
        var mask = CoverageMask(width: 4, height: 1)
        mask.values = [0, 255, 0, 0]
        mask.touch(minX: 1, minY: 0, maxX: 1, maxY: 0)
        canvas.blend(mask, color: RGBAColor(red: 1, green: 2, blue: 250))
        #expect(canvas.ranOutOfColors)
        canvas.reset(width: 4, height: 1)
        #expect(!canvas.ranOutOfColors && canvas.palette.count == 0)
    }

    @Test func aPaletteTakesNoLayerWhoseColourVariesPerPixel() {
        var canvas = paletteCanvas(width: 4, height: 1)
        var ran = false
        canvas.drawRGBA { _ in ran = true }
        #expect(!ran && canvas.ranOutOfColors)
        var rgba = Canvas(width: 4, height: 1, fill: RGBAColor(red: 0, green: 0, blue: 0))
        rgba.drawRGBA { $0.pixels[0] = 7 }
        #expect(rgba.pixels[0] == 7 && !rgba.ranOutOfColors)
    }
}
