/// One drawable layer of a style, compiled: what it draws, from which source layer, at which
/// zooms, with its filter and paint values as expression trees.
package struct StyleLayer: Sendable {
    /// What a layer draws.
    package enum Kind: Sendable {
        /// The whole image in one colour (`background`).
        case background
        /// Polygons (`fill`, and `fill-extrusion` drawn flat).
        case fill
        /// Lines (`line`), and polygon outlines when a line layer reads polygons.
        case line
    }

    /// The layer's position in the document's `layers` list.
    package let index: Int
    /// The layer's `id`.
    package let id: String
    /// What the layer draws.
    package let kind: Kind
    /// True for a `fill-extrusion` layer, drawn as a flat fill.
    package let isFlattenedExtrusion: Bool
    /// The `source` the layer reads (a key of `MapStyleDocument.sources`); nil for a background.
    package let sourceName: String?
    /// The `source-layer` (the tile layer's name, like "water" or "transportation").
    package let sourceLayer: String?
    /// The layer is drawn from this zoom up (`minzoom`), when set.
    package let minimumZoom: StyleZoom?
    /// The layer is hidden from this zoom up (`maxzoom`), when set.
    package let maximumZoom: StyleZoom?
    let filter: Expression?
    let paint: LayerPaint

    /// Whether the layer is drawn at `zoom` (MapLibre: hidden below `minzoom` and at or above `maxzoom`).
    package func isDrawn(at zoom: StyleZoom) -> Bool {
        if let minimumZoom, zoom < minimumZoom { return false }
        if let maximumZoom, zoom >= maximumZoom { return false }
        return true
    }
}

/// A layer's paint and layout values, each an expression (a constant when the style gives a
/// constant or nothing: the spec's defaults are filled in here).
struct LayerPaint: Sendable {
    /// `background-color`, `fill-color`, `line-color` or `fill-extrusion-color`. Default: black.
    var color: Expression = .constant(.color(.black))
    /// The matching `…-opacity`. Default: 1.
    var opacity: Expression = .constant(.number(1))
    /// `fill-outline-color`; nil draws the outline in the fill colour. Default: nil.
    var outlineColor: Expression?
    /// `fill-antialias`. Default: true.
    var antialias: Expression = .constant(.bool(true))
    /// `line-width` in CSS pixels. Default: 1.
    var width: Expression = .constant(.number(1))
    /// `line-gap-width` in CSS pixels: draws two lines this far apart (casings). Default: 0.
    var gapWidth: Expression = .constant(.number(0))
    /// `line-dasharray` in line widths; nil for a solid line. Default: nil.
    var dashes: Expression?
    /// `line-cap`. Default: "butt".
    var cap: Expression = .constant(.string("butt"))
    /// `line-join`. Default: "miter".
    var join: Expression = .constant(.string("miter"))

    /// The values a layer's properties are kept in.
    enum Slot: Sendable {
        case color, opacity, outlineColor, antialias, width, gapWidth, dashes, cap, join
    }

    /// Keeps `value` in `slot`.
    mutating func set(_ slot: Slot, _ value: Expression) {
        switch slot {
        case .color: color = value
        case .opacity: opacity = value
        case .outlineColor: outlineColor = value
        case .antialias: antialias = value
        case .width: width = value
        case .gapWidth: gapWidth = value
        case .dashes: dashes = value
        case .cap: cap = value
        case .join: join = value
        }
    }

    /// Every value with the zoom fixed (`Expression.specialized(zoom:)`).
    func specialized(zoom: Double) -> LayerPaint {
        var paint = self
        paint.color = color.specialized(zoom: zoom)
        paint.opacity = opacity.specialized(zoom: zoom)
        paint.outlineColor = outlineColor?.specialized(zoom: zoom)
        paint.antialias = antialias.specialized(zoom: zoom)
        paint.width = width.specialized(zoom: zoom)
        paint.gapWidth = gapWidth.specialized(zoom: zoom)
        paint.dashes = dashes?.specialized(zoom: zoom)
        paint.cap = cap.specialized(zoom: zoom)
        paint.join = join.specialized(zoom: zoom)
        return paint
    }

    /// Whether any value depends on the feature (else one value serves every feature of the layer).
    var isDataDriven: Bool {
        [color, opacity, antialias, width, gapWidth, cap, join].contains { $0.dependencies.feature }
            || (outlineColor?.dependencies.feature ?? false) || (dashes?.dependencies.feature ?? false)
    }
}
