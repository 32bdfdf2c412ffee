import MapStyle
import VectorTiles

/// A decoded tile feature as a style sees it: its geometry type and properties, no geometry.
struct TileFeature: StyleFeature {
    /// The feature adapted.
    let feature: VectorTile.DecodedFeature

    /// Point, line or polygon, from the geometry decoded.
    var geometryType: FeatureGeometryType {
        switch feature.geometry {
        case .points, .unknown: .point
        case .lines: .line
        case .polygons: .polygon
        }
    }

    /// The feature's id, when the tile has one.
    var identifier: UInt64? { feature.id }

    /// The property `key` as a style value (every number kind as a number).
    // Linear: a feature has a handful of tags, fewer than a dictionary's hashing would save.
    func property(_ key: String) -> FeatureValue? {
        guard let value = feature.properties.first(where: { $0.key == key })?.value else { return nil }
        switch value {
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        default: return value.number.map { .number($0) }
        }
    }
}
