import MapGeometry
import Testing

@testable import Raster

/// `GridPainter.paint(…, thenBlendStroke:…)`, which a palette canvas does in one pass over the
/// rows (each row copied, then the route's runs in it blended), against the two passes it
/// replaces: `paint`, then `blendStroke`. Same indices, same palette order, mask left empty.
@Suite struct GridThenStrokeTests {
    static let ramp = StrokeRamp(routeRadiusPixels: 4.07, casingRadiusPixels: 6.07)!
    static let route = RGBAColor(red: 10, green: 108, blue: 255, alpha: 217)
    static let casing = RGBAColor(red: 8, green: 48, blue: 107, alpha: 178)
    static let viewport = Viewport(mapRect: MapRect(minX: 0, minY: 0, maxX: 1_210, maxY: 730), widthPixels: 121, heightPixels: 73)

    /// Routes that reach past every edge, turn hard, have segments shorter than a pixel, or are
    /// thinner than a pixel; and one drawn entirely outside the canvas.
    static let cases: [(name: String, polylines: [[PixelPoint]], ramp: StrokeRamp)] = [
        ("jittery", [jitteryRoute(count: 120, start: PixelPoint(x: 60.3, y: 36.7), stepPixels: 2.5, maxTurnDegrees: 60, seed: 7)], ramp),
        (
            "through every edge",
            [
                [
                    PixelPoint(x: -5, y: 2), PixelPoint(x: 126, y: 0.4), PixelPoint(x: 120.6, y: 80), PixelPoint(x: -3, y: 72.5),
                    PixelPoint(x: 0.2, y: -9),
                ]
            ],
            ramp
        ),
        (
            "sub-pixel segments",
            [(0..<60).map { PixelPoint(x: 30 + Double($0) * 0.31, y: 20 + Double($0 % 7) * 0.17) }, [PixelPoint(x: 100.5, y: 60.5)]],
            ramp
        ),
        (
            "thinner than a pixel",
            [[PixelPoint(x: 3.2, y: 70.9), PixelPoint(x: 118.7, y: 1.1)]], StrokeRamp(routeRadiusPixels: 0.3, casingRadiusPixels: 1.4)!
        ),
        ("outside", [[PixelPoint(x: -40, y: -40), PixelPoint(x: -20, y: -35)]], ramp),
    ]

    @Test(arguments: [false, true])
    func onePassGivesThePaletteCanvasOfTwo(tracksBlocks: Bool) {
        for (name, polylines, ramp) in Self.cases {
            let (twoPasses, onePass) = Self.draw(polylines, ramp: ramp, tracksBlocks: tracksBlocks) { () -> IndexedCanvas in
                // A canvas that held another image: every row is overwritten.
                var canvas = IndexedCanvas()
                canvas.reset(width: 121, height: 73)
                for offset in 0..<(121 * 73) { canvas.indices[offset] = 200 }
                return canvas
            }
            #expect(!onePass.ranOutOfColors, "\(name)")
            #expect(onePass.palette.colors == twoPasses.palette.colors, "\(name)")
            let differing = zip(onePass.indices, twoPasses.indices).filter { $0 != $1 }.count
            #expect(onePass.indices.count == twoPasses.indices.count && differing == 0, "\(name): \(differing) pixels differ")
            #expect(onePass.palette.count > (name == "outside" ? 2 : 10), "\(name): the stroke was drawn")
        }
    }

    @Test func rgbaTakesBothPassesAsBefore() {
        for (name, polylines, ramp) in Self.cases {
            let (twoPasses, onePass) = Self.draw(polylines, ramp: ramp, tracksBlocks: false) {
                Canvas(width: 121, height: 73, fill: RGBAColor(red: 1, green: 2, blue: 3))
            }
            #expect(onePass.pixels == twoPasses.pixels, "\(name): \(zip(onePass.pixels, twoPasses.pixels).filter { $0 != $1 }.count) differ")
        }
    }

    @Test func aPaletteFullWhileBlendingSaysSoAndLeavesTheMaskEmpty() {
        let polylines = Self.cases[0].polylines
        let (twoPasses, onePass) = Self.draw(polylines, ramp: Self.ramp, tracksBlocks: true) { () -> IndexedCanvas in
            var canvas = IndexedCanvas()
            canvas.reset(width: 121, height: 73)
            // Room for the grid's shades and a few blends, not for the whole stroke.
            for index in 0..<245 { _ = canvas.index(of: RGBAColor(red: UInt8(index), green: UInt8(255 - index), blue: UInt8((index * 37) % 256))) }
            return canvas
        }
        #expect(twoPasses.ranOutOfColors)
        #expect(onePass.ranOutOfColors)
    }

    /// The canvas after `paint` then `blendStroke`, and after the one-pass `paint`, each on a
    /// target from `make`; expects both masks left empty.
    private static func draw<Target: Blitter>(
        _ polylines: [[PixelPoint]], ramp: StrokeRamp, tracksBlocks: Bool, make: () -> Target
    ) -> (twoPasses: Target, onePass: Target) {
        var results: [Target] = []
        for onePass in [false, true] {
            var canvas = make()
            var levels = CoverageMask(width: 121, height: 73)
            if tracksBlocks { levels.trackBlocks() }
            StrokeRasterizer.stroke(polylines, ramp: ramp, into: &levels)
            if onePass {
                GridPainter.paint(
                    &canvas, viewport: viewport, latitudeDegrees: 0, style: GridStyle(), scale: 1, thenBlendStroke: &levels, ramp: ramp,
                    routeColor: route, casingColor: casing)
            } else {
                GridPainter.paint(&canvas, viewport: viewport, latitudeDegrees: 0, style: GridStyle(), scale: 1)
                canvas.blendStroke(levels: &levels, ramp: ramp, routeColor: route, casingColor: casing)
            }
            #expect(levels.isEmpty && levels.values.allSatisfy { $0 == 0 }, "the levels are cleared as they are read")
            results.append(canvas)
        }
        return (results[0], results[1])
    }
}
