import Foundation
import MapTiles
import PNGEncoding
import Raster
import Testing
@testable import SnapshotRendering

/// Vector maps drawn into a palette against the unquantized RGBA drawing of the same scene: the
/// bound docs/vector-maps.md states ("Image quality").
@Suite struct VectorPaletteQualityTests {
    /// Every golden scene (both schemas, light and dark, @1x and @2x), palette against RGBA:
    /// every channel within 16 levels and a mean under 1.5 levels (measured: largest 8–15, mean
    /// 0.43–1.26 over the eight scenes). A map's area colours share palette entries within a few
    /// levels from the start (`IndexedCanvas` colour merging), hence a mean near one level where
    /// a route alone on the grid has 0.02.
    @Test func vectorPaletteImagesStayWithinTheStatedBoundOfTheRGBAImage() throws {
        var worst = 0, meanSum = 0.0, images = 0, palettes = 0
        for (schema, dark, track, _, width, height, scale) in VectorGoldenImageTests.cases {
            let (path, tiles) = try VectorGoldenImageTests.tiles(schema)
            func render(trueColor: Bool) throws -> [UInt8] {
                var options = VectorGoldenImageTests.options(path: path, dark: dark, width: width, height: height, scale: scale)
                if trueColor { options.png.layout = .trueColor }
                return try SnapshotRenderer.render(trackBytes: Array(track.utf8), options: options, tiles: tiles).png
            }
            let palette = try render(trueColor: false)
            if palette[25] == 3 { palettes += 1 }
            let result = PaletteRenderingTests.difference(try PNGDecoder.decode(palette), try PNGDecoder.decode(try render(trueColor: true)))
            worst = max(worst, result.largest)
            meanSum += result.mean
            images += 1
        }
        #expect(palettes == images, "every vector scene is a palette image: \(palettes) of \(images)")
        #expect(worst <= 16, "largest channel difference \(worst)")
        #expect(meanSum / Double(images) < 1.5, "mean channel difference \(meanSum / Double(images))")
    }
}
