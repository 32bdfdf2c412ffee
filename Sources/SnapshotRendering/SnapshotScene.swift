import MapGeometry
import MapTiles
import Raster
import VectorMap

/// What one snapshot shows, as a list of layers from the bottom up: the layer order, written once.
/// Either backend draws it (`draw(into:)`, generic over `Blitter`): the palette image every default
/// snapshot is, or RGBA for a scene that cannot be a palette (`suitsPalette`).
struct SnapshotScene {
    /// One thing drawn. Each kind computes its coverage (which pixels, how much) and hands it to
    /// the target with a colour; `SnapshotScene+Layers.swift` has one drawing function per kind.
    enum Layer {
        /// Map paper and the grid; writes every pixel.
        case background(GridStyle)
        /// Basemap tiles resampled to the image and blended at the basemap's opacity (RGBA only:
        /// far more than 256 colours).
        case basemap(BasemapSettings, any TileProvider)
        /// A vector basemap drawn with a map style: flat colours and anti-aliased edges, so a
        /// palette can hold it (`VectorMapPainter`).
        case vectorMap(any TileProvider, VectorMapStyle)
        /// The route over its casing.
        case route(RouteStroke)
        /// A start or end marker: a ring and a filled disc.
        case marker(center: PixelPoint, fill: RGBAColor)
        /// The scale bar and its label, bottom left.
        case scaleBar(ScaleBarStyle)
        /// The basemap's credit line, bottom right, when the basemap drew any tile.
        case attribution(ScaleBarStyle)
    }

    /// The route and its casing: one stroke rasterization gives both coverages, so they are one layer.
    struct RouteStroke {
        /// The simplified route in image pixels.
        var polylines: [[PixelPoint]]
        /// The colour band of each polyline (colour by speed or elevation; RGBA only), or nil for one colour.
        var bands: [Int]?
        /// Half the route's width, in pixels.
        var radiusPixels: Double
        /// Half the casing's width, in pixels; nil without a casing.
        var casingRadiusPixels: Double?
        /// The ramp a palette target draws the route and casing with; nil when it cannot describe them.
        var ramp: StrokeRamp? { StrokeRamp(routeRadiusPixels: radiusPixels, casingRadiusPixels: casingRadiusPixels) }
    }

    /// The layers, bottom first.
    let layers: [Layer]
    /// Where the scene is on the map and how large things are.
    let frame: FramePlan
    /// The image's options (style, scale).
    let options: RenderOptions

    /// The scene of one image. `bands`, when given, holds the band of each polyline; `basemap`,
    /// when given, is drawn over the grid (which shows where tiles are missing) and under the
    /// route: raster tiles resampled, or vector tiles drawn with `mapStyle`.
    init(
        polylines: [[PixelPoint]], bands: [Int]?, frame: FramePlan, options: RenderOptions,
        basemap: (settings: BasemapSettings, tiles: any TileProvider)?, mapStyle: VectorMapStyle? = nil
    ) {
        let style = options.style
        var layers: [Layer] = [.background(style.grid)]
        if let basemap {
            if let mapStyle, basemap.tiles.sourceDescription.kind == .vector {
                layers.append(.vectorMap(basemap.tiles, mapStyle))
            } else {
                layers.append(.basemap(basemap.settings, basemap.tiles))
            }
        }
        layers.append(
            .route(
                RouteStroke(
                    polylines: polylines, bands: bands, radiusPixels: frame.strokeWidthPixels / 2,
                    casingRadiusPixels: style.drawsCasing ? frame.casingWidthPixels / 2 : nil)))
        if style.drawsMarkers, let first = polylines.first?.first, let last = polylines.last?.last {
            // End first, so on a loop the start marker stays visible on top.
            layers += [.marker(center: last, fill: style.endMarkerColor), .marker(center: first, fill: style.startMarkerColor)]
        }
        let labels = SnapshotScene.labelStyle(options)
        if style.drawsScaleBar { layers.append(.scaleBar(labels)) }
        if basemap != nil { layers.append(.attribution(labels)) }
        self.layers = layers
        self.frame = frame
        self.options = options
    }

    /// Whether a 256-colour palette can hold the scene: no layer whose colour varies per pixel
    /// (basemap tiles, colour bands) and a casing `StrokeRamp` can describe. Decided before
    /// drawing; a palette that still runs out of colours (`Blitter.ranOutOfColors`) sends the
    /// scene to RGBA too.
    var suitsPalette: Bool {
        layers.allSatisfy { layer in
            switch layer {
            case .basemap: false
            case .vectorMap: true
            case .route(let route): route.bands == nil && route.ramp != nil
            case .background, .marker, .scaleBar, .attribution: true
            }
        }
    }

    /// Whether a raster basemap is one of the layers (and the scene has no colour ramp: a
    /// route coloured by speed or elevation keeps its smooth colours in RGB).
    var drawsRasterBasemap: Bool {
        layers.contains { if case .basemap = $0 { true } else { false } }
            && !layers.contains { if case .route(let route) = $0 { route.bands != nil } else { false } }
    }

    /// Whether a vector map is one of the layers.
    var drawsVectorMap: Bool {
        layers.contains { if case .vectorMap = $0 { true } else { false } }
    }

    /// The scale bar's (and the attribution's) look for an image: dots of one point on thumbnails
    /// and two on large images, so the label reads at both; a margin of 6 points.
    static func labelStyle(_ options: RenderOptions) -> ScaleBarStyle {
        let dotPoints = options.widthPoints >= 640 ? 2.0 : 1.0
        return ScaleBarStyle(
            color: options.style.scaleBarColor, haloColor: options.style.scaleBarHaloColor,
            dotPixels: Int((dotPoints * options.scale).rounded()), marginPixels: Int((6 * options.scale).rounded()))
    }
}
