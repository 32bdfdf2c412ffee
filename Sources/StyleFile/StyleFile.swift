import JSONDocument
import SnapshotRendering

/// The style file (JSON, `"version": 1`; documented in docs/style.md). `"version"` is
/// required (so a future format is never misread); every other key is optional
/// and overrides the theme's default, which lives in `SnapshotStyle`/`ThumbnailSettings` (the one
/// place defaults are kept). Unknown keys are errors, so a typo is never silently ignored.
///
///     { "version": 1, "theme": "dark",
///       "thumbnail": {"width": 320, "height": 240, "scales": [1, 2]},
///       "detail": {"width": 1280, "height": 960, "scales": [1, 2]},
///       "padding": 0.1, "min_span_m": 200,
///       "route": {"color": "#0A6CFFD9", "width": "road", "color_by": "speed", "band_colors": ["#2C7BB6", …]},
///       "casing": {"color": "#08306BB2", "extra_width_points": 2},
///       "grid": {"paper": "#F2EFE9", "minor": "#8C7F6A1F", "major": "#8C7F6A47", "line_width_points": 1, "min_spacing_points": 24},
///       "markers": {"start": "#2DBE4E", "end": "#E5322D", "ring": "#FFFFFF", "radius_points": 5, "radius_per_stroke_width": 0.8},
///       "scale_bar": {"color": "#333333", "halo": "#F2EFE9CC"},
///       "basemap": {"source": "maps/alps.mbtiles", "opacity": 0.8, "attribution": "© OpenStreetMap contributors"},
///       "overview": {"regions": [{"name": "Zürich", "bounds": [8.44, 47.32, 8.63, 47.44]}]} }
/// (`basemap.subdomains`, "abc" or ["a", "b"], sets what a URL template's `{s}` takes;
/// `basemap.style`, a MapLibre style file, draws a vector source; `overview.regions` names regions
/// of the overview by a box and is not part of the images' fingerprint.)
///
/// `casing`, `grid`, `markers`, `scale_bar`, `basemap` and `detail` may be `false` to leave them out.
package enum StyleFile {
    /// The schema version this build reads.
    package static let version = 1

    /// Reads a style document over `base` settings. `theme`, when given (the `--theme` option),
    /// wins over the file's own `theme`. `mapStyle` reads the file `basemap.style` names (a path
    /// relative to the style file) and returns its text; without one, `basemap.style` is an error.
    package static func settings(
        from bytes: [UInt8], file: String, theme override: Theme? = nil, base: ThumbnailSettings = ThumbnailSettings(),
        mapStyle: ((String) throws -> String)? = nil
    ) throws(StyleError) -> ThumbnailSettings {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw StyleError(file: file, keyPath: "", message: "not valid JSON: \(error.message)")
        }
        guard let root = document.object else {
            throw StyleError(file: file, keyPath: "", message: "expected a JSON object at the top level")
        }
        return try StyleReader(file: file, mapStyle: mapStyle).settings(root, theme: override, base: base)
    }
}
