import MapGeometry
import MapTiles
import PNGEncoding
import Raster
import VectorMap

/// A basemap with no route on it: a `SnapshotScene`'s paper, grid and basemap layers (raster
/// tiles resampled, or a vector map drawn with its style), then whatever the caller draws over
/// them, then the basemap's attribution in the snapshot's look: the same layers drawn by the same
/// code as under a route. The archive overview draws its heat maps over it.
///
/// Not thread-safe (the tile provider and scratch are not): one per thread.
package struct MapBackdrop {
    /// The basemap drawn (its source, opacity, attribution, map style).
    package let settings: BasemapSettings
    /// The tiles; nil when the source could not be opened (paper and grid only).
    package let tiles: (any TileProvider)?
    /// Paper, grid and label colours. Default: `SnapshotStyle()`.
    package let style: SnapshotStyle
    private let mapStyle: VectorMapStyle?
    private let scratch = RenderScratch()

    /// A backdrop of `settings`' map from `tiles`; throws when the map style of a vector source
    /// cannot be read.
    package init(settings: BasemapSettings, tiles: any TileProvider, style: SnapshotStyle = SnapshotStyle()) throws(SnapshotError) {
        self.settings = settings
        self.tiles = tiles
        self.style = style
        var options = RenderOptions()
        options.style = style
        options.basemap = settings
        mapStyle =
            tiles.sourceDescription.kind == .vector ? try SnapshotRenderer.vectorMapStyle(settings, options: options, scratch: scratch) : nil
    }

    /// A backdrop of paper and grid alone, as where a source has no tile (for a source that
    /// could not be opened).
    package init(withoutTiles settings: BasemapSettings, style: SnapshotStyle = SnapshotStyle()) {
        self.settings = settings
        self.style = style
        tiles = nil
        mapStyle = nil
    }

    /// The map of `viewport` as a palette image: paper and grid, the basemap, then `over` (drawn
    /// straight onto the map's indices), then the attribution. `widthPoints` and `scale` (device
    /// pixels per point) size the grid lines, the vector map's widths and the attribution's
    /// letters as in a snapshot of that size. A map the palette cannot hold (raster tiles, or a
    /// vector map of too many colours) is drawn in RGBA and reduced to `mapColors` colours
    /// (`PaletteQuantizer`, its stated error). The attribution takes entries `over` left free,
    /// then the nearest colours. The report says what the map came to (tiles drawn, absent,
    /// failed, the attribution drawn, problems).
    ///
    /// The image is the backdrop's scratch canvas: drop it before the next `draw`, or that one
    /// copies it (copy on write).
    package func draw(
        viewport: Viewport, latitudeDegrees: Double, widthPoints: Int, scale: Double, mapColors: Int, over: (inout IndexedCanvas) -> Void
    ) -> (canvas: IndexedCanvas, report: BasemapReport?) {
        var options = RenderOptions()
        options.widthPoints = widthPoints
        options.heightPoints = max(1, Int((Double(viewport.heightPixels) / scale).rounded()))
        options.scale = scale
        options.style = style
        options.basemap = settings
        let frame = FramePlan(viewport: viewport, latitudeDegrees: latitudeDegrees)
        var layers: [SnapshotScene.Layer] = [.background(style.grid)]
        if let tiles { layers.append(mapStyle.map { .vectorMap(tiles, $0) } ?? .basemap(settings, tiles)) }
        let below = SnapshotScene(layers: layers, frame: frame, options: options)
        let above = SnapshotScene(layers: [.attribution(SnapshotScene.labelStyle(options))], frame: frame, options: options)
        var report: BasemapReport?
        tiles?.beginImage()
        // A vector map is drawn as a snapshot's is, into palette indices, about three times
        // faster than its RGBA drawing; what is drawn over it stays in indices too (no RGBA
        // picture, no quantizer: `DensityPainter+Map`).
        if !SnapshotPainter.paintPalette(below, scratch: scratch, report: &report) {
            report = nil
            let canvas = SnapshotPainter.paintRGBA(below, scratch: scratch, report: &report)
            reduce(canvas, toColors: mapColors)
        }
        over(&scratch.canvas)
        scratch.canvas.palette.takesNearestWhenFull = true
        _ = above.draw(into: &scratch.canvas, scratch: scratch, report: &report)
        return (scratch.canvas, report)
    }

    /// Puts `canvas` into the scratch's palette canvas reduced to at most `colors` colours, and
    /// keeps its memory for the next RGBA map.
    private func reduce(_ canvas: Canvas, toColors colors: Int) {
        scratch.canvas.reset(width: canvas.width, height: canvas.height)
        scratch.quantizer.maximumColors = colors
        let paletteRGB = scratch.quantizer.quantize(canvas, indices: &scratch.canvas.indices)
        scratch.keepRGBA(canvas.pixels)
        // Entries in the quantizer's order; two boxes whose means round to one colour share it.
        scratch.canvas.palette.merging = .uniform(levels: 0)
        var remap = [UInt8](repeating: 0, count: 256), identical = true
        for entry in 0..<(paletteRGB.count / 3) {
            let color = RGBAColor(red: paletteRGB[entry * 3], green: paletteRGB[entry * 3 + 1], blue: paletteRGB[entry * 3 + 2])
            remap[entry] = scratch.canvas.index(of: color) ?? 0
            identical = identical && Int(remap[entry]) == entry
        }
        guard !identical else { return }
        let count = canvas.width * canvas.height
        scratch.canvas.indices.withUnsafeMutableBufferPointer { indices in
            for pixel in 0..<count { indices[pixel] = remap[Int(indices[pixel])] }
        }
    }
}

extension SnapshotScene {
    /// A scene of the given layers (a `MapBackdrop`'s: no route).
    init(layers: [Layer], frame: FramePlan, options: RenderOptions) {
        self.layers = layers
        self.frame = frame
        self.options = options
    }
}

extension FramePlan {
    /// The frame of a map with no route: a viewport and the latitude its grid is measured at.
    init(viewport: Viewport, latitudeDegrees: Double) {
        self.viewport = viewport
        self.latitudeDegrees = latitudeDegrees
        strokeWidthPixels = 0
        casingWidthPixels = 0
        markerRadiusPixels = 0
    }
}
