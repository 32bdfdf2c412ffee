import JSONDocument
import Raster
import SnapshotRendering
import ThumbnailCache

/// Walks a parsed style document, one reading function per section (`StyleReader+Sections`,
/// `StyleReader+Basemap`), naming the key path in every error. Sections are read in the order
/// below, so the first error a document has is the one reported.
struct StyleReader {
    /// The file's name, for errors.
    let file: String
    /// Reads the map style file `basemap.style` names; nil when the caller reads none.
    var mapStyle: ((String) throws -> String)? = nil

    /// An error at `path`.
    func fail(_ path: String, _ message: String) -> StyleError { StyleError(file: file, keyPath: path, message: message) }

    /// The settings `root` describes over `base`; `override` (the `--theme` option) wins over the
    /// document's theme.
    func settings(_ root: [String: JSONValue], theme override: Theme?, base: ThumbnailSettings) throws(StyleError) -> ThumbnailSettings {
        try known(
            root, "",
            [
                "version", "theme", "thumbnail", "detail", "padding", "min_span_m", "route", "casing", "grid", "markers", "scale_bar", "basemap",
                "overview",
            ])
        let theme = try versionAndTheme(root)
        var settings = base
        settings.options.style = SnapshotStyle(theme: override ?? theme)
        try readImages(root, into: &settings)
        if let value = root["padding"] { settings.options.paddingFraction = try number(value, "padding", range: 0...0.45, upperExcluded: true) }
        if let value = root["min_span_m"] {
            settings.options.minimumGroundSpanMeters = try number(value, "min_span_m", range: RenderOptions.minimumGroundSpanRangeMeters)
        }
        var style = settings.options.style
        if let value = root["route"] { try readRoute(value, into: &style) }
        if let value = root["casing"] { try readCasing(value, into: &style) }
        if let value = root["grid"] { try readGrid(value, into: &style) }
        if let value = root["markers"] { try readMarkers(value, into: &style) }
        if let value = root["scale_bar"] { try readScaleBar(value, into: &style) }
        if let value = root["basemap"] { settings.options.basemap = try basemap(value) }
        if let value = root["overview"] { settings.overviewRegions = try readOverview(value) }
        settings.options.style = style
        if let problem = settings.validationProblem() { throw fail("", problem) }
        return settings
    }

    /// Checks `"version"` (required, so a future format is never misread) and reads `"theme"`.
    private func versionAndTheme(_ root: [String: JSONValue]) throws(StyleError) -> Theme {
        guard let version = root["version"] else { throw fail("version", "missing (this build reads version \(StyleFile.version))") }
        guard version.number == Double(StyleFile.version) else {
            throw fail("version", "expected \(StyleFile.version), found \(describe(version))")
        }
        guard let value = root["theme"] else { return .light }
        guard let text = value.string, let theme = Theme(rawValue: text) else {
            throw fail("theme", "expected one of \(Theme.allCases.map(\.rawValue)), found \(describe(value))")
        }
        return theme
    }

    // MARK: Values

    /// Fails naming the first key of `object` not in `keys` (sorted, so the report is stable).
    func known(_ object: [String: JSONValue], _ path: String, _ keys: Set<String>) throws(StyleError) {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            let at = path.isEmpty ? unknown : path + "." + unknown
            throw fail(at, "unknown key (expected one of \(keys.sorted().joined(separator: ", ")))")
        }
    }

    /// The members of an object whose keys are all in `keys`.
    func object(_ value: JSONValue, _ path: String, _ keys: Set<String>) throws(StyleError) -> [String: JSONValue] {
        guard let object = value.object else { throw fail(path, "expected an object, found \(describe(value))") }
        try known(object, path, keys)
        return object
    }

    /// Every number read is bounded (`range`): an outside value that reached the renderer
    /// unchecked became an integer conversion that trapped or a loop that never ended.
    func number(
        _ value: JSONValue, _ path: String, range: ClosedRange<Double>, lowerExcluded: Bool = false, upperExcluded: Bool = false
    ) throws(StyleError) -> Double {
        guard let number = value.number, number.isFinite else {
            throw fail(path, "expected a number, found \(describe(value))")
        }
        let low = lowerExcluded ? number > range.lowerBound : number >= range.lowerBound
        let high = upperExcluded ? number < range.upperBound : number <= range.upperBound
        if !(low && high) {
            let from = lowerExcluded ? "above \(range.lowerBound)" : "from \(range.lowerBound)"
            let to = upperExcluded ? "below \(range.upperBound)" : "to \(range.upperBound)"
            throw fail(path, "expected a number \(from) \(to), found \(number)")
        }
        return number
    }

    /// A colour `"#RRGGBB"` or `"#RRGGBBAA"`.
    func color(_ value: JSONValue, _ path: String) throws(StyleError) -> RGBAColor {
        guard let text = value.string, let color = RGBAColor(hex: text) else {
            throw fail(path, "expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", found \(describe(value))")
        }
        return color
    }

    /// How an error shows a value.
    func describe(_ value: JSONValue) -> String { value.description }
}
