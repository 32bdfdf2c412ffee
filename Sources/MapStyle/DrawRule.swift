/// A layer ready to draw one image: its filter and paint values with the zoom already applied, so
/// each feature evaluates only what depends on it. Widths are CSS pixels at @1x (double them at @2x).
package struct DrawRule: Sendable {
    /// The layer drawn (id, kind, source and source layer).
    package let layer: StyleLayer
    /// The style zoom the rule was made for.
    package let zoom: StyleZoom
    private let filter: Expression?
    private let paint: LayerPaint
    /// Whether any paint value depends on the feature; when false, `color()`, `opacity()`,
    /// `lineWidthPixels()` … (without a feature) hold for every feature of the layer.
    package let isDataDriven: Bool

    init(layer: StyleLayer, zoom: StyleZoom) {
        self.layer = layer
        self.zoom = zoom
        filter = layer.filter?.specialized(zoom: zoom.value)
        paint = layer.paint.specialized(zoom: zoom.value)
        isDataDriven = paint.isDataDriven
    }

    /// True when the layer has no filter, or one that is true for every feature at this zoom.
    package var matchesEverything: Bool { filter?.constantValue.map { $0 == .bool(true) } ?? true }

    /// True when the filter rejects every feature at this zoom (the layer can be skipped).
    package var matchesNothing: Bool { filter?.constantValue.map { $0 != .bool(true) } ?? false }

    /// Whether the layer draws `feature` (its filter is true; no filter draws everything).
    package func matches<Feature: StyleFeature>(_ feature: Feature) -> Bool {
        guard let filter else { return true }
        return filter.evaluate(feature, zoom: zoom.value) == .bool(true)
    }

    /// The fill, line or background colour for `feature`, before opacity.
    package func color<Feature: StyleFeature>(for feature: Feature) -> StyleColor { color(paint.color, feature) ?? .black }
    /// The opacity (`…-opacity`) for `feature`, 0...1.
    package func opacity<Feature: StyleFeature>(for feature: Feature) -> Double { min(max(number(paint.opacity, feature) ?? 1, 0), 1) }
    /// `fill-outline-color` for `feature`; nil when the outline takes the fill colour. MapLibre draws
    /// the outline as a 1-pixel line, and only while `fill-antialias` is true.
    package func outlineColor<Feature: StyleFeature>(for feature: Feature) -> StyleColor? { paint.outlineColor.flatMap { color($0, feature) } }
    /// `fill-antialias` for `feature`.
    package func antialias<Feature: StyleFeature>(for feature: Feature) -> Bool {
        paint.antialias.evaluate(feature, zoom: zoom.value) != .bool(false)
    }
    /// `line-width` for `feature`, CSS pixels at @1x, ≥ 0.
    package func lineWidthPixels<Feature: StyleFeature>(for feature: Feature) -> Double { max(number(paint.width, feature) ?? 1, 0) }
    /// `line-gap-width` for `feature`, CSS pixels at @1x: when above 0 the line is drawn twice, each
    /// `lineWidthPixels` wide, on either side of a gap this wide (how road casings are drawn).
    package func lineGapWidthPixels<Feature: StyleFeature>(for feature: Feature) -> Double { max(number(paint.gapWidth, feature) ?? 0, 0) }
    /// `line-dasharray` for `feature`: dash and gap lengths in line widths, alternating; nil for a solid line.
    package func lineDashes<Feature: StyleFeature>(for feature: Feature) -> [Double]? {
        guard let dashes = paint.dashes, case .array(let items) = dashes.evaluate(feature, zoom: zoom.value) else { return nil }
        let lengths = items.compactMap { $0.number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        return lengths.count == items.count && lengths.contains(where: { $0 > 0 }) ? lengths : nil
    }
    /// `line-cap` for `feature`.
    package func lineCap<Feature: StyleFeature>(for feature: Feature) -> LineCap {
        paint.cap.evaluate(feature, zoom: zoom.value).string.flatMap(LineCap.init(rawValue:)) ?? .butt
    }
    /// `line-join` for `feature`.
    package func lineJoin<Feature: StyleFeature>(for feature: Feature) -> LineJoin {
        paint.join.evaluate(feature, zoom: zoom.value).string.flatMap(LineJoin.init(rawValue:)) ?? .miter
    }

    /// The colour of a background layer, or of any layer whose paint is not data-driven.
    package func color() -> StyleColor { color(for: NoFeature()) }
    /// The opacity of a background layer, or of any layer whose paint is not data-driven.
    package func opacity() -> Double { opacity(for: NoFeature()) }

    /// A number value; nil (the property's default) when it is not a finite number.
    private func number<Feature: StyleFeature>(_ expression: Expression, _ feature: Feature) -> Double? {
        expression.evaluate(feature, zoom: zoom.value).number.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A colour value; a string (from a feature's property) is read as CSS.
    private func color<Feature: StyleFeature>(_ expression: Expression, _ feature: Feature) -> StyleColor? {
        switch expression.evaluate(feature, zoom: zoom.value) {
        case .color(let color): color
        case .string(let text): StyleColor(css: text)
        default: nil
        }
    }
}

/// How a line ends (`line-cap`).
package enum LineCap: String, Sendable {
    /// Square, at the end point.
    case butt
    /// A half circle beyond the end point.
    case round
    /// Square, half a width beyond the end point.
    case square
}

/// How a line turns a corner (`line-join`).
package enum LineJoin: String, Sendable {
    /// Cut off square across the corner.
    case bevel
    /// Rounded.
    case round
    /// Pointed (up to the spec's miter limit of 2).
    case miter
}
