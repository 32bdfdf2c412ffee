import MapGeometry
import MapTiles
import Raster
import VectorTiles

/// A decoded tile and where it lands in the image.
struct PlacedTile {
    /// The tile asked for (wrapped).
    let coordinate: TileCoordinate
    /// Its layers.
    let tile: VectorTile.Decoded
    /// Where its units land in the image (from the unwrapped column, so a view across the
    /// antimeridian places the tile beside its neighbours).
    let placement: TilePlacement

    /// The tile at `coordinate`, placed at unwrapped `column`, `row` of `window`.
    init(coordinate: TileCoordinate, column: Int, row: Int, tile: VectorTile.Decoded, window: TileWindow) {
        self.coordinate = coordinate
        self.tile = tile
        placement = window.placement(column: column, row: row, extent: tile.layers.first?.extent ?? 4096)
    }

    /// The placement for a layer of this tile (layers may have different extents).
    func placement(for layer: VectorTile.DecodedLayer) -> TilePlacement {
        let side = placement.sidePixels
        return TilePlacement(
            originX: placement.originX, originY: placement.originY, pixelsPerUnit: side / Double(max(layer.extent, 1)), sidePixels: side)
    }
}

/// What drawing one image shares between its layers: the tiles, the frame, and the counts.
struct DrawContext {
    /// The window's tiles that were had.
    let tiles: [PlacedTile]
    /// The image's frame in pixels.
    let canvas: PixelRect
    /// Device pixels per point: style widths are multiplied by it.
    let scale: Double
    /// Whether every tile of the window was had (their squares then cover the whole image).
    let tilesCoverCanvas: Bool
    /// Features drawn (counted once per layer that draws them).
    var featuresDrawn = 0
    /// Vertices of the features drawn.
    var verticesDrawn = 0
    /// Problems met while drawing ("a ring too costly to fill"…), at most a few.
    var problems: [String] = []

    /// A context with nothing drawn yet.
    init(tiles: [PlacedTile], canvas: PixelRect, scale: Double, tilesCoverCanvas: Bool) {
        self.tiles = tiles
        self.canvas = canvas
        self.scale = scale
        self.tilesCoverCanvas = tilesCoverCanvas
    }

    /// Records a problem (the first few; the rest are counted in the features drawn only).
    mutating func note(_ problem: String) {
        if problems.count < 5, !problems.contains(problem) { problems.append(problem) }
    }
}

extension TilePlacement {
    /// `points` (tile units) in image pixels.
    @inline(__always)
    func project(_ points: [TilePoint]) -> [PixelPoint] {
        points.map { PixelPoint(x: originX + Double($0.x) * pixelsPerUnit, y: originY + Double($0.y) * pixelsPerUnit) }
    }
}
