import MapGeometry
import PNGEncoding
import Raster

/// Draws a `DensityGrid` as a heat map: the map paper and grid of the picture's viewport
/// (`GridPainter`, as under a snapshot), then every pixel some track passed in its ramp colour
/// (opaque, so a pixel's colour says its count and nothing else). The same grid always gives the
/// same bytes.
package enum DensityPainter {
    /// The picture of `grid` (whose size is the viewport's): `latitudeDegrees` (the view's centre)
    /// and `scale` (device pixels per point) size the grid lines as in a snapshot.
    package static func canvas(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, scale: Double, gridStyle: GridStyle = GridStyle(),
        ramp: DensityRamp = DensityRamp()
    ) -> Canvas {
        precondition(grid.width == viewport.widthPixels && grid.height == viewport.heightPixels, "the grid is the picture's size")
        var canvas = Canvas(width: grid.width, height: grid.height, fill: gridStyle.paper)
        GridPainter.paint(&canvas, viewport: viewport, latitudeDegrees: latitudeDegrees, style: gridStyle, scale: scale)
        let maximum = grid.maximumCount
        guard maximum > 0 else { return canvas }
        // One colour per distinct count (a picture has a few hundred), packed as the canvas's words.
        let palette = ramp.palette()
        var wordOfCount: [UInt32: UInt32] = [:]
        canvas.pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            grid.counts.withUnsafeBufferPointer { counts in
                for pixel in 0..<counts.count where counts[pixel] != 0 {
                    let count = counts[pixel]
                    if let word = wordOfCount[count] {
                        words[pixel] = word
                        continue
                    }
                    let color = palette[ramp.level(count: count, maximum: maximum)]
                    let word = (UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | 0xFF00_0000).littleEndian
                    wordOfCount[count] = word
                    words[pixel] = word
                }
            }
        }
        return canvas
    }

    /// The picture as PNG bytes (a palette PNG when it has at most 256 colours, as a default
    /// ramp over the grid does).
    package static func png(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, scale: Double, gridStyle: GridStyle = GridStyle(),
        ramp: DensityRamp = DensityRamp()
    ) throws(PNGError) -> [UInt8] {
        try PNGEncoder.encode(canvas(grid, viewport: viewport, latitudeDegrees: latitudeDegrees, scale: scale, gridStyle: gridStyle, ramp: ramp))
    }
}
