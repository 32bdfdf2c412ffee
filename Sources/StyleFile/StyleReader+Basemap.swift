import JSONDocument
import MapTiles

extension StyleReader {
    /// `"basemap"`: the map under the track (a source, its opacity, attribution, overzoom, URL
    /// subdomains and the map style of a vector source), or nil for `false`.
    func basemap(_ value: JSONValue) throws(StyleError) -> BasemapSettings? {
        guard value != .bool(false) else { return nil }
        let map = try object(value, "basemap", ["source", "opacity", "attribution", "max_overzoom", "subdomains", "style"])
        guard let source = map["source"]?.string, !source.isEmpty else {
            throw fail("basemap.source", "expected an .mbtiles file, a tile folder or an http(s) URL template with {z}/{x}/{y}")
        }
        var basemap = BasemapSettings(source: source)
        if let v = map["opacity"] { basemap.opacity = try number(v, "basemap.opacity", range: 0...1) }
        if let v = map["attribution"] {
            guard let text = v.string else { throw fail("basemap.attribution", "expected a string, found \(describe(v))") }
            basemap.attribution = text
        }
        if let v = map["max_overzoom"] { basemap.maximumOverzoomLevels = Int(try number(v, "basemap.max_overzoom", range: 0...6)) }
        if let v = map["subdomains"] {
            // Leaflet's two forms: "abc" (one letter each) or ["a", "b", "c"].
            if let text = v.string {
                basemap.subdomains = text.map(String.init)
            } else if let items = v.array, let names = Optional(items.compactMap(\.string)), names.count == items.count {
                basemap.subdomains = names
            } else {
                throw fail("basemap.subdomains", "expected a string like \"abc\" or a list of names, found \(describe(v))")
            }
        }
        if let v = map["style"] {
            guard let path = v.string, !path.isEmpty else {
                throw fail("basemap.style", "expected the path of a MapLibre style file, found \(describe(v))")
            }
            guard let mapStyle else { throw fail("basemap.style", "a map style file cannot be read here") }
            do {
                basemap.mapStyle = try mapStyle(path)
            } catch {
                throw fail("basemap.style", "\(error)")
            }
        }
        if let problem = basemap.validationProblem() { throw fail("basemap", problem) }
        return basemap
    }
}
