import TrackSynthesis
import VectorTiles

/// Re-encodes an OpenMapTiles-schema tile in the Protomaps basemap schema (v4 layer names and
/// `kind`/`kind_detail` properties), so the built-in Protomaps styles can be drawn over real
/// OpenStreetMap data: the Liechtenstein fixture has no Protomaps build of its own.
///
/// The mapping covers what the built-in styles draw; label layers (`place`, `poi`, `*_name`,
/// `housenumber`, `mountain_peak`, `aerodrome_label`) are dropped, as the styles skip labels.
/// OpenMapTiles has no land polygons (its background is land), so every converted tile gets one
/// `earth` square over the whole tile and its buffer: right for a landlocked extract.
enum ProtomapsTileConverter {
    typealias Feature = SyntheticVectorTile.Feature
    typealias Value = SyntheticVectorTile.Value

    /// The tile's Protomaps layers, MVT-encoded (uncompressed), at the source tile's extent.
    static func convert(_ tile: VectorTile.Decoded) -> [UInt8] {
        let extent = tile.layers.first?.extent ?? 4096
        var layers: [String: [Feature]] = [:]
        let buffer = Int32(extent / 16)
        let side = Int32(extent)
        layers["earth"] = [
            .polygon(
                properties: [("kind", .string("earth"))],
                rings: [[(-buffer, -buffer), (side + buffer, -buffer), (side + buffer, side + buffer), (-buffer, side + buffer)]])
        ]
        for layer in tile.layers {
            for feature in layer.features {
                let properties = Dictionary(feature.properties.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
                guard let (target, converted) = convert(layer: layer.name, properties: properties) else { continue }
                guard let encoded = encode(feature.geometry, properties: converted) else { continue }
                layers[target, default: []].append(encoded)
            }
        }
        let order = ["earth", "landcover", "landuse", "water", "roads", "buildings", "boundaries"]
        return SyntheticVectorTile.encode(
            order.compactMap { name in layers[name].map { SyntheticVectorTile.Layer(name: name, extent: UInt64(extent), features: $0) } })
    }

    /// The Protomaps layer and properties of one OpenMapTiles feature; nil for what the
    /// built-in styles do not draw.
    private static func convert(layer: String, properties: [String: VectorTileValue]) -> (String, [(key: String, value: Value)])? {
        let `class` = properties["class"]?.string ?? ""
        let subclass = properties["subclass"]?.string
        switch layer {
        case "water":
            if properties["brunnel"]?.string == "tunnel" { return nil }
            return ("water", [("kind", .string(["lake", "ocean", "river"].contains(`class`) ? `class` : "water"))])
        case "waterway":
            if properties["brunnel"]?.string == "tunnel" { return nil }
            return ("water", [("kind", .string(`class`.isEmpty ? "stream" : `class`))])
        case "landcover":
            // Protomaps keeps OpenStreetMap's natural areas in `landuse` at detail zooms; its
            // `landcover` layer is a coarse global cover (farmland, glacier, barren, …).
            switch `class` {
            case "wood": return ("landuse", [("kind", .string(subclass == "forest" ? "forest" : "wood"))])
            case "grass": return ("landuse", [("kind", .string("grass"))])
            case "scrub": return ("landuse", [("kind", .string("scrub"))])
            case "farmland": return ("landcover", [("kind", .string("farmland"))])
            case "ice": return ("landcover", [("kind", .string("glacier"))])
            case "rock", "sand": return ("landcover", [("kind", .string("barren"))])
            default: return nil
            }
        case "landuse":
            let kinds = ["suburb": "residential", "neighbourhood": "residential", "commercial": "industrial", "retail": "industrial"]
            return ("landuse", [("kind", .string(kinds[`class`] ?? `class`))])
        case "park": return ("landuse", [("kind", .string(`class`.isEmpty ? "park" : `class`))])
        case "aeroway":
            if ["runway", "taxiway"].contains(`class`) { return ("roads", [("kind", .string("other")), ("kind_detail", .string(`class`))]) }
            return `class` == "aerodrome" ? ("landuse", [("kind", .string("aerodrome"))]) : nil
        case "building": return ("buildings", [("kind", .string("building"))])
        case "transportation": return road(class: `class`, subclass: subclass, properties: properties)
        case "boundary":
            // Protomaps keeps countries (admin_level 2) and regions (3–4) only.
            guard let level = properties["admin_level"]?.number, level <= 4, properties["maritime"]?.number != 1 else { return nil }
            return ("boundaries", [("kind", .string(level <= 2 ? "country" : "region")), ("kind_detail", .int(Int64(level)))])
        default: return nil
        }
    }

    /// OpenMapTiles `transportation` classes as Protomaps road kinds: `kind_detail` is the OSM
    /// `highway` (or `railway`) value the class stands for.
    private static func road(class: String, subclass: String?, properties: [String: VectorTileValue]) -> (String, [(key: String, value: Value)])? {
        let kind: String, detail: String
        switch `class` {
        case "motorway": (kind, detail) = ("highway", "motorway")
        case "trunk", "primary", "secondary", "tertiary": (kind, detail) = ("major_road", `class`)
        case "minor": (kind, detail) = ("minor_road", "residential")
        case "service": (kind, detail) = ("minor_road", "service")
        case "track": (kind, detail) = ("path", "track")
        case "path": (kind, detail) = ("path", subclass ?? "path")
        case "rail", "transit": (kind, detail) = ("rail", subclass ?? "rail")
        case "ferry": (kind, detail) = ("ferry", "ferry")
        default: return nil
        }
        var converted: [(key: String, value: Value)] = [("kind", .string(kind)), ("kind_detail", .string(detail))]
        if properties["ramp"]?.number == 1 { converted.append(("is_link", .bool(true))) }
        switch properties["brunnel"]?.string {
        case "bridge": converted.append(("is_bridge", .bool(true)))
        case "tunnel": converted.append(("is_tunnel", .bool(true)))
        default: break
        }
        return ("roads", converted)
    }

    /// The feature re-encoded: exterior rings clockwise on screen and holes counter-clockwise,
    /// as MVT 2.1 §4.3.4.4 asks (the decoder grouped them by winding already); nil for points.
    private static func encode(_ geometry: VectorTileGeometry, properties: [(key: String, value: Value)]) -> Feature? {
        switch geometry {
        case .lines(let lines):
            return .lines(properties: properties, lines.map { $0.map { (x: $0.x, y: $0.y) } })
        case .polygons(let polygons):
            let rings = polygons.flatMap { polygon in
                [oriented(polygon.exterior, positive: true)] + polygon.holes.map { oriented($0, positive: false) }
            }
            return .polygon(properties: properties, rings: rings.filter { $0.count >= 3 })
        case .points, .unknown: return nil
        }
    }

    /// `ring` without a repeated closing point, turned to the winding whose shoelace area (y down) is positive or negative.
    private static func oriented(_ ring: [TilePoint], positive: Bool) -> [(x: Int32, y: Int32)] {
        var points = ring.map { (x: $0.x, y: $0.y) }
        if points.count > 1, let first = points.first, let last = points.last, first == last { points.removeLast() }
        var twiceArea: Int64 = 0
        for index in points.indices {
            let next = points[(index + 1) % points.count]
            twiceArea += Int64(points[index].x) * Int64(next.y) - Int64(next.x) * Int64(points[index].y)
        }
        return (twiceArea > 0) == positive ? points : points.reversed()
    }
}
