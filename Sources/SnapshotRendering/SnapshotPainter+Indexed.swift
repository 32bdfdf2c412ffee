import MapGeometry
import Raster

extension SnapshotPainter {
    /// Draws the snapshot straight into `scratch.canvas` as palette indices: the grid, the route
    /// and casing as one ramp (`StrokeRamp`), then the markers' discs and the scale bar's masks
    /// (`IndexedCompositor.fill`). Returns false when this scene cannot be a palette image (colour
    /// bands, a casing less than a pixel wider than the route, or more than 256 colours even with
    /// coarse merging); draw it in RGBA then.
    static func paintIndexed(polylines: [[PixelPoint]], frame: FramePlan, options: RenderOptions, scratch: RenderScratch) -> Bool {
        // A second attempt with coarser colour merging before giving up on the palette.
        paintIndexed(polylines: polylines, frame: frame, options: options, scratch: scratch, coarse: false)
            || paintIndexed(polylines: polylines, frame: frame, options: options, scratch: scratch, coarse: true)
    }

    private static func paintIndexed(polylines: [[PixelPoint]], frame: FramePlan, options: RenderOptions, scratch: RenderScratch, coarse: Bool)
        -> Bool
    {
        let style = options.style
        let casingRadius = style.drawsCasing ? frame.casingWidthPixels / 2 : nil
        guard let ramp = StrokeRamp(routeRadiusPixels: frame.strokeWidthPixels / 2, casingRadiusPixels: casingRadius) else { return false }
        let width = frame.viewport.widthPixels, height = frame.viewport.heightPixels
        scratch.canvas.reset(width: width, height: height)
        scratch.canvas.palette.coarse = coarse
        guard
            IndexedGridPainter.paint(
                &scratch.canvas, viewport: frame.viewport, latitudeDegrees: frame.latitudeDegrees, style: style.grid, scale: options.scale) != nil
        else { return false }

        scratch.mask.reshape(width: width, height: height)
        StrokeRasterizer.stroke(polylines, ramp: ramp, into: &scratch.mask)
        guard
            IndexedCompositor.drawStroke(
                &scratch.canvas, mask: &scratch.mask, ramp: ramp, routeColor: style.routeColor, casingColor: style.casingColor)
        else { return false }

        if style.drawsMarkers, let first = polylines.first?.first, let last = polylines.last?.last {
            // End first, so on a loop the start marker stays visible on top.
            for (point, color) in [(last, style.endMarkerColor), (first, style.startMarkerColor)] {
                for (mask, discColor) in markerDiscs(at: point, frame: frame, options: options, fill: color, width: width, height: height) {
                    guard IndexedCompositor.fill(&scratch.canvas, mask: mask, color: discColor) else { return false }
                }
            }
        }
        if style.drawsScaleBar,
            let bar = ScaleBarPainter.masks(
                width: width, height: height, groundMetersPerPixel: groundMetersPerPixel(frame), style: scaleBarStyle(options))
        {
            // Solid rectangles (coverage 0 or 1): the palette blends are exact.
            guard IndexedCompositor.fill(&scratch.canvas, mask: bar.halo, color: style.scaleBarHaloColor),
                IndexedCompositor.fill(&scratch.canvas, mask: bar.ink, color: style.scaleBarColor)
            else { return false }
        }
        return true
    }
}
