import MapGeometry
import PNGEncoding
import Raster

/// A heat map over a basemap (`OverviewBasemap`): the map, faded, then the counts in the ramp's
/// colours, opaque as over the grid, then the map's attribution.
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

    /// Paints `grid` over the map already in `canvas` (the grid's size): every map pixel faded
    /// (`mapColorPercent`, `mapFadePercent`), then every pixel some track passed in its ramp
    /// colour.
    package static func paintHeat(_ grid: DensityGrid, ramp: DensityRamp = DensityRamp(), over canvas: inout Canvas) {
        precondition(grid.width == canvas.width && grid.height == canvas.height, "the grid is the picture's size")
        let maximum = grid.maximumCount
        let colors = ramp.palette()
        let colorOfCount = (0...Int(maximum)).map { $0 == 0 ? colors[0] : colors[ramp.level(count: UInt32($0), maximum: maximum)] }
        let keep = mapColorPercent, fade = 100 - mapFadePercent
        // Pixels as little-endian words (R, G, B, A in memory order).
        let heatWords = colorOfCount.map { UInt32($0.red) | UInt32($0.green) << 8 | UInt32($0.blue) << 16 | 0xFF00_0000 }
        @inline(__always) func faded(_ word: UInt32) -> UInt32 {
            let red = word & 0xFF, green = (word >> 8) & 0xFF, blue = (word >> 16) & 0xFF
            let luma = (54 * red + 183 * green + 19 * blue) >> 8
            @inline(__always) func channel(_ value: UInt32) -> UInt32 { 255 - (255 - (value * keep + luma * (100 - keep)) / 100) * fade / 100 }
            return channel(red) | channel(green) << 8 | channel(blue) << 16 | (word & 0xFF00_0000)
        }
        let pixelCount = grid.width * grid.height
        canvas.pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            grid.counts.withUnsafeBufferPointer { counts in
                // A map is runs of one colour: the pixel before's fade is reused (the fade's
                // three divisions a pixel were most of a 1920×2560 picture's 38 ms).
                var lastMap = UInt32(littleEndian: words[0]), lastFaded = faded(lastMap)
                for pixel in 0..<pixelCount {
                    let count = Int(counts[pixel])
                    if count != 0 {
                        words[pixel] = heatWords[count].littleEndian
                        continue
                    }
                    let word = UInt32(littleEndian: words[pixel])
                    if word != lastMap {
                        lastMap = word
                        lastFaded = faded(word)
                    }
                    words[pixel] = lastFaded.littleEndian
                }
            }
        }
    }

    /// The picture of `grid` over `basemap`'s map of `viewport` as PNG bytes (a palette PNG
    /// when it has at most 256 colours or reduces to them, as a raster-map snapshot is; RGBA
    /// only for a picture that is not opaque), and the map's problems
    /// (`OverviewMapPicture.problems`). Reduced by the quantizer (a faded raster map has more
    /// than 256 colours), a rare ramp colour can come out as its nearest palette colour: within
    /// the quantizer's stated error, but then not exactly the ramp's.
    package static func png(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, labelScale: Double, ramp: DensityRamp = DensityRamp(),
        basemap: any OverviewBasemap
    ) throws(PNGError) -> (png: [UInt8], problems: [String]) {
        precondition(grid.width == viewport.widthPixels && grid.height == viewport.heightPixels, "the grid is the picture's size")
        let picture = basemap.draw(viewport: viewport, latitudeDegrees: latitudeDegrees, labelScale: labelScale) { canvas in
            paintHeat(grid, ramp: ramp, over: &canvas)
        }
        var encoder = PalettePNGEncoder()
        if let reduced = try encoder.encodeReducingColors(picture.canvas) { return (reduced, picture.problems) }
        return (try PNGEncoder.encode(picture.canvas, settings: PNGSettings()), picture.problems)
    }
}
