/// The kind of geometry a feature has, as a style's filters see it (`$type`, `geometry-type`).
package enum FeatureGeometryType: Sendable {
    /// A point or several points.
    case point
    /// A line string or several.
    case line
    /// A polygon or several.
    case polygon

    /// The name style documents compare with: "Point", "LineString" or "Polygon".
    package var styleName: String {
        switch self {
        case .point: "Point"
        case .line: "LineString"
        case .polygon: "Polygon"
        }
    }
}

/// A property value of a feature (vector tiles carry strings, numbers of several widths and booleans).
package enum FeatureValue: Equatable, Sendable {
    /// A string.
    case string(String)
    /// Any number (vector tiles' int, uint, sint, float and double all read as this).
    case number(Double)
    /// A boolean.
    case bool(Bool)
}

/// What a style needs to know about a feature to filter it and colour it. The renderer adapts its
/// decoded tile features to this; MapStyle reads nothing else of them (not the geometry).
package protocol StyleFeature {
    /// Point, line or polygon.
    var geometryType: FeatureGeometryType { get }
    /// The feature's id, when the tile has one.
    var identifier: UInt64? { get }
    /// The value of the property `key`, or nil when the feature has none.
    func property(_ key: String) -> FeatureValue?
}
