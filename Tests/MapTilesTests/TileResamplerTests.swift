#if canImport(Glibc)
import Glibc
#endif
import MapGeometry
import Raster
import Testing

@testable import MapTiles

/// `TileResampler`'s shortcuts against what they stand for: columns copied from the source row
/// above where a tile's rows repeat (`RowFilter`) and from the image row above (`RepeatedColumns`), and tiles that cover every pixel drawn over a
/// canvas that was never painted (`FetchedTiles.coversEveryPixel`).
struct TileResamplerTests {
    /// Palette tiles made in memory: 16 grey levels in a pattern of cells 3 pixels wide and 5
    /// high (four rows in five equal the row above), offset by the tile's column so that
    /// neighbours differ; `missing` tiles are absent.
    /// With `mixed`, the cells are 5 rows high in the tile's left 96 columns, 2 in the middle
    /// and 7 from column 200: a row then repeats the row above in some eighths of the tile and
    /// not in others.
    final class StripeTiles: TileProvider {
        let sourceDescription = TileSourceDescription()
        var missing: Set<TileCoordinate> = []
        let mixed: Bool, rgba: Bool
        static let palette = (0..<256).map { entry in UInt32(entry % 16 * 17) * 0x0001_0101 | 0xFF00_0000 }

        /// `rgba`: the same pixels as an RGBA tile instead of a palette tile.
        init(mixed: Bool = false, rgba: Bool = false) {
            self.mixed = mixed
            self.rgba = rgba
        }

        func tile(_ coordinate: TileCoordinate) -> TileLookup {
            if missing.contains(coordinate) { return .absent }
            let indices = (0..<(256 * 256)).map { UInt8(Self.level(x: $0 % 256, y: $0 / 256, tileColumn: coordinate.x, mixed: mixed)) }
            guard rgba else { return .image(TileImage(width: 256, height: 256, indices: indices, palette: Self.palette)) }
            let pixels = indices.flatMap { index in withUnsafeBytes(of: Self.palette[Int(index)].littleEndian) { Array($0) } }
            return .image(TileImage(width: 256, height: 256, premultipliedPixels: pixels))
        }

        /// The palette index of pixel (`x`, `y`) of a tile in tile column `tileColumn`.
        static func level(x: Int, y: Int, tileColumn: Int, mixed: Bool = false) -> Int {
            let cellHeight = mixed ? (x < 96 ? 5 : x < 200 ? 2 : 7) : 5
            return (x / 3 + y / cellHeight + tileColumn * 5) % 16
        }
    }

    /// A view `width` pixels wide at continuous zoom `zoom` whose west edge is `west` metres.
    private func view(zoom: Double, width: Int, height: Int, west: Double) -> Viewport {
        let metersPerPixel = 2 * WebMercator.halfWorldMeters / (256 * pow(2, zoom))
        let rect = MapRect(minX: west, minY: 1000 - Double(height) * metersPerPixel, maxX: west + Double(width) * metersPerPixel, maxY: 1000)
        return Viewport(mapRect: rect, widthPixels: width, heightPixels: height)
    }

    /// Where a tile's row repeats the row above, its columns are copied, not filtered, and image
    /// columns whose tap rows all repeat copy the image row above (`RepeatedColumns`): every pixel
    /// must still be the analytic weighted sum of the source pixels (within rounding), shrinking
    /// and enlarging, inside tiles and across their edges, on rows that repeat, rows that do not,
    /// and rows that repeat in some eighths of a tile only (palette and RGBA tiles).
    @Test(arguments: [11.6, 12.2, 12.45], [(false, false), (true, false), (true, true)])
    func copiedRowsEqualTheFilteredSum(zoom: Double, tiling: (mixed: Bool, rgba: Bool)) throws {
        let viewport = view(zoom: zoom, width: 700, height: 300, west: 1234.5)
        let tiles = StripeTiles(mixed: tiling.mixed, rgba: tiling.rgba)
        let mixed = tiling.mixed
        var canvas = Canvas(width: 700, height: 300, fill: RGBAColor(red: 200, green: 0, blue: 0, alpha: 255))
        let report = TileResampler.draw(into: &canvas, viewport: viewport, provider: tiles, settings: BasemapSettings(source: "stripes"))
        #expect(report.tiles > 2)
        let plan = try TilePlan.make(viewport: viewport, description: tiles.sourceDescription, maximumOverzoomLevels: 2).get()
        var worst = 0.0
        for y in 0..<300 {
            let rowTaps = plan.taps(forPixel: y, origin: plan.originY)
            for x in 0..<700 {
                var expected = 0.0
                for tap in plan.taps(forPixel: x, origin: plan.originX) {
                    let column = floorModulo(tap.source, plan.worldPixels)
                    for rowTap in rowTaps {
                        let level = StripeTiles.level(x: column % 256, y: rowTap.source % 256, tileColumn: column / 256, mixed: mixed)
                        expected += tap.weight * rowTap.weight * Double(level * 17)
                    }
                }
                let pixel = canvas.color(x: x, y: y)
                #expect(pixel.red == pixel.green && pixel.green == pixel.blue && pixel.alpha == 255)
                worst = max(worst, abs(Double(pixel.red) - expected))
            }
        }
        #expect(worst <= 0.5 + 1e-3, "largest difference from the weighted sum: \(worst)")
    }

    /// Tiles that are all there and opaque, at full opacity, cover every pixel: drawn over any
    /// canvas they give the same image. A missing tile or a translucent basemap does not cover.
    @Test func coveringTilesHideWhateverTheCanvasHeld() {
        let viewport = view(zoom: 12.2, width: 500, height: 200, west: 1234.5)
        let tiles = StripeTiles()
        let settings = BasemapSettings(source: "stripes")
        let fetched = TileResampler.fetch(viewport: viewport, provider: tiles, settings: settings)
        #expect(fetched.coversEveryPixel)
        var paper = Canvas(width: 500, height: 200, fill: RGBAColor(red: 240, green: 236, blue: 228, alpha: 255))
        var garbage = Canvas(width: 500, height: 200, fill: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        for index in garbage.pixels.indices { garbage.pixels[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        TileResampler.draw(fetched, into: &paper)
        TileResampler.draw(fetched, into: &garbage)
        #expect(paper.pixels == garbage.pixels)

        var translucent = settings
        translucent.opacity = 0.5
        #expect(!TileResampler.fetch(viewport: viewport, provider: tiles, settings: translucent).coversEveryPixel)
        let plan = try? TilePlan.make(viewport: viewport, description: tiles.sourceDescription, maximumOverzoomLevels: 2).get()
        tiles.missing = [TileCoordinate(z: plan?.zoom ?? 0, x: Int((plan?.originX ?? 0) / 256), y: Int((plan?.originY ?? 0) / 256))]
        #expect(!TileResampler.fetch(viewport: viewport, provider: tiles, settings: settings).coversEveryPixel)
    }
}
