/// A zoom level as a style document counts it: for 512-pixel tiles.
///
/// A style's zoom z shows the world as large as TrackSnap's 256-pixel zoom z + 1 (MapLibre draws
/// 512-pixel tiles), so every `minzoom`, `maxzoom` and zoom stop in a style is one less than the
/// TrackSnap zoom at which it takes effect. This initializer is the one place that converts.
package struct StyleZoom: Comparable, Sendable {
    /// The zoom in the style's own unit (512-pixel tiles).
    package var value: Double

    /// The style zoom of an image drawn at TrackSnap's (256-pixel tile) zoom `zoom256`.
    package init(zoom256: Double) { value = zoom256 - 1 }

    /// A zoom already in the style's unit (for tests and for reading the document).
    init(styleValue: Double) { value = styleValue }

    /// Orders zooms by value.
    package static func < (lhs: StyleZoom, rhs: StyleZoom) -> Bool { lhs.value < rhs.value }
}
