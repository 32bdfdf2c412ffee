import JSONDocument

extension StyleLayer {
    /// What became of one entry of `layers`.
    enum Reading {
        /// A layer to draw, with a warning when some of its properties are not drawn.
        case drawn(StyleLayer, warning: MapStyleWarning?)
        /// A `symbol` (label) layer: skipped, counted.
        case symbol
        /// `layout.visibility` is "none".
        case hidden
        /// A layer type or a property that is not drawn at all: skipped with a warning.
        case skipped(MapStyleWarning)
    }

    /// A value's key in `paint` or `layout`: what it is read as and where it is kept.
    private struct PropertySpec: Sendable {
        let kind: ValueKind
        let slot: LayerPaint.Slot
    }

    private static func spec(_ kind: ValueKind, _ slot: LayerPaint.Slot) -> PropertySpec { PropertySpec(kind: kind, slot: slot) }

    /// The properties read, per layer type (`paint` and `layout` keys together: the spec keeps their names apart).
    private static let properties: [String: [String: PropertySpec]] = [
        "background": ["background-color": spec(.color, .color), "background-opacity": spec(.number, .opacity)],
        "fill": [
            "fill-color": spec(.color, .color), "fill-opacity": spec(.number, .opacity),
            "fill-outline-color": spec(.color, .outlineColor), "fill-antialias": spec(.bool, .antialias),
        ],
        "fill-extrusion": ["fill-extrusion-color": spec(.color, .color), "fill-extrusion-opacity": spec(.number, .opacity)],
        "line": [
            "line-color": spec(.color, .color), "line-opacity": spec(.number, .opacity), "line-width": spec(.number, .width),
            "line-gap-width": spec(.number, .gapWidth), "line-dasharray": spec(.numberArray, .dashes),
            "line-cap": spec(.enumeration(["butt", "round", "square"]), .cap),
            "line-join": spec(.enumeration(["bevel", "round", "miter"]), .join),
        ],
    ]

    /// Properties whose drawing would change the picture but is not done: the layer is drawn without
    /// them, with a warning.
    private static let ignoredWithWarning: Set<String> = [
        "fill-translate", "fill-translate-anchor", "line-blur", "line-offset", "line-translate", "line-translate-anchor",
        "fill-extrusion-translate", "fill-extrusion-translate-anchor",
    ]
    /// Properties without an effect on a flat map at one zoom: ignored silently.
    private static let ignoredSilently: Set<String> = [
        "visibility", "fill-sort-key", "line-sort-key", "line-miter-limit", "line-round-limit", "fill-extrusion-height",
        "fill-extrusion-base", "fill-extrusion-vertical-gradient",
    ]
    /// Properties that replace the colour with an image: the layer is skipped, with a warning.
    private static let patterns: Set<String> = ["background-pattern", "fill-pattern", "line-pattern", "line-gradient", "fill-extrusion-pattern"]
    /// The keys a layer may have.
    private static let layerKeys: Set<String> = [
        "id", "type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint", "metadata",
    ]

    /// Reads `layers[index]`.
    static func read(_ json: JSONValue, index: Int) throws(MapStyleError) -> Reading {
        guard let members = json.object else {
            throw MapStyleError(location: "layers[\(index)]", problem: "expected an object, found \(json.description)")
        }
        guard let id = members["id"]?.string else {
            throw MapStyleError(location: "layers[\(index)].id", problem: "expected the layer's id in quotes")
        }
        let compiler = ExpressionCompiler(layerLocation: "layers[\(index)] \"\(id)\"")
        for key in members.keys.sorted() where !layerKeys.contains(key) {
            throw compiler.error(key, key == "ref" ? "layers that \"ref\" another layer are not supported" : "unknown layer key")
        }
        guard let type = members["type"]?.string else { throw compiler.error("type", "expected the layer's type in quotes") }
        let layout = try section(members, "layout", compiler), paint = try section(members, "paint", compiler)
        if let visibility = layout["visibility"] {
            guard visibility == .string("visible") || visibility == .string("none") else {
                throw compiler.error("layout.visibility", "expected \"visible\" or \"none\", found \(visibility.description)")
            }
            if visibility == .string("none") { return .hidden }
        }
        if type == "symbol" { return .symbol }
        guard let specs = properties[type] else { return .skipped(MapStyleWarning(layerID: id, message: "layer type \"\(type)\" is not drawn")) }
        let used = (paint.keys.map { ("paint", $0) } + layout.keys.map { ("layout", $0) }).filter { !$0.1.hasSuffix("-transition") }
        if let pattern = used.map(\.1).sorted().first(where: patterns.contains) {
            return .skipped(MapStyleWarning(layerID: id, message: "\(pattern) is not drawn, so the layer is skipped"))
        }
        var values = LayerPaint()
        var ignored: [String] = []
        for (section, key) in used.sorted(by: { $0.1 < $1.1 }) {
            let json = (section == "paint" ? paint : layout)[key]!
            if let spec = specs[key] {
                let value = try compiler.value(json, kind: spec.kind, path: "\(section).\(key)")
                values.set(spec.slot, value)
            } else if ignoredWithWarning.contains(key) {
                ignored.append(key)
            } else if !ignoredSilently.contains(key) {
                throw compiler.error("\(section).\(key)", "unknown \(section) property for a \"\(type)\" layer")
            }
        }
        let layer = StyleLayer(
            index: index, id: id, kind: type == "background" ? .background : type == "line" ? .line : .fill,
            isFlattenedExtrusion: type == "fill-extrusion", sourceName: try string(members, "source", compiler),
            sourceLayer: try string(members, "source-layer", compiler), minimumZoom: try zoom(members, "minzoom", compiler),
            maximumZoom: try zoom(members, "maxzoom", compiler),
            filter: try members["filter"].map { json throws(MapStyleError) in
                try compiler.filter(json, path: "filter")
            }, paint: values)
        if type != "background", layer.sourceName == nil { throw compiler.error("source", "expected the name of a source") }
        let warning = ignored.isEmpty ? nil : MapStyleWarning(layerID: id, message: "\(ignored.joined(separator: ", ")) not drawn")
        return .drawn(layer, warning: warning)
    }

    private static func section(_ members: [String: JSONValue], _ key: String, _ compiler: ExpressionCompiler) throws(MapStyleError) -> [String:
        JSONValue]
    {
        guard let value = members[key] else { return [:] }
        guard let object = value.object else { throw compiler.error(key, "expected an object, found \(value.description)") }
        return object
    }

    private static func string(_ members: [String: JSONValue], _ key: String, _ compiler: ExpressionCompiler) throws(MapStyleError) -> String? {
        guard let value = members[key] else { return nil }
        guard let text = value.string else { throw compiler.error(key, "expected a name in quotes, found \(value.description)") }
        return text
    }

    private static func zoom(_ members: [String: JSONValue], _ key: String, _ compiler: ExpressionCompiler) throws(MapStyleError) -> StyleZoom? {
        guard let value = members[key] else { return nil }
        guard let number = value.number, (0...24).contains(number) else {
            throw compiler.error(key, "expected a zoom 0...24, found \(value.description)")
        }
        return StyleZoom(styleValue: number)
    }
}
