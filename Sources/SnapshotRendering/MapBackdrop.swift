import MapGeometry
import MapTiles
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

    /// The map of `viewport` as an RGBA canvas: paper and grid, the basemap, then `over` (drawn
    /// straight onto the map), then the attribution. `widthPoints` and `scale` (device pixels per
    /// point) size the grid lines, the vector map's widths and the attribution's letters as in a
    /// snapshot of that size. The report says what the map came to (tiles drawn, absent, failed,
    /// the attribution drawn, problems).
    package func draw(
        viewport: Viewport, latitudeDegrees: Double, widthPoints: Int, scale: Double, over: (inout Canvas) -> Void
    ) -> (canvas: Canvas, report: BasemapReport?) {
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
        // A vector map is drawn as a snapshot's is, into palette indices (expanded for what is
        // drawn over it), which is about three times faster than its RGBA drawing: `perf`, a
        // vector run of 24 tracks spent 13% of its time on the overview's four map pictures in
        // RGBA. A raster map, or a map of more colours than the palette holds, in RGBA.
        var canvas: Canvas
        if SnapshotPainter.paintPalette(below, scratch: scratch, report: &report) {
            canvas = scratch.canvas.expanded()
        } else {
            canvas = Canvas(width: viewport.widthPixels, height: viewport.heightPixels, fill: style.grid.paper)
            report = nil
            _ = below.draw(into: &canvas, scratch: scratch, report: &report)
        }
        over(&canvas)
        _ = above.draw(into: &canvas, scratch: scratch, report: &report)
        return (canvas, report)
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
