import PNGEncoding
import Raster

/// One detail image of a region's picture, drawn and cut into tiles: each tile's digest is known
/// at once (a pass over its pixels), its PNG only when asked for, so the tiles whose digest names
/// a file already written are never encoded.
package struct TiledImage: Sendable {
    /// How the image is cut.
    package let tiling: PictureTiling
    /// The scale it is drawn at (device pixels per point).
    package let scale: Double
    /// Every tile's digest, row by row (`PictureTiling.digests`).
    package let digests: [UInt64]
    /// Why part of its map is missing (`OverviewMapPicture.problems`); empty over the grid.
    package let problems: [String]
    private let canvas: IndexedCanvas
    private var encoder = PalettePNGEncoder()

    init(canvas: IndexedCanvas, tiling: PictureTiling, scale: Double, problems: [String]) {
        self.canvas = canvas
        self.tiling = tiling
        self.scale = scale
        self.problems = problems
        digests = tiling.digests(of: canvas, scale: scale)
    }

    /// Tile `index` as PNG bytes.
    package mutating func png(tile index: Int) throws(PNGError) -> [UInt8] {
        try tiling.png(index, of: canvas, scale: scale, encoder: &encoder)
    }
}

extension RegionOverview {
    /// The picture at `scales[scaleIndex]`, over `basemap`'s map when one is given (its letters at
    /// `labelScale`, the picture's nominal scale) or else over the grid, cut into tiles of
    /// `tilePoints` points.
    package func tiledImage(scaleIndex: Int, tilePoints: Int, labelScale: Double, basemap: (any OverviewBasemap)?) -> TiledImage {
        let tiling = PictureTiling(widthPoints: frame.widthPoints, heightPoints: frame.heightPoints, tilePoints: tilePoints)
        if let basemap {
            let drawn = canvas(scaleIndex: scaleIndex, labelScale: labelScale, basemap: basemap)
            return TiledImage(canvas: drawn.canvas, tiling: tiling, scale: scales[scaleIndex], problems: drawn.problems)
        }
        return TiledImage(canvas: canvas(scaleIndex: scaleIndex), tiling: tiling, scale: scales[scaleIndex], problems: [])
    }
}
