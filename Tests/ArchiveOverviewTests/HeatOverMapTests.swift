import MapGeometry
import Raster
import Testing

@testable import ArchiveOverview

/// The heat map over a palette map (`DensityPainter.paintHeat(_:over:)`): map pixels in their
/// faded colours (exact, or within the merge tolerance it returns when the faded colours need
/// merging to fit), pixels tracks passed in the ramp's exact colours, and room left for the
/// attribution.
@Suite struct HeatOverMapTests {
    /// A 64×64 map whose pixel i has palette entry i % `colors.count`, and a grid of two tracks
    /// crossing (one of them twice) over it.
    private static func scene(_ colors: [RGBAColor]) -> (map: IndexedCanvas, grid: DensityGrid) {
        var map = IndexedCanvas()
        map.reset(width: 64, height: 64)
        map.palette.merging = .uniform(levels: 0)
        for color in colors { _ = map.index(of: color) }
        #expect(map.palette.count == colors.count, "the test's colours are distinct")
        for pixel in 0..<(64 * 64) { map.indices[pixel] = UInt8(pixel % colors.count) }
        var tracer = FootprintTracer(width: 64, height: 64)
        var grid = DensityGrid(width: 64, height: 64)
        let across = [[PixelPoint(x: 0.5, y: 20.5), PixelPoint(x: 63.5, y: 40.5)]]
        for track in [across, across, [[PixelPoint(x: 30.5, y: 0.5), PixelPoint(x: 33.5, y: 63.5)]]] { grid.add(tracer.trace(track)) }
        return (map, grid)
    }

    /// The fade as it was done pixel by pixel in RGBA before the palette path (the reference).
    private static func fadedReference(_ color: RGBAColor) -> RGBAColor {
        let red = UInt32(color.red), green = UInt32(color.green), blue = UInt32(color.blue)
        let luma = (54 * red + 183 * green + 19 * blue) >> 8
        func channel(_ value: UInt32) -> UInt8 { UInt8(255 - (255 - (value * 30 + luma * 70) / 100) * 55 / 100) }
        return RGBAColor(red: channel(red), green: channel(green), blue: channel(blue))
    }

    /// Checks every pixel of `picture` against the map and grid it was painted from: the ramp's
    /// exact colour where tracks passed, the faded map colour within `tolerance` elsewhere.
    private static func check(_ picture: IndexedCanvas, map: IndexedCanvas, grid: DensityGrid, tolerance: Int) {
        let ramp = DensityRamp(), levels = ramp.palette()
        var wrongHeat = 0, wrongMap = 0, largestError = 0
        for pixel in 0..<(64 * 64) {
            let color = picture.palette[Int(picture.indices[pixel])]
            let count = grid.counts[pixel]
            if count > 0 {
                if color != levels[ramp.level(count: count, maximum: grid.maximumCount)] { wrongHeat += 1 }
                continue
            }
            let expected = fadedReference(map.palette[Int(map.indices[pixel])])
            let error = max(
                abs(Int(color.red) - Int(expected.red)), abs(Int(color.green) - Int(expected.green)), abs(Int(color.blue) - Int(expected.blue)))
            largestError = max(largestError, error)
            if error > tolerance { wrongMap += 1 }
        }
        #expect(wrongHeat == 0 && wrongMap == 0, "\(wrongHeat) heat and \(wrongMap) map pixels wrong; largest map error \(largestError)")
        #expect(picture.palette.count <= 256 - DensityPainter.attributionEntries)
    }

    @Test func aMapThatFitsIsFadedExactlyAndTheCountsAreTheRampsColours() {
        // 120 colours along a hue circle, light and dark.
        let colors = (0..<120).map { (index: Int) -> RGBAColor in
            let red = UInt8(index * 2), green = UInt8(255 - index * 2), blue = UInt8((index * 37) % 256)
            return RGBAColor(red: red, green: green, blue: blue)
        }
        let (map, grid) = Self.scene(colors)
        var picture = map
        let tolerance = DensityPainter.paintHeat(grid, over: &picture)
        #expect(tolerance == 0)
        Self.check(picture, map: map, grid: grid, tolerance: 0)
        #expect(grid.maximumCount == 3 && grid.counts.contains(2), "the test's tracks cross and repeat")
    }

    @Test func aMapOfMoreFadedColoursThanFitIsMergedWithinTheToleranceItReturns() {
        // 216 colours 51 levels apart in every channel, and 40 greys: 256 colours that stay
        // distinct after the fade, more than a map may bring (192 with the default ramp).
        let steps: [UInt8] = [0, 51, 102, 153, 204, 255]
        var colors: [RGBAColor] = []
        for red in steps {
            for green in steps {
                for blue in steps { colors.append(RGBAColor(red: red, green: green, blue: blue)) }
            }
        }
        for grey in 0..<40 {
            let level = 20 + grey * 5
            colors.append(RGBAColor(red: UInt8(level), green: UInt8(level + 2), blue: UInt8(level - 2)))
        }
        #expect(Set(colors.map(Self.fadedReference)).count > DensityPainter.mapColors())
        let (map, grid) = Self.scene(colors)
        var picture = map
        let tolerance = DensityPainter.paintHeat(grid, over: &picture)
        #expect(tolerance > 0 && tolerance <= 10, "\(tolerance)")
        Self.check(picture, map: map, grid: grid, tolerance: tolerance)
    }

    @Test func theFadeIsTheRGBAPathsFormula() {
        for color in [
            RGBAColor(red: 0, green: 0, blue: 0), RGBAColor(red: 255, green: 255, blue: 255), RGBAColor(red: 0x3A, green: 0x86, blue: 0xD4),
        ] {
            #expect(DensityPainter.faded(color) == Self.fadedReference(color))
        }
        // The darkest map colour is lighter in every channel than each ramp colour in one of its own.
        #expect(DensityPainter.faded(RGBAColor(red: 0, green: 0, blue: 0)) == RGBAColor(red: 115, green: 115, blue: 115))
    }
}
