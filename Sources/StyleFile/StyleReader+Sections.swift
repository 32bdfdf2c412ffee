import JSONDocument
import Raster
import SnapshotRendering
import ThumbnailCache

/// The sections of the style document that set the images and how the track is drawn; each
/// reads one key of the root and names its key path in errors. `casing`, `grid`, `markers`,
/// `scale_bar` and `detail` may be `false` to leave them out.
extension StyleReader {
    /// `"thumbnail"` and `"detail"`: the sizes and scales of each role's images.
    func readImages(_ root: [String: JSONValue], into settings: inout ThumbnailSettings) throws(StyleError) {
        if let value = root["thumbnail"] {
            let specs = try images(value, "thumbnail", role: .thumbnail, base: settings.images)
            settings.images = specs + settings.images.filter { $0.role != .thumbnail }
        }
        if let value = root["detail"] {
            let specs = value == .bool(false) ? [] : try images(value, "detail", role: .detail, base: settings.images)
            settings.images = settings.images.filter { $0.role != .detail } + specs
        }
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

    /// `"route"`: its colour, width ("road" or points), colouring and band colours.
    func readRoute(_ value: JSONValue, into style: inout SnapshotStyle) throws(StyleError) {
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

    /// `"casing"`: the darker line under the route, or `false`.
    func readCasing(_ value: JSONValue, into style: inout SnapshotStyle) throws(StyleError) {
        guard value != .bool(false) else {
            style.drawsCasing = false
            return
        }
        let casing = try object(value, "casing", ["color", "extra_width_points"])
        style.drawsCasing = true
        if let v = casing["color"] { style.casingColor = try color(v, "casing.color") }
        if let v = casing["extra_width_points"] { style.casingExtraWidthPoints = try number(v, "casing.extra_width_points", range: 0...32) }
    }

    /// `"grid"`: the paper and its lines (`false` keeps the paper, drops the lines).
    func readGrid(_ value: JSONValue, into style: inout SnapshotStyle) throws(StyleError) {
        guard value != .bool(false) else {
            style.grid.drawsLines = false
            return
        }
        let grid = try object(value, "grid", ["paper", "minor", "major", "line_width_points", "min_spacing_points"])
        if let v = grid["paper"] { style.grid.paper = try color(v, "grid.paper") }
        if let v = grid["minor"] { style.grid.minorLine = try color(v, "grid.minor") }
        if let v = grid["major"] { style.grid.majorLine = try color(v, "grid.major") }
        if let v = grid["line_width_points"] { style.grid.lineWidthPoints = try number(v, "grid.line_width_points", range: 0.25...8) }
        if let v = grid["min_spacing_points"] {
            style.grid.minimumMinorSpacingPoints = try number(v, "grid.min_spacing_points", range: 4...1000)
        }
    }

    /// `"markers"`: the start and end dots, or `false`.
    func readMarkers(_ value: JSONValue, into style: inout SnapshotStyle) throws(StyleError) {
        guard value != .bool(false) else {
            style.drawsMarkers = false
            return
        }
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

    /// `"scale_bar"`: its colour and halo, or `false`.
    func readScaleBar(_ value: JSONValue, into style: inout SnapshotStyle) throws(StyleError) {
        guard value != .bool(false) else {
            style.drawsScaleBar = false
            return
        }
        let bar = try object(value, "scale_bar", ["color", "halo"])
        style.drawsScaleBar = true
        if let v = bar["color"] { style.scaleBarColor = try color(v, "scale_bar.color") }
        if let v = bar["halo"] { style.scaleBarHaloColor = try color(v, "scale_bar.halo") }
    }
}
