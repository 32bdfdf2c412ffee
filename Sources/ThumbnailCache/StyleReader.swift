import JSONDocument
import MapTiles
import Raster
import SnapshotRendering

/// Walks a parsed style document, applying each key and naming the key path in every error.
struct StyleReader {
    let file: String

    func fail(_ path: String, _ message: String) -> StyleError { StyleError(file: file, keyPath: path, message: message) }

    mutating func apply(_ root: [String: JSONValue], theme override: Theme?, base: ThumbnailSettings) throws(StyleError) -> ThumbnailSettings {
        try known(
            root, "",
            ["version", "theme", "thumbnail", "detail", "padding", "min_span_m", "route", "casing", "grid", "markers", "scale_bar", "basemap"])
        guard let version = root["version"] else { throw fail("version", "missing (this build reads version \(StyleFile.version))") }
        guard version.number == Double(StyleFile.version) else {
            throw fail("version", "expected \(StyleFile.version), found \(describe(version))")
        }
        var theme = Theme.light
        if let value = root["theme"] {
            guard let text = value.string, let parsed = Theme(rawValue: text) else {
                throw fail("theme", "expected one of \(Theme.allCases.map(\.rawValue)), found \(describe(value))")
            }
            theme = parsed
        }
        var settings = base
        settings.options.style = SnapshotStyle(theme: override ?? theme)
        var style = settings.options.style

        if let value = root["thumbnail"] {
            let specs = try images(value, "thumbnail", role: .thumbnail, base: settings.images)
            settings.images = specs + settings.images.filter { $0.role != .thumbnail }
        }
        if let value = root["detail"] {
            let specs = value == .bool(false) ? [] : try images(value, "detail", role: .detail, base: settings.images)
            settings.images = settings.images.filter { $0.role != .detail } + specs
        }
        if let value = root["padding"] { settings.options.paddingFraction = try number(value, "padding", range: 0...0.45, upperExcluded: true) }
        if let value = root["min_span_m"] {
            settings.options.minimumGroundSpanMeters = try number(value, "min_span_m", range: RenderOptions.minimumGroundSpanRangeMeters)
        }

        if let value = root["route"] {
            let route = try object(value, "route", ["color", "width", "color_by", "band_colors"])
            if let v = route["color"] { style.routeColor = try color(v, "route.color") }
            if let v = route["width"] {
                if v.string == "road" {
                    style.strokeWidthPoints = nil
                } else {
                    guard v.string == nil else { throw fail("route.width", "expected \"road\" or a number of points, found \(describe(v))") }
                    style.strokeWidthPoints = try number(v, "route.width", range: 0...64, lowerExcluded: true)
                }
            }
            if let v = route["color_by"] {
                guard let text = v.string, let coloring = RouteColoring(rawValue: text) else {
                    throw fail("route.color_by", "expected one of \(RouteColoring.allCases.map(\.rawValue)), found \(describe(v))")
                }
                style.coloring = coloring
            }
            if let v = route["band_colors"] {
                guard let list = v.array, RouteColoring.bandCountRange.contains(list.count) else {
                    throw fail("route.band_colors", "expected a list of 8 to 10 colours, found \(describe(v))")
                }
                var colors: [RGBAColor] = []
                for (index, item) in list.enumerated() { colors.append(try color(item, "route.band_colors[\(index)]")) }
                style.bandColors = colors
            }
        }
        if let value = root["casing"] {
            if value == .bool(false) {
                style.drawsCasing = false
            } else {
                let casing = try object(value, "casing", ["color", "extra_width_points"])
                style.drawsCasing = true
                if let v = casing["color"] { style.casingColor = try color(v, "casing.color") }
                if let v = casing["extra_width_points"] { style.casingExtraWidthPoints = try number(v, "casing.extra_width_points", range: 0...32) }
            }
        }
        if let value = root["grid"] {
            if value == .bool(false) {
                style.grid.drawsLines = false
            } else {
                let grid = try object(value, "grid", ["paper", "minor", "major", "line_width_points", "min_spacing_points"])
                if let v = grid["paper"] { style.grid.paper = try color(v, "grid.paper") }
                if let v = grid["minor"] { style.grid.minorLine = try color(v, "grid.minor") }
                if let v = grid["major"] { style.grid.majorLine = try color(v, "grid.major") }
                if let v = grid["line_width_points"] { style.grid.lineWidthPoints = try number(v, "grid.line_width_points", range: 0.25...8) }
                if let v = grid["min_spacing_points"] {
                    style.grid.minimumMinorSpacingPoints = try number(v, "grid.min_spacing_points", range: 4...1000)
                }
            }
        }
        if let value = root["markers"] {
            if value == .bool(false) {
                style.drawsMarkers = false
            } else {
                let markers = try object(value, "markers", ["start", "end", "ring", "radius_points", "radius_per_stroke_width"])
                style.drawsMarkers = true
                if let v = markers["start"] { style.startMarkerColor = try color(v, "markers.start") }
                if let v = markers["end"] { style.endMarkerColor = try color(v, "markers.end") }
                if let v = markers["ring"] { style.markerRingColor = try color(v, "markers.ring") }
                if let v = markers["radius_points"] { style.markerRadiusPoints = try number(v, "markers.radius_points", range: 1...64) }
                if let v = markers["radius_per_stroke_width"] {
                    style.markerRadiusPerStrokeWidth = try number(v, "markers.radius_per_stroke_width", range: 0...8)
                }
            }
        }
        if let value = root["scale_bar"] {
            if value == .bool(false) {
                style.drawsScaleBar = false
            } else {
                let bar = try object(value, "scale_bar", ["color", "halo"])
                style.drawsScaleBar = true
                if let v = bar["color"] { style.scaleBarColor = try color(v, "scale_bar.color") }
                if let v = bar["halo"] { style.scaleBarHaloColor = try color(v, "scale_bar.halo") }
            }
        }
        if let value = root["basemap"] {
            if value == .bool(false) {
                settings.options.basemap = nil
            } else {
                let map = try object(value, "basemap", ["source", "opacity", "attribution", "max_overzoom", "subdomains"])
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
                if let problem = basemap.validationProblem() { throw fail("basemap", problem) }
                settings.options.basemap = basemap
            }
        }
        settings.options.style = style
        if let problem = settings.validationProblem() { throw fail("", problem) }
        return settings
    }

    /// Sizes of one role. Each of "width", "height" and "scales" may be given alone; the others
    /// keep the base settings' values for that role.
    private func images(_ value: JSONValue, _ path: String, role: ImageRole, base: [ImageSpec]) throws(StyleError) -> [ImageSpec] {
        let spec = try object(value, path, ["width", "height", "scales"])
        let current = base.first { $0.role == role }
        var widthPoints = current?.widthPoints ?? 0, heightPoints = current?.heightPoints ?? 0
        if let width = spec["width"] { widthPoints = Int(try number(width, path + ".width", range: 16...8192)) }
        if let height = spec["height"] { heightPoints = Int(try number(height, path + ".height", range: 16...8192)) }
        guard widthPoints > 0, heightPoints > 0 else {
            throw fail(path, "needs \"width\" and \"height\" in points (there is no \(role.rawValue) size to keep)")
        }
        var scales = base.filter { $0.role == role }.map(\.scale)
        if scales.isEmpty { scales = [1] }
        if let list = spec["scales"] {
            guard let items = list.array, !items.isEmpty, items.count <= 4 else {
                throw fail(path + ".scales", "expected a list of 1 to 4 scales, found \(describe(list))")
            }
            scales = []
            for (index, item) in items.enumerated() { scales.append(try number(item, "\(path).scales[\(index)]", range: 0.5...4)) }
            guard Set(scales).count == scales.count else { throw fail(path + ".scales", "lists a scale twice") }
        }
        return scales.map { ImageSpec(widthPoints: widthPoints, heightPoints: heightPoints, scale: $0, role: role) }
    }

    private func known(_ object: [String: JSONValue], _ path: String, _ keys: Set<String>) throws(StyleError) {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            let at = path.isEmpty ? unknown : path + "." + unknown
            throw fail(at, "unknown key (expected one of \(keys.sorted().joined(separator: ", ")))")
        }
    }

    private func object(_ value: JSONValue, _ path: String, _ keys: Set<String>) throws(StyleError) -> [String: JSONValue] {
        guard let object = value.object else { throw fail(path, "expected an object, found \(describe(value))") }
        try known(object, path, keys)
        return object
    }

    /// Every number read is bounded (`range`): an outside value that reached the renderer
    /// unchecked became an integer conversion that trapped or a loop that never ended.
    private func number(
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

    private func color(_ value: JSONValue, _ path: String) throws(StyleError) -> RGBAColor {
        guard let text = value.string, let color = RGBAColor(hex: text) else {
            throw fail(path, "expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", found \(describe(value))")
        }
        return color
    }

    private func describe(_ value: JSONValue) -> String { value.description }
}
