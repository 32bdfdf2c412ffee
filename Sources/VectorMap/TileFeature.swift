import MapStyle
import VectorTiles

/// A decoded tile feature as a style sees it: its geometry type and properties, no geometry.
struct TileFeature: StyleFeature {
    let feature: VectorTile.DecodedFeature

    var geometryType: FeatureGeometryType {
        switch feature.geometry {
        case .points, .unknown: .point
        case .lines: .line
        case .polygons: .polygon
        }
    }

    var isMultiPart: Bool {
        switch feature.geometry {
        case .points(let points): points.count > 1
        case .lines(let lines): lines.count > 1
        case .polygons(let polygons): polygons.count > 1
        case .unknown: false
        }
    }

    var identifier: UInt64? { feature.id }

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
