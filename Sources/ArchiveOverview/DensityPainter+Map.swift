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
        let pixelCount = grid.width * grid.height
        canvas.pixels.withUnsafeMutableBufferPointer { pixels in
            grid.counts.withUnsafeBufferPointer { counts in
                for pixel in 0..<pixelCount {
                    let base = pixel * 4
                    let count = Int(counts[pixel])
                    if count != 0 {
                        let color = colorOfCount[count]
                        pixels[base] = color.red
                        pixels[base + 1] = color.green
                        pixels[base + 2] = color.blue
                        pixels[base + 3] = 255
                        continue
                    }
                    let red = UInt32(pixels[base]), green = UInt32(pixels[base + 1]), blue = UInt32(pixels[base + 2])
                    let luma = (54 * red + 183 * green + 19 * blue) >> 8
                    @inline(__always) func faded(_ channel: UInt32) -> UInt8 {
                        UInt8(255 - (255 - (channel * keep + luma * (100 - keep)) / 100) * fade / 100)
                    }
                    pixels[base] = faded(red)
                    pixels[base + 1] = faded(green)
                    pixels[base + 2] = faded(blue)
                }
            }
        }
    }

    /// The picture of `grid` over `basemap`'s map of `viewport` as PNG bytes (a palette PNG
    /// when it has at most 256 colours or reduces to them, as a raster-map snapshot is; else
    /// RGB), and the map's problems (`OverviewMapPicture.problems`).
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
