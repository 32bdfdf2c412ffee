import MapGeometry
import PNGEncoding
import Raster

/// Draws a `DensityGrid` as a heat map: the map paper and grid of the picture's viewport
/// (`GridPainter`, as under a snapshot), then every pixel some track passed in its ramp colour
/// (opaque, so a pixel's colour says its count and nothing else). The same grid always gives the
/// same bytes.
///
/// Drawn straight into a palette image (the grid's four shades, then every level of the ramp in
/// order, whether used or not, so every picture has the same palette) and encoded by
/// `PalettePNGEncoder`: a 4230×3172 picture is one byte a pixel and TrackSnap's own DEFLATE, where
/// an RGBA canvas through libpng took several times longer.
package enum DensityPainter {
    /// The picture of `grid` (whose size is the viewport's) in `canvas`: `latitudeDegrees` (the
    /// view's centre) and `scale` (device pixels per point) size the grid lines as in a snapshot.
    package static func paint(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, scale: Double, gridStyle: GridStyle = GridStyle(),
        ramp: DensityRamp = DensityRamp(), into canvas: inout IndexedCanvas
    ) {
        precondition(grid.width == viewport.widthPixels && grid.height == viewport.heightPixels, "the grid is the picture's size")
        canvas.reset(width: grid.width, height: grid.height)
        GridPainter.paint(&canvas, viewport: viewport, latitudeDegrees: latitudeDegrees, style: gridStyle, scale: scale)
        let colors = ramp.palette()
        // A level whose colour merged into another's entry would still be drawn, only a shade off;
        // the default ramp's levels are far enough apart that none does (DensityPainterTests).
        let indexOfLevel = [UInt8(0)] + (1...ramp.levels).map { canvas.index(of: colors[$0]) ?? 0 }
        let maximum = grid.maximumCount
        guard maximum > 0 else { return }
        // The palette index of every count up to the largest (at most the region's track count).
        let indexOfCount = (0...Int(maximum)).map { $0 == 0 ? UInt8(0) : indexOfLevel[ramp.level(count: UInt32($0), maximum: maximum)] }
        let pixelCount = grid.width * grid.height
        canvas.indices.withUnsafeMutableBufferPointer { indices in
            grid.counts.withUnsafeBufferPointer { counts in
                indexOfCount.withUnsafeBufferPointer { table in
                    for pixel in 0..<pixelCount where counts[pixel] != 0 { indices[pixel] = table[Int(counts[pixel])] }
                }
            }
        }
    }

    /// The picture as PNG bytes (an 8-bit palette PNG).
    package static func png(
        _ grid: DensityGrid, viewport: Viewport, latitudeDegrees: Double, scale: Double, gridStyle: GridStyle = GridStyle(),
        ramp: DensityRamp = DensityRamp()
    ) throws(PNGError) -> [UInt8] {
        var canvas = IndexedCanvas()
        paint(grid, viewport: viewport, latitudeDegrees: latitudeDegrees, scale: scale, gridStyle: gridStyle, ramp: ramp, into: &canvas)
        var encoder = PalettePNGEncoder()
        return try encoder.encode(canvas)
    }
}
