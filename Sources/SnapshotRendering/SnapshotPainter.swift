import MapGeometry
import Raster

/// Draws the layers of a snapshot in order: paper and grid, casing, route, markers.
enum SnapshotPainter {
    static func paint(polylines: [[PixelPoint]], frame: FramePlan, options: RenderOptions) -> Canvas {
        let style = options.style
        let width = frame.viewport.widthPixels, height = frame.viewport.heightPixels
        var canvas = Canvas(width: width, height: height, fill: style.grid.paper)
        GridPainter.paint(&canvas, viewport: frame.viewport, latitudeDegrees: frame.latitudeDegrees, style: style.grid, scale: options.scale)

        var route = CoverageMask(width: width, height: height)
        if style.drawsCasing {
            var casing = CoverageMask(width: width, height: height)
            StrokeRasterizer.stroke(
                polylines, radiusPixels: frame.strokeWidthPixels / 2, into: &route,
                casingRadiusPixels: frame.casingWidthPixels / 2, casing: &casing)
            Compositor.fill(&canvas, mask: casing, color: style.casingColor)
        } else {
            StrokeRasterizer.stroke(polylines, radiusPixels: frame.strokeWidthPixels / 2, into: &route)
        }
        Compositor.fill(&canvas, mask: route, color: style.routeColor)

        if style.drawsMarkers, let first = polylines.first?.first, let last = polylines.last?.last {
            let ringWidth = max(1, 1.5 * options.scale)
            // End first, so on a loop the start marker stays visible on top.
            for (point, color) in [(last, style.endMarkerColor), (first, style.startMarkerColor)] {
                marker(&canvas, at: point, radius: frame.markerRadiusPixels, ringWidth: ringWidth, fill: color, ring: style.markerRingColor)
            }
        }
        return canvas
    }

    private static func marker(_ canvas: inout Canvas, at point: PixelPoint, radius: Double, ringWidth: Double, fill: RGBAColor, ring: RGBAColor) {
        for (discRadius, color) in [(radius, ring), (max(0.5, radius - ringWidth), fill)] {
            // A mask just around the disc: a canvas-sized one would be mostly zeroing.
            let reach = discRadius + 1
            let minX = max(0, Int((point.x - reach).rounded(.down))), maxX = min(canvas.width - 1, Int((point.x + reach).rounded(.up)))
            let minY = max(0, Int((point.y - reach).rounded(.down))), maxY = min(canvas.height - 1, Int((point.y + reach).rounded(.up)))
            guard minX <= maxX, minY <= maxY else { return }
            var mask = CoverageMask(width: maxX - minX + 1, height: maxY - minY + 1, originX: minX, originY: minY)
            StrokeRasterizer.stroke([[point]], radiusPixels: discRadius, into: &mask)
            Compositor.fill(&canvas, mask: mask, color: color)
        }
    }
}
