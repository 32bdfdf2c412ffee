import Testing

@testable import Raster

/// `CanvasPalette`'s merging: a uniform tolerance whatever the count, and the nearest colour for
/// a full palette when asked (the overview's attribution over the palette it filled itself).
@Suite struct CanvasPaletteTests {
    /// 256 greys, 0 to 255: a full palette.
    private static func fullOfGreys() -> CanvasPalette {
        var palette = CanvasPalette()
        palette.merging = .uniform(levels: 0)
        for level in 0...255 { _ = palette.index(of: RGBAColor(red: UInt8(level), green: UInt8(level), blue: UInt8(level))) }
        return palette
    }

    @Test func aUniformToleranceOfZeroKeepsColoursOneLevelApart() {
        let palette = Self.fullOfGreys()
        #expect(palette.count == 256)
        #expect(palette[255] == RGBAColor(red: 255, green: 255, blue: 255))
    }

    @Test func aUniformToleranceMergesWithinItAtAnyCount() {
        var palette = CanvasPalette()
        palette.merging = .uniform(levels: 3)
        #expect(palette.index(of: RGBAColor(red: 100, green: 100, blue: 100)) == 0)
        #expect(palette.index(of: RGBAColor(red: 103, green: 97, blue: 100)) == 0)
        #expect(palette.index(of: RGBAColor(red: 104, green: 100, blue: 100)) == 1)
    }

    @Test func aFullPaletteGivesTheNearestColourOnlyWhenAskedTo() {
        var palette = Self.fullOfGreys()
        let tinted = RGBAColor(red: 200, green: 90, blue: 90)
        #expect(palette.index(of: tinted) == nil)
        palette.takesNearestWhenFull = true
        // Largest channel difference to grey g: max(|200 − g|, |90 − g|), least at g = 145.
        #expect(palette.index(of: tinted) == 145)
        #expect(palette.count == 256)
    }
}
