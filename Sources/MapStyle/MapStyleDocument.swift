import JSONDocument

/// A MapLibre GL style document, read once and compiled: its sources, its drawable layers in
/// order, and what of it is not drawn. Pure: bytes in, draw rules out (`drawRules(zoom256:)`).
package struct MapStyleDocument: Sendable {
    /// The style's `name`, when it has one.
    package let name: String?
    /// The `sources`, by name (the `--basemap` source replaces their URLs).
    package let sources: [String: StyleSource]
    /// The layers drawn, in the document's order (bottom first).
    package let layers: [StyleLayer]
    /// What is not drawn: one warning per layer skipped or drawn without some properties.
    package let warnings: [MapStyleWarning]
    /// How many `symbol` (label) layers were skipped.
    package let symbolLayerCount: Int
    /// How many layers have `layout.visibility` "none".
    package let hiddenLayerCount: Int
    /// A 64-bit FNV-1a digest of the document's bytes: tells two documents apart cheaply (a
    /// painter keeps geometry prepared with one style for the next image only if it has the same).
    package let contentDigest: UInt64

    /// Reads a style document. Throws for JSON errors (with line and column), a document without
    /// `layers`, and anything in a layer outside the supported subset (with the layer and key path).
    package init(bytes: [UInt8]) throws(MapStyleError) {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            throw MapStyleError(location: "", problem: "not valid JSON: \(error.message)")
        }
        guard let members = root.object else { throw MapStyleError(location: "", problem: "expected a style object, found \(root.description)") }
        if let version = members["version"], version != .number(8) {
            throw MapStyleError(location: "version", problem: "expected 8, found \(version.description)")
        }
        guard let layerList = members["layers"] else { throw MapStyleError(location: "layers", problem: "the style has no \"layers\"") }
        guard let items = layerList.array else { throw MapStyleError(location: "layers", problem: "expected a list, found \(layerList.description)") }
        name = members["name"]?.string
        sources = try StyleSource.read(members["sources"])
        var layers: [StyleLayer] = [], warnings: [MapStyleWarning] = [], symbols = 0, hidden = 0
        for (index, item) in items.enumerated() {
            switch try StyleLayer.read(item, index: index) {
            case .drawn(let layer, let warning):
                if let sourceName = layer.sourceName, sources[sourceName] == nil {
                    throw MapStyleError(
                        location: "layers[\(index)] \"\(layer.id)\" source", problem: "no source named \"\(sourceName)\" in \"sources\"")
                }
                layers.append(layer)
                if let warning { warnings.append(warning) }
            case .symbol: symbols += 1
            case .hidden: hidden += 1
            case .skipped(let warning): warnings.append(warning)
            }
        }
        self.layers = layers
        contentDigest = bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        self.warnings = warnings
        symbolLayerCount = symbols
        hiddenLayerCount = hidden
    }

    /// The rules for one image drawn at TrackSnap's zoom `zoom256` (256-pixel tiles; the style's
    /// own zoom is one less, see `StyleZoom`): the layers drawn at that zoom, in order, with every
    /// zoom function already evaluated.
    package func drawRules(zoom256: Double) -> [DrawRule] {
        let zoom = StyleZoom(zoom256: zoom256)
        return layers.filter { $0.isDrawn(at: zoom) }.map { DrawRule(layer: $0, zoom: zoom) }
    }
}

/// One entry of a style's `sources`.
package struct StyleSource: Equatable, Sendable {
    /// `type`: "vector", "raster", "geojson", …
    package var type: String
    /// `url` (a TileJSON or `pmtiles://` address), when given.
    package var url: String?
    /// `tiles` (URL templates), when given.
    package var tiles: [String]

    /// A source of `type` at `url` or `tiles`.
    package init(type: String, url: String?, tiles: [String]) {
        self.type = type
        self.url = url
        self.tiles = tiles
    }

    static func read(_ json: JSONValue?) throws(MapStyleError) -> [String: StyleSource] {
        guard let json else { return [:] }
        guard let members = json.object else { throw MapStyleError(location: "sources", problem: "expected an object, found \(json.description)") }
        var sources: [String: StyleSource] = [:]
        for (name, value) in members {
            guard let source = value.object, let type = source["type"]?.string else {
                throw MapStyleError(location: "sources.\(name)", problem: "expected an object with a \"type\"")
            }
            let tiles = source["tiles"]?.array?.compactMap(\.string) ?? []
            sources[name] = StyleSource(type: type, url: source["url"]?.string, tiles: tiles)
        }
        return sources
    }
}
