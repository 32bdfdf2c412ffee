#if canImport(Glibc)
import Glibc
#endif
import MapGeometry

/// Which tiles an image needs and how its pixels map onto them.
///
/// Coordinates: at zoom z the world is `tilePixels · 2^z` source pixels wide; source pixel i
/// covers [i, i+1) and its colour is the map's colour at i + 0.5. Image pixel p likewise shows
/// the map at p + 0.5, so image pixel p's centre lands at `origin + (p + 0.5) · sourcePixelsPerPixel`
/// in source pixels: the half pixels cancel only when both are counted, which is where a
/// half-pixel shift would come from.
public struct TilePlan: Sendable, Equatable {
    /// The zoom whose tiles are drawn.
    public var zoom: Int
    /// Tile edge in pixels.
    public var tilePixels: Int
    /// Source pixels per image pixel: above 1 the tiles are shrunk (area average), below 1
    /// enlarged (bilinear).
    public var sourcePixelsPerPixel: Double
    /// Source pixel coordinates of the image's left and top edges (x may be negative or past
    /// the world's width for a view across the antimeridian).
    public var originX: Double, originY: Double

    /// The world's width at this zoom in source pixels.
    public var worldPixels: Int { tilePixels << zoom }

    /// Why a view gets no tiles.
    public enum Refusal: Sendable, Equatable {
        /// The view is zoomed out past the source's lowest zoom.
        case belowMinimumZoom(continuousZoom: Double, minimum: Int)
        /// The view is zoomed in further than the source's highest zoom plus the overzoom allowed.
        case aboveMaximumZoom(continuousZoom: Double, maximum: Int)
    }

    /// The plan for `viewport`: the zoom nearest the image's continuous zoom (tiles shrunk by less
    /// than √2 or enlarged by at most √2, `nearestZoomBias`), lowered to the source's highest zoom
    /// when the view is closer than that (then enlarged further) by at most `maximumOverzoomLevels`.
    public static func make(
        viewport: Viewport, description: TileSourceDescription, maximumOverzoomLevels: Int
    ) -> Result<TilePlan, RefusalError> {
        let worldMeters = 2 * WebMercator.halfWorldMeters
        let tile = Double(description.tilePixels)
        let continuous = continuousZoom(viewport, tilePixels: description.tilePixels)
        // 1e-9: a view at exactly zoom 12 uses zoom 12, not 13, despite rounding in the metres.
        // Bounded before the conversion: a degenerate view (0 or infinite metres per pixel)
        // must be refused, not trap.
        guard continuous.isFinite else {
            return .failure(
                RefusalError(
                    continuous > 0 || continuous.isNaN
                        ? .aboveMaximumZoom(continuousZoom: continuous, maximum: description.maximumZoom)
                        : .belowMinimumZoom(continuousZoom: continuous, minimum: description.minimumZoom)))
        }
        var zoom = Int(min(max((continuous - nearestZoomBias - 1e-9).rounded(.up), 0), 64))
        // Nearest below the source's lowest zoom, but that zoom shrunk by less than 2 still
        // shows the view: draw it (as the zoom-above policy did) rather than the grid.
        if zoom < description.minimumZoom, (continuous - 1e-9).rounded(.up) >= Double(description.minimumZoom) {
            zoom = description.minimumZoom
        }
        if zoom < description.minimumZoom {
            return .failure(RefusalError(.belowMinimumZoom(continuousZoom: continuous, minimum: description.minimumZoom)))
        }
        // Past zoom 30 a world's pixel count nears Int's range; no tile set goes there.
        let maximumZoom = min(description.maximumZoom, 30)
        if zoom > maximumZoom {
            if zoom - maximumZoom > maximumOverzoomLevels {
                return .failure(RefusalError(.aboveMaximumZoom(continuousZoom: continuous, maximum: maximumZoom)))
            }
            zoom = maximumZoom
        }
        let world = tile * Double(1 << zoom)
        let scale = viewport.metersPerPixel * world / worldMeters
        let rect = viewport.mapRect
        let originX = (rect.minX + WebMercator.halfWorldMeters) / worldMeters * world
        let originY = (WebMercator.halfWorldMeters - rect.maxY) / worldMeters * world
        return .success(TilePlan(zoom: zoom, tilePixels: description.tilePixels, sourcePixelsPerPixel: scale, originX: originX, originY: originY))
    }

    /// How far below the view's continuous zoom a tile zoom may be: the tiles of
    /// ⌈continuous − 0.5⌉ are drawn, so a view between zooms z and z + 1 takes z's tiles up to
    /// z + 0.5 (enlarged ≤ √2) and z + 1's past it (shrunk < √2).
    ///
    /// Why not the zoom just above (shrink 1–2×, never enlarge; bias 0): the tile count a view
    /// needs grows 4× per zoom, so the zoom above reads and decodes on average about twice the
    /// tiles of the nearest one (measured, `tracksnap-dev bench --section basemap`, the default
    /// four images: 274 → 154 tiles a track) and filters twice the source pixels, for detail the
    /// image cannot show: by the filters' footprints a 1-px line shrunk 1.4–2× keeps 50–71% of its
    /// contrast, the same line enlarged ≤ 1.4× (bilinear) 71–100%, spread over a pixel more.
    /// Labels come out 0.71–1.41× their design size instead of 0.5–1×, as web maps show them
    /// between whole zooms.
    public static let nearestZoomBias = 0.5

    /// The continuous zoom of a view for tiles of `tilePixels` (fractional; 0 shows the world in one tile).
    public static func continuousZoom(_ viewport: Viewport, tilePixels: Int) -> Double {
        log2(2 * WebMercator.halfWorldMeters / (Double(tilePixels) * viewport.metersPerPixel))
    }

    /// The source pixels image pixel `index` draws from along one axis, with their weights (sum 1):
    /// a box of the pixel's footprint when shrinking, the two nearest when enlarging.
    public func taps(forPixel index: Int, origin: Double) -> [(source: Int, weight: Double)] {
        let center = origin + (Double(index) + 0.5) * sourcePixelsPerPixel
        if sourcePixelsPerPixel >= 1 {
            let low = center - sourcePixelsPerPixel / 2, high = center + sourcePixelsPerPixel / 2
            var taps: [(Int, Double)] = []
            var source = Int(low.rounded(.down))
            while Double(source) < high {
                let overlap = min(high, Double(source + 1)) - max(low, Double(source))
                if overlap > 1e-12 { taps.append((source, overlap / sourcePixelsPerPixel)) }
                source += 1
            }
            return taps
        }
        let position = center - 0.5
        let first = position.rounded(.down)
        let fraction = position - first
        return [(Int(first), 1 - fraction), (Int(first) + 1, fraction)]
    }
}

/// A `TilePlan.Refusal` as an error value.
public struct RefusalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why.
    public var refusal: TilePlan.Refusal

    init(_ refusal: TilePlan.Refusal) { self.refusal = refusal }

    /// One line for the render info.
    public var description: String {
        switch refusal {
        case .belowMinimumZoom(let zoom, let minimum):
            return "the view (zoom \(Self.format(zoom))) is wider than the source's lowest zoom \(minimum): the grid is drawn"
        case .aboveMaximumZoom(let zoom, let maximum):
            return "the view (zoom \(Self.format(zoom))) is closer than the source's highest zoom \(maximum) allows: the grid is drawn"
        }
    }

    private static func format(_ zoom: Double) -> String { "\((zoom * 10).rounded() / 10)" }
}
