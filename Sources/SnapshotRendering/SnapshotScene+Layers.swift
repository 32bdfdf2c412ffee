import MapGeometry
import MapTiles
import Raster
import VectorMap

extension SnapshotScene {
    /// Draws every layer, bottom first, into `target`. Returns false as soon as the target runs
    /// out of colours (a palette: draw the scene in RGBA then). `scratch` lends the canvas-sized
    /// mask of a ramp stroke; what the basemap came to goes into `report`.
    func draw<Target: Blitter>(into target: inout Target, scratch: RenderScratch, report: inout BasemapReport?) -> Bool {
        // The index of a route layer already drawn with the background below it.
        var routeDrawn: Int?
        for (index, layer) in layers.enumerated() {
            switch layer {
            case .background(let grid):
                // A vector map right above paints the grid itself, and only where its own
                // background will not cover everything (`VectorMapPainter.draw`'s underlay).
                if index + 1 < layers.count, case .vectorMap = layers[index + 1] { continue }
                // Raster tiles that cover every pixel (fetched before the canvas was made) hide it.
                if scratch.prefetchedBasemap?.coversEveryPixel == true { continue }
                // A one-colour route of ramp levels right above (the grid map's usual scene) is
                // rasterized first and blended row by row as the grid's rows are copied
                // (`Blitter.copyRows`): the same pixels, one pass over the canvas instead of two.
                if index + 1 < layers.count, case .route(let route) = layers[index + 1], route.bands == nil,
                    Target.strokeCoverage == .rampLevels, let ramp = route.ramp
                {
                    scratch.mask.reshape(width: target.width, height: target.height)
                    StrokeRasterizer.stroke(route.polylines, ramp: ramp, into: &scratch.mask)
                    GridPainter.paint(
                        &target, viewport: frame.viewport, latitudeDegrees: frame.latitudeDegrees, style: grid, scale: options.scale,
                        thenBlendStroke: &scratch.mask, ramp: ramp, routeColor: options.style.routeColor, casingColor: options.style.casingColor)
                    routeDrawn = index + 1
                } else {
                    paintGrid(grid, into: &target)
                }
            case .basemap(let settings, let tiles):
                drawBasemap(settings, tiles: tiles, into: &target, scratch: scratch, report: &report)
            case .vectorMap(let tiles, let style):
                var grid: GridStyle?
                if index > 0, case .background(let below) = layers[index - 1] { grid = below }
                drawVectorMap(tiles, style: style, into: &target, scratch: scratch, report: &report) { target in
                    if let grid { paintGrid(grid, into: &target) }
                }
            case .route(let route):
                if index == routeDrawn { continue }
                drawRoute(route, into: &target, scratch: scratch)
            case .marker(let center, let fill):
                for (mask, color) in markerDiscs(at: center, fill: fill, width: target.width, height: target.height) {
                    target.blend(mask, color: color)
                }
            case .scaleBar(let look):
                ScaleBarPainter.paint(&target, groundMetersPerPixel: groundMetersPerPixel, style: look)
            case .attribution(let look):
                drawAttribution(look, into: &target, report: &report)
            }
            if target.ranOutOfColors { return false }
        }
        return true
    }

    /// The raster basemap's tiles when the scene draws them right over its background (paper
    /// and grid, the bottom layers): fetched before the canvas is made, so that a map covering
    /// every pixel spares painting what it hides. Nil for any other scene.
    func fetchBasemapUnderBackground() -> FetchedTiles? {
        guard layers.count >= 2, case .background = layers[0], case .basemap(let settings, let tiles) = layers[1] else { return nil }
        return TileResampler.fetch(viewport: frame.viewport, provider: tiles, settings: settings)
    }

    private func paintGrid<Target: Blitter>(_ style: GridStyle, into target: inout Target) {
        GridPainter.paint(&target, viewport: frame.viewport, latitudeDegrees: frame.latitudeDegrees, style: style, scale: options.scale)
    }

    /// Ground metres per pixel at the view's centre latitude (for the scale bar).
    var groundMetersPerPixel: Double {
        frame.viewport.metersPerPixel / WebMercator.scaleFactor(atLatitudeDegrees: frame.latitudeDegrees)
    }

    private func drawBasemap<Target: Blitter>(
        _ settings: BasemapSettings, tiles: any TileProvider, into target: inout Target, scratch: RenderScratch, report: inout BasemapReport?
    ) {
        var drawn: BasemapReport?
        let prefetched = scratch.prefetchedBasemap
        scratch.prefetchedBasemap = nil
        target.drawRGBA { canvas in
            let fetched = prefetched ?? TileResampler.fetch(viewport: frame.viewport, provider: tiles, settings: settings)
            TileResampler.draw(fetched, into: &canvas)
            drawn = fetched.report
        }
        guard var drawn else { return }
        drawn.attribution = drawn.tiles > 0 ? settings.attribution(over: tiles.sourceDescription) : nil
        report = drawn
    }

    private func drawVectorMap<Target: Blitter>(
        _ tiles: any TileProvider, style: VectorMapStyle, into target: inout Target, scratch: RenderScratch, report: inout BasemapReport?,
        underlay: (inout Target) -> Void
    ) {
        let drawn = scratch.vectorMap.draw(
            into: &target, viewport: frame.viewport, scale: options.scale, provider: tiles, style: style, underlay: underlay)
        var summary = BasemapReport(
            zoom: drawn.tileZoom, tiles: drawn.tiles, tilesAbsent: drawn.tilesAbsent, tilesFailed: drawn.tilesFailed,
            problems: drawn.problems.isEmpty ? nil : drawn.problems)
        summary.kind = "vector"
        summary.featuresDrawn = drawn.featuresDrawn
        summary.verticesDrawn = drawn.verticesDrawn
        summary.labelLayersSkipped = drawn.labelLayersSkipped
        if drawn.tiles > 0, let basemap = options.basemap {
            var source = tiles.sourceDescription
            if source.attribution == nil { source.attribution = drawn.schemaAttribution }
            summary.attribution = basemap.attribution(over: source)
        }
        report = summary
    }

    /// One colour: the casing and the route in the form the target takes (`Blitter.strokeCoverage`).
    /// Colour bands: the casing, then one union per band painted opaque into a layer that is
    /// blended once with the route's opacity (see `LayerCompositor`).
    private func drawRoute<Target: Blitter>(_ route: RouteStroke, into target: inout Target, scratch: RenderScratch) {
        let width = target.width, height = target.height, style = options.style
        if let bands = route.bands {
            if let casingRadius = route.casingRadiusPixels {
                var casing = CoverageMask(width: width, height: height)
                StrokeRasterizer.stroke(route.polylines, radiusPixels: casingRadius, into: &casing)
                target.blend(casing, color: style.casingColor)
            }
            target.drawRGBA { canvas in paintBands(&canvas, polylines: route.polylines, bands: bands, radiusPixels: route.radiusPixels) }
        } else if Target.strokeCoverage == .rampLevels, let ramp = route.ramp {
            scratch.mask.reshape(width: width, height: height)
            StrokeRasterizer.stroke(route.polylines, ramp: ramp, into: &scratch.mask)
            target.blendStroke(levels: &scratch.mask, ramp: ramp, routeColor: style.routeColor, casingColor: style.casingColor)
        } else {
            // The scratch's masks, not fresh ones: two canvas-sized masks a 2560×1920 image were
            // 9.8 MB of new pages for every raster map image.
            scratch.mask.reshape(width: width, height: height)
            if let casingRadius = route.casingRadiusPixels {
                scratch.casing.reshape(width: width, height: height)
                StrokeRasterizer.stroke(
                    route.polylines, radiusPixels: route.radiusPixels, into: &scratch.mask, casingRadiusPixels: casingRadius,
                    casing: &scratch.casing)
                target.blend(scratch.casing, color: style.casingColor)
                scratch.casing.clear()
            } else {
                StrokeRasterizer.stroke(route.polylines, radiusPixels: route.radiusPixels, into: &scratch.mask)
            }
            target.blend(scratch.mask, color: style.routeColor)
            scratch.mask.clear()
        }
    }

    private func paintBands(_ canvas: inout Canvas, polylines: [[PixelPoint]], bands: [Int], radiusPixels: Double) {
        let width = canvas.width, height = canvas.height, style = options.style
        var layer = LayerCompositor.emptyLayer(like: canvas)
        var mask = CoverageMask(width: width, height: height)
        var touched = (minX: width, minY: height, maxX: -1, maxY: -1)
        for band in Set(bands).sorted() {
            mask.clear()
            let members = zip(polylines, bands).filter { $0.1 == band }.map(\.0)
            StrokeRasterizer.stroke(members, radiusPixels: radiusPixels, into: &mask)
            guard !mask.isEmpty else { continue }
            touched = (min(touched.minX, mask.minX), min(touched.minY, mask.minY), max(touched.maxX, mask.maxX), max(touched.maxY, mask.maxY))
            LayerCompositor.paint(&layer, mask: mask, color: style.bandColors[band % style.bandColors.count])
        }
        LayerCompositor.blend(
            &canvas, layer: layer, opacity: style.routeColor.alpha, minX: touched.minX, minY: touched.minY, maxX: touched.maxX,
            maxY: touched.maxY)
    }

    /// The ring and then the fill of a marker, each as a mask just around its disc (a
    /// canvas-sized one would be mostly zeroing), with its colour.
    private func markerDiscs(at point: PixelPoint, fill: RGBAColor, width: Int, height: Int) -> [(CoverageMask, RGBAColor)] {
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

    /// The credit line in the scale bar's look and margin, in the opposite corner (the two labels
    /// frame the map alike); a problem in `report` when it does not fit.
    private func drawAttribution<Target: Blitter>(_ look: ScaleBarStyle, into target: inout Target, report: inout BasemapReport?) {
        guard let text = report?.attribution else { return }
        let width = target.width, height = target.height
        if let label = TextLabelPainter.masks(text: text, width: width, height: height, dotPixels: look.dotPixels, marginPixels: look.marginPixels) {
            target.blend(label.halo, color: look.haloColor)
            target.blend(label.ink, color: look.color)
        } else {
            let earlier = report?.problems ?? []
            report?.problems = earlier + ["the attribution does not fit on a \(width)x\(height) image; show it beside the image"]
        }
    }
}
