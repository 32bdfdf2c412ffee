import MapTiles
import Raster

/// The two backends a `SnapshotScene` is drawn with, and the rule between them: a scene that
/// suits a palette (`SnapshotScene.suitsPalette`, decided before drawing) is drawn straight into
/// 8-bit palette indices; any other scene, or one whose colours overflow the palette, in RGBA.
enum SnapshotPainter {
    /// Draws `scene` into `scratch.canvas` as palette indices; what its basemap came to goes into
    /// `report` (a vector map). Returns false when the scene does
    /// not suit a palette or has more than 256 colours even with coarse merging; draw it with
    /// `paintRGBA` then.
    static func paintPalette(_ scene: SnapshotScene, scratch: RenderScratch, report: inout BasemapReport?) -> Bool {
        guard scene.suitsPalette else { return false }
        // A second attempt with coarser colour merging before giving up on the palette; a vector
        // map (many colours meeting at anti-aliased edges) starts graded (see `mergeTolerance`).
        let attempts: [CanvasPalette.Merging] = scene.drawsVectorMap ? [.graded, .coarsest] : [.fine, .coarse]
        for merging in attempts {
            scratch.canvas.reset(width: scene.frame.viewport.widthPixels, height: scene.frame.viewport.heightPixels)
            scratch.canvas.palette.merging = merging
            report = nil
            if scene.draw(into: &scratch.canvas, scratch: scratch, report: &report) { return true }
        }
        return false
    }

    /// Draws `scene` as an RGBA image; what its basemap came to goes into `report`.
    ///
    /// A raster basemap's tiles are fetched first: when they cover every pixel the canvas is
    /// neither filled with paper nor given a grid that the map would hide (`perf`, a raster run:
    /// the fill and the grid were 5% of it).
    static func paintRGBA(_ scene: SnapshotScene, scratch: RenderScratch, report: inout BasemapReport?) -> Canvas {
        let viewport = scene.frame.viewport
        scratch.prefetchedBasemap = scene.fetchBasemapUnderBackground()
        defer { scratch.prefetchedBasemap = nil }
        var storage = scratch.takeRGBA(byteCount: viewport.widthPixels * viewport.heightPixels * 4)
        var canvas =
            scratch.prefetchedBasemap?.coversEveryPixel == true
            ? Canvas(width: viewport.widthPixels, height: viewport.heightPixels, unpaintedReusing: &storage)
            : Canvas(width: viewport.widthPixels, height: viewport.heightPixels, fill: scene.options.style.grid.paper, reusing: &storage)
        // An RGBA canvas never runs out of colours: every layer is drawn.
        _ = scene.draw(into: &canvas, scratch: scratch, report: &report)
        return canvas
    }
}
