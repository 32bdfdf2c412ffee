import MapStyle
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A feature with the properties a test gives it.
struct TestFeature: StyleFeature {
    var geometryType: FeatureGeometryType = .line
    var identifier: UInt64?
    var properties: [String: FeatureValue] = [:]

    init(_ geometryType: FeatureGeometryType = .line, id: UInt64? = nil, _ properties: [String: FeatureValue] = [:]) {
        self.geometryType = geometryType
        self.identifier = id
        self.properties = properties
    }

    func property(_ key: String) -> FeatureValue? { properties[key] }
}

/// A style document around `layers` (JSON text of the list's items) with one vector source "tiles".
func styleDocument(_ layers: String) throws(MapStyleError) -> MapStyleDocument {
    let json = #"{"version": 8, "sources": {"tiles": {"type": "vector", "url": "https://example.org/tiles.json"}}, "layers": ["# + layers + "]}"
    return try MapStyleDocument(bytes: Array(json.utf8))
}

/// The rule of a single line layer with `paint` (and `filter`, `layout`) at TrackSnap's zoom `zoom256`.
func lineRule(paint: String, filter: String? = nil, layout: String = "{}", zoom256: Double = 12) throws(MapStyleError) -> DrawRule? {
    let filterMember = filter.map { #", "filter": \#($0)"# } ?? ""
    let layer = #"{"id": "l", "type": "line", "source": "tiles", "source-layer": "roads", "paint": \#(paint), "layout": \#(layout)\#(filterMember)}"#
    return try styleDocument(layer).drawRules(zoom256: zoom256).first
}

/// The error message reading `json` (a whole document) gives, or "no error".
func styleError(_ json: String) -> String {
    do {
        _ = try MapStyleDocument(bytes: Array(json.utf8))
        return "no error"
    } catch {
        return error.description
    }
}

/// The error message of a document with the given layers.
func layersError(_ layers: String) -> String {
    styleError(#"{"version": 8, "sources": {"tiles": {"type": "vector"}}, "layers": ["# + layers + "]}")
}

/// Two numbers within a millionth of each other.
func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-6 } ?? false }

/// Two colours within a thousandth per channel.
func close(_ a: StyleColor?, _ b: StyleColor) -> Bool {
    guard let a else { return false }
    return abs(a.red - b.red) < 1e-3 && abs(a.green - b.green) < 1e-3 && abs(a.blue - b.blue) < 1e-3 && abs(a.alpha - b.alpha) < 1e-3
}

/// A file's bytes (for comparing the embedded styles with their files).
func fileBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { return bytes }
        bytes += buffer[..<count]
    }
}
