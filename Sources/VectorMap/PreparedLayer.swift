import MapGeometry
import MapStyle
import MapTiles

/// A style layer's features as they are before any pixel is drawn: paint groups of geometry in
/// image pixels, in the order each paint first appears.
///
/// A snapshot's @2x image shows the same map rectangle as its @1x image at the same style zoom:
/// the same tiles, features, filters and paints, every coordinate, width and dash length doubled.
/// Preparing a layer (filtering, evaluating paints, projecting, clipping, dashing) is a fifth of
/// the line layers' time at 1280×960 and a tenth at 2560×1920 (measured per layer), so the painter
/// keeps the last image's prepared layers and gives the next one the same layers scaled
/// (`PreparedMap`). Scaling by a power of two is exact in floating
/// point, and every margin is in points (it scales too), so the scaled layers are bit for bit the
/// ones the larger image would prepare itself (a test draws both ways and compares).
struct PreparedLayer {
    /// The geometry of one layer kind.
    enum Groups {
        /// A background: nothing to prepare (its colour is the rule's, its area the tiles').
        case background
        /// Polygons (each an exterior ring and its holes) by fill colour, and their outlines
        /// (`fill-outline-color`) as line pieces by line paint, drawn over the fills.
        case fills([(paint: StyleColor, items: [[[PixelPoint]]])], outlines: [(paint: LinePaint, items: [[[PixelPoint]]])])
        /// Line pieces (each feature's clipped or dashed polylines) by line paint.
        case lines([(paint: LinePaint, items: [[[PixelPoint]]])])
    }

    /// The groups.
    var groups: Groups
    /// Features that went into a group.
    var featuresDrawn = 0
    /// Their vertices.
    var verticesDrawn = 0

    /// The layer at `factor` times the scale (a power of two keeps every value exact).
    func scaled(by factor: Double) -> PreparedLayer {
        func points(_ items: [[[PixelPoint]]]) -> [[[PixelPoint]]] {
            items.map { $0.map { $0.map { PixelPoint(x: $0.x * factor, y: $0.y * factor) } } }
        }
        var copy = self
        switch groups {
        case .background: break
        case .fills(let groups, let outlines):
            copy.groups = .fills(
                groups.map { ($0.paint, points($0.items)) }, outlines: outlines.map { ($0.paint.scaled(by: factor), points($0.items)) })
        case .lines(let groups): copy.groups = .lines(groups.map { ($0.paint.scaled(by: factor), points($0.items)) })
        }
        return copy
    }
}

/// The prepared layers of the last image a painter drew, and what decides them.
struct PreparedMap {
    /// Everything the prepared geometry depends on but the scale.
    struct Key: Equatable {
        /// The map rectangle shown.
        var mapRect: MapRect
        /// TrackSnap's continuous zoom of the @1x image (the style's rules are made for it).
        var zoom: Double
        /// The image's size in points (pixels / scale): the mapRect and the zoom fix the width,
        /// not the height a canvas is clipped to.
        var widthPoints: Double, heightPoints: Double
        /// The tiles had, in window order (a tile that failed once may be had the next time; a
        /// tile whose bytes change under the same source between two images is not told apart).
        var tiles: [TileCoordinate]
        /// The style document's content digest.
        var styleDigest: UInt64
    }

    /// What the layers were prepared for.
    let key: Key
    /// The tile source they came from, held so its identity stays its own (two sources may have
    /// tiles at the same coordinates).
    let provider: any TileProvider
    /// The scale they were prepared at.
    let scale: Double
    /// One per draw rule, in order.
    let layers: [PreparedLayer]

    /// The layers for an image at `scale` with `key` from `provider`: scaled when only the scale
    /// differs, by a power of two; nil otherwise.
    func layers(for key: Key, provider: any TileProvider, scale: Double) -> [PreparedLayer]? {
        guard key == self.key, provider === self.provider, scale > 0 else { return nil }
        let factor = scale / self.scale
        guard factor == 1 || (factor.significand == 1 && factor.exponent != 0) else { return nil }
        return factor == 1 ? layers : layers.map { $0.scaled(by: factor) }
    }
}
