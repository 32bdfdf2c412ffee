#if canImport(Glibc)
import Glibc
#endif
import MapGeometry
import MapTiles
import Raster

/// The tiles of one zoom that an image shows, and where each lands in the image's pixels.
///
/// A tile at zoom z spans `2·halfWorld / 2^z` metres; its features are in tile units
/// (`extent` per side), so a point (u, v) of tile (x, y) is at image pixel
/// `origin + (u, v) · extentScale`: one multiply-add per coordinate, straight from tile units to
/// the image's continuous zoom (no resampling: a vector is drawn at its true scale).
struct TileWindow {
    /// The tile zoom.
    let zoom: Int
    /// Columns, unwrapped (a view across the antimeridian has columns below 0 or past 2^z − 1;
    /// `wrapped` gives the tile to ask for).
    let columns: ClosedRange<Int>
    /// Rows, inside 0..<2^z.
    let rows: ClosedRange<Int>
    private let tileMeters: Double
    private let viewport: Viewport

    /// The window of `viewport` at `zoom`; nil when no row of the world is in view.
    init?(viewport: Viewport, zoom: Int) {
        let half = WebMercator.halfWorldMeters
        let tiles = 1 << zoom
        tileMeters = 2 * half / Double(tiles)
        let rect = viewport.mapRect
        // A view edge exactly on a tile edge does not ask for the tile beyond it.
        let epsilon = 1e-9 * tileMeters
        let firstColumn = Int(((rect.minX + half) / tileMeters).rounded(.down))
        let lastColumn = Int(((rect.maxX + half - epsilon) / tileMeters).rounded(.down))
        let firstRow = max(0, Int(((half - rect.maxY) / tileMeters).rounded(.down)))
        let lastRow = min(tiles - 1, Int(((half - rect.minY - epsilon) / tileMeters).rounded(.down)))
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return nil }
        self.zoom = zoom
        columns = firstColumn...lastColumn
        rows = firstRow...lastRow
        self.viewport = viewport
    }

    /// The number of tiles in the window.
    var count: Int { columns.count * rows.count }

    /// The tile to ask the source for at unwrapped column `column`.
    func wrapped(column: Int, row: Int) -> TileCoordinate {
        let tiles = 1 << zoom
        return TileCoordinate(z: zoom, x: ((column % tiles) + tiles) % tiles, y: row)
    }

    /// Where tile units of the tile at (`column`, `row`) land in the image: pixel = origin + unit · scale.
    func placement(column: Int, row: Int, extent: Int) -> TilePlacement {
        let half = WebMercator.halfWorldMeters
        let metersPerPixel = viewport.metersPerPixel
        let rect = viewport.mapRect
        let originX = (Double(column) * tileMeters - half - rect.minX) / metersPerPixel
        let originY = (rect.maxY - (half - Double(row) * tileMeters)) / metersPerPixel
        let side = tileMeters / metersPerPixel
        return TilePlacement(originX: originX, originY: originY, pixelsPerUnit: side / Double(max(extent, 1)), sidePixels: side)
    }
}

/// One tile's place in the image.
struct TilePlacement {
    /// Image pixel of the tile's top-left corner.
    let originX: Double, originY: Double
    /// Image pixels per tile unit.
    let pixelsPerUnit: Double
    /// The tile's side in image pixels.
    let sidePixels: Double

    /// The tile's square in image pixels: the pieces of a feature cut at it partition the feature.
    var square: PixelRect { PixelRect(minX: originX, minY: originY, maxX: originX + sidePixels, maxY: originY + sidePixels) }
}
