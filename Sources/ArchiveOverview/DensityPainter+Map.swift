import MapGeometry
import PNGEncoding
import Raster

/// A heat map over a basemap (`OverviewBasemap`): the map, faded, then the counts in the ramp's
/// colours, opaque as over the grid, then the map's attribution.
///
/// All in palette indices: the map comes as a palette image, its fade is computed once per
/// palette entry (not per pixel), and the picture's palette is the faded map's colours, then the
/// ramp's levels exactly, then room for the attribution. So no RGBA picture is made and no
/// quantizer runs: one pass over the pixels writes the picture. (Fading 5 million RGBA pixels
/// and reducing them again took two thirds of the time of a @2x picture over a vector map, and
/// its fresh 20 MB canvases most of the overview's page faults in a run.)
extension DensityPainter {
    /// How much of a map pixel's own colour is kept against its grey (the rest is its luma):
    /// 30%, so streets and water still tell apart but no map colour competes with the ramp's
    /// saturated blue-to-crimson. Chosen over a translucent ramp (which would mix each count's
    /// colour with whatever the map has there, so one colour no longer meant one count) and over
    /// the map at full strength (the ramp's blue sank into water and its crimson into roads).
    static let mapColorPercent: UInt32 = 30
    /// How far a map pixel is faded towards white after that: 45%, so the darkest map line is
    /// lighter than the ramp's lightest colour and a street passed once still shows on it.
    static let mapFadePercent: UInt32 = 45
    /// Palette entries left free after the map's and the ramp's for the attribution drawn over
    /// them: its ink and its halo blended over each colour below the label. 16: the halo is the
    /// paper at 80%, so the faded colours below it blend to a few shades; a colour that still
    /// finds no entry takes the nearest (`CanvasPalette.takesNearestWhenFull`).
    static let attributionEntries = 16
    /// The merge tolerances tried, in levels of 255 (largest channel difference), until the faded
    /// map's colours fit their share of the palette: the smallest that fits is the picture's
    /// largest colour error on the map. 0 for the built-in vector styles over Liechtenstein (the
    /// fade brings a map's edge blends together: equal colours share an entry), and for any map
    /// the backdrop reduced to `mapColors` itself; 10 for 256 colours 51 levels apart, all shown
    /// (`HeatOverMapTests`), where a vector map's own edge blends merge up to 16 already
    /// (`CanvasPalette.Merging.graded`).
    static let mergeTolerances = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64, 96, 128, 255]

    /// The most colours a map under `ramp`'s heat map may have: 256 less the ramp's levels and
    /// the attribution's entries (192 for the default ramp). A map of more colours (a raster
    /// map) is reduced to this many before the heat map is drawn (`OverviewBasemap.draw`).
    package static func mapColors(ramp: DensityRamp = DensityRamp()) -> Int { 256 - ramp.levels - attributionEntries }

    /// A map colour faded: `mapColorPercent` of its colour kept against its luma, then
    /// `mapFadePercent` of the way to white.
    static func faded(_ color: RGBAColor) -> RGBAColor {
        let keep = mapColorPercent, fade = 100 - mapFadePercent
        let red = UInt32(color.red), green = UInt32(color.green), blue = UInt32(color.blue)
        let luma = (54 * red + 183 * green + 19 * blue) >> 8
        func channel(_ value: UInt32) -> UInt8 { UInt8(255 - (255 - (value * keep + luma * (100 - keep)) / 100) * fade / 100) }
        return RGBAColor(red: channel(red), green: channel(green), blue: channel(blue))
    }

    /// Paints `grid` over the palette map in `canvas` (the grid's size): the map's palette
    /// replaced by its faded colours (merged as little as lets them fit `mapColors(ramp:)`
    /// entries, when they do not) and every pixel some track passed set to its ramp level, whose
    /// colour is exact.
    /// Leaves `attributionEntries` of the palette free. Returns the merge tolerance used: the
    /// largest difference, in levels of 255 in any channel, between a map pixel's faded colour
    /// and the colour it is drawn in (0: exact).
    @discardableResult
    package static func paintHeat(_ grid: DensityGrid, ramp: DensityRamp = DensityRamp(), over canvas: inout IndexedCanvas) -> Int {
        precondition(grid.width == canvas.width && grid.height == canvas.height, "the grid is the picture's size")
        let room = mapColors(ramp: ramp)
        let fadedColors = canvas.palette.colors.map(faded)
        // A map that fits keeps its indices (its entries recoloured, none merged): only the
        // pixels tracks passed are written.
        var remap: [UInt8]?, tolerance = 0
        if canvas.palette.count <= room {
            canvas.palette.recolor(fadedColors)
        } else {
            var palette: CanvasPalette, merged: [UInt8]
            (palette, merged, tolerance) = fadedPalette(fadedColors, used: nil, room: room)
            if palette.count > room {
                // Entries no map pixel shows any more (drawn over by a later layer, or under the
                // heat) take no room: one pass to find them, only for a map that needs merging.
                let used = usedEntries(canvas, under: grid)
                (palette, merged, tolerance) = fadedPalette(fadedColors, used: used, room: room)
            }
            canvas.palette = palette
            remap = merged + [UInt8](repeating: 0, count: 256 - merged.count)
        }
        // The ramp's levels after the map's, exact: a level never takes a map colour's entry.
        canvas.palette.merging = .uniform(levels: 0)
        let colors = ramp.palette()
        let indexOfLevel = [UInt8(0)] + (1...ramp.levels).map { canvas.palette.index(of: colors[$0]) ?? 0 }
        canvas.palette.merging = .fine
        let maximum = grid.maximumCount
        let indexOfCount = (0...Int(maximum)).map { $0 == 0 ? UInt8(0) : indexOfLevel[ramp.level(count: UInt32($0), maximum: maximum)] }
        let pixelCount = grid.width * grid.height
        canvas.indices.withUnsafeMutableBufferPointer { indices in
            grid.counts.withUnsafeBufferPointer { counts in
                indexOfCount.withUnsafeBufferPointer { heat in
                    if let remap {
                        remap.withUnsafeBufferPointer { remap in
                            for pixel in 0..<pixelCount {
                                let count = counts[pixel]
                                indices[pixel] = count == 0 ? remap[Int(indices[pixel])] : heat[Int(count)]
                            }
                        }
                    } else {
                        for pixel in 0..<pixelCount where counts[pixel] != 0 { indices[pixel] = heat[Int(counts[pixel])] }
                    }
                }
            }
        }
        return tolerance
    }

    /// The faded map's palette at the smallest merge tolerance (`mergeTolerances`) whose entries
    /// fit `room`, counting only the `used` colours (all when nil), and the entry of each colour.
    private static func fadedPalette(_ colors: [RGBAColor], used: [Bool]?, room: Int) -> (CanvasPalette, [UInt8], Int) {
        var palette = CanvasPalette(), remap: [UInt8] = []
        for tolerance in mergeTolerances {
            palette = CanvasPalette()
            palette.merging = .uniform(levels: tolerance)
            // At most 256 colours, so each finds an entry; too many is told by the count.
            remap = colors.indices.map { used?[$0] == false ? 0 : palette.index(of: colors[$0]) ?? 0 }
            if palette.count <= room { return (palette, remap, tolerance) }
        }
        return (palette, remap, mergeTolerances.last!)
    }

    /// Which palette entries some pixel no track passed shows.
    private static func usedEntries(_ canvas: IndexedCanvas, under grid: DensityGrid) -> [Bool] {
        var used = [Bool](repeating: false, count: 256)
        let pixelCount = grid.width * grid.height
        canvas.indices.withUnsafeBufferPointer { indices in
            grid.counts.withUnsafeBufferPointer { counts in
                for pixel in 0..<pixelCount where counts[pixel] == 0 { used[Int(indices[pixel])] = true }
            }
        }
        return used
    }

    /// The picture of `grid` over `basemap`'s map of `viewport` as palette PNG bytes, and the
    /// map's problems (`OverviewMapPicture.problems`).
    package static func png(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, labelScale: Double, ramp: DensityRamp = DensityRamp(),
        basemap: any OverviewBasemap
    ) throws(PNGError) -> (png: [UInt8], problems: [String]) {
        let picture = picture(grid, viewport: viewport, latitudeDegrees: latitudeDegrees, labelScale: labelScale, ramp: ramp, basemap: basemap)
        var encoder = PalettePNGEncoder()
        return (try encoder.encode(picture.canvas), picture.problems)
    }

    /// The picture of `grid` over `basemap`'s map of `viewport` as a palette canvas, and the
    /// map's problems (`OverviewMapPicture.problems`).
    package static func picture(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, labelScale: Double, ramp: DensityRamp = DensityRamp(),
        basemap: any OverviewBasemap
    ) -> OverviewMapPicture {
        precondition(grid.width == viewport.widthPixels && grid.height == viewport.heightPixels, "the grid is the picture's size")
        return basemap.draw(viewport: viewport, latitudeDegrees: latitudeDegrees, labelScale: labelScale, mapColors: mapColors(ramp: ramp)) {
            canvas in
            paintHeat(grid, ramp: ramp, over: &canvas)
        }
    }
}
