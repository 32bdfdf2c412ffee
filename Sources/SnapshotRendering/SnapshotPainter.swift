import MapGeometry
import MapTiles
import Raster

/// Draws the layers of a snapshot in order: paper and grid, casing, route, markers, scale bar.
enum SnapshotPainter {
    /// `bands`, when given, holds the band of each polyline (colour by speed or elevation).
    /// `basemap`, when given, is drawn over the grid (which shows where tiles are missing) and
    /// under the route; what it came to goes into `report`.
    static func paint(
        polylines: [[PixelPoint]], bands: [Int]? = nil, frame: FramePlan, options: RenderOptions,
        basemap: (settings: BasemapSettings, tiles: any TileProvider)? = nil, report: inout BasemapReport?
    ) -> Canvas {
        let style = options.style
        let width = frame.viewport.widthPixels, height = frame.viewport.heightPixels
        var canvas = Canvas(width: width, height: height, fill: style.grid.paper)
        GridPainter.paint(&canvas, viewport: frame.viewport, latitudeDegrees: frame.latitudeDegrees, style: style.grid, scale: options.scale)
        var attribution: String?
        if let basemap {
            var drawn = TileResampler.draw(into: &canvas, viewport: frame.viewport, provider: basemap.tiles, settings: basemap.settings)
            if drawn.tiles > 0 { attribution = basemap.settings.attribution(over: basemap.tiles.sourceDescription) }
            drawn.attribution = attribution
            report = drawn
        }

        if let bands {
            paintBanded(&canvas, polylines: polylines, bands: bands, frame: frame, style: style)
        } else {
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
        }

        if style.drawsMarkers, let first = polylines.first?.first, let last = polylines.last?.last {
            // End first, so on a loop the start marker stays visible on top.
            for (point, color) in [(last, style.endMarkerColor), (first, style.startMarkerColor)] {
                marker(&canvas, at: point, frame: frame, options: options, fill: color)
            }
        }
        if style.drawsScaleBar {
            ScaleBarPainter.paint(&canvas, groundMetersPerPixel: groundMetersPerPixel(frame), style: scaleBarStyle(options))
        }
        if let attribution {
            // The scale bar's margin (6 pt) in the opposite corner: the two labels frame the map alike.
            let look = scaleBarStyle(options)
            if let label = TextLabelPainter.masks(
                text: attribution, width: width, height: height, dotPixels: look.dotPixels, marginPixels: look.marginPixels)
            {
                Compositor.fill(&canvas, mask: label.halo, color: style.scaleBarHaloColor)
                Compositor.fill(&canvas, mask: label.ink, color: style.scaleBarColor)
            } else {
                let earlier = report?.problems ?? []
                report?.problems = earlier + ["the attribution does not fit on a \(width)x\(height) image; show it beside the image"]
            }
        }
        return canvas
    }

    /// One union per band, painted opaque into a layer that is blended once with the route's
    /// opacity (see `LayerCompositor`); the casing is the union of the whole route.
    private static func paintBanded(_ canvas: inout Canvas, polylines: [[PixelPoint]], bands: [Int], frame: FramePlan, style: SnapshotStyle) {
        let width = canvas.width, height = canvas.height
        if style.drawsCasing {
            var casing = CoverageMask(width: width, height: height)
            StrokeRasterizer.stroke(polylines, radiusPixels: frame.casingWidthPixels / 2, into: &casing)
            Compositor.fill(&canvas, mask: casing, color: style.casingColor)
        }
        var layer = LayerCompositor.emptyLayer(like: canvas)
        var mask = CoverageMask(width: width, height: height)
        var touched = (minX: width, minY: height, maxX: -1, maxY: -1)
        for band in Set(bands).sorted() {
            mask.clear()
            let members = zip(polylines, bands).filter { $0.1 == band }.map(\.0)
            StrokeRasterizer.stroke(members, radiusPixels: frame.strokeWidthPixels / 2, into: &mask)
            guard !mask.isEmpty else { continue }
            touched = (min(touched.minX, mask.minX), min(touched.minY, mask.minY), max(touched.maxX, mask.maxX), max(touched.maxY, mask.maxY))
            LayerCompositor.paint(&layer, mask: mask, color: style.bandColors[band % style.bandColors.count])
        }
        LayerCompositor.blend(
            &canvas, layer: layer, opacity: style.routeColor.alpha, minX: touched.minX, minY: touched.minY, maxX: touched.maxX,
            maxY: touched.maxY)
    }

    /// Ground metres per pixel at the view's centre latitude (for the scale bar).
    static func groundMetersPerPixel(_ frame: FramePlan) -> Double {
        frame.viewport.metersPerPixel / WebMercator.scaleFactor(atLatitudeDegrees: frame.latitudeDegrees)
    }

    /// The scale bar's look for an image: dots of one point on thumbnails and two on large
    /// images, so the label reads at both.
    static func scaleBarStyle(_ options: RenderOptions) -> ScaleBarStyle {
        let dotPoints = options.widthPoints >= 640 ? 2.0 : 1.0
        return ScaleBarStyle(
            color: options.style.scaleBarColor, haloColor: options.style.scaleBarHaloColor,
            dotPixels: Int((dotPoints * options.scale).rounded()), marginPixels: Int((6 * options.scale).rounded()))
    }

    /// A start or end marker: a ring and a filled disc.
    static func marker(_ canvas: inout Canvas, at point: PixelPoint, frame: FramePlan, options: RenderOptions, fill: RGBAColor) {
        for (mask, color) in markerDiscs(at: point, frame: frame, options: options, fill: fill, width: canvas.width, height: canvas.height) {
            Compositor.fill(&canvas, mask: mask, color: color)
        }
    }

    /// The ring and then the fill of a marker, each as a mask just around its disc (a
    /// canvas-sized one would be mostly zeroing), with its colour.
    static func markerDiscs(at point: PixelPoint, frame: FramePlan, options: RenderOptions, fill: RGBAColor, width: Int, height: Int) -> [(
        CoverageMask, RGBAColor
    )] {
        let radius = frame.markerRadiusPixels, ringWidth = max(1, 1.5 * options.scale)
        var discs: [(CoverageMask, RGBAColor)] = []
        for (discRadius, color) in [(radius, options.style.markerRingColor), (max(0.5, radius - ringWidth), fill)] {
            let reach = discRadius + 1
            let minX = max(0, Int((point.x - reach).rounded(.down))), maxX = min(width - 1, Int((point.x + reach).rounded(.up)))
            let minY = max(0, Int((point.y - reach).rounded(.down))), maxY = min(height - 1, Int((point.y + reach).rounded(.up)))
            guard minX <= maxX, minY <= maxY else { break }
            var mask = CoverageMask(width: maxX - minX + 1, height: maxY - minY + 1, originX: minX, originY: minY)
            StrokeRasterizer.stroke([[point]], radiusPixels: discRadius, into: &mask)
            discs.append((mask, color))
        }
        return discs
    }
}
