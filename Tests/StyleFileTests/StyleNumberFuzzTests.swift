import SnapshotRendering
import StyleFile
import Testing
import ThumbnailCache
import TrackSynthesis

/// Issue 21 item 6: every number of the style file is bounded. Random and extreme values for
/// each numeric field either give a clear error (the key path, the value, the range) or settings
/// that render without trapping or looping (`min_span_m` of 1e30 used to crash the worker, 1e308
/// to loop forever).
struct StyleNumberFuzzTests {
    /// Each numeric field as a style document with `{}` where the number goes. The images are
    /// small so that rendering every accepted document stays quick.
    static let fields: [(keyPath: String, document: String)] = [
        ("thumbnail.width", #"{"version": 1, "detail": false, "thumbnail": {"width": {}, "height": 16, "scales": [0.5]}}"#),
        ("thumbnail.height", #"{"version": 1, "detail": false, "thumbnail": {"width": 16, "height": {}, "scales": [0.5]}}"#),
        ("thumbnail.scales[0]", #"{"version": 1, "detail": false, "thumbnail": {"width": 32, "height": 24, "scales": [{}]}}"#),
        ("detail.width", #"{"version": 1, "thumbnail": {"width": 32, "height": 24}, "detail": {"width": {}, "height": 16, "scales": [0.5]}}"#),
        ("detail.height", #"{"version": 1, "thumbnail": {"width": 32, "height": 24}, "detail": {"width": 16, "height": {}, "scales": [0.5]}}"#),
        ("detail.scales[0]", #"{"version": 1, "thumbnail": {"width": 32, "height": 24}, "detail": {"width": 32, "height": 24, "scales": [{}]}}"#),
        ("padding", #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "padding": {}}"#),
        ("min_span_m", #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "min_span_m": {}}"#),
        ("route.width", #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "route": {"width": {}}}"#),
        (
            "casing.extra_width_points",
            #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "casing": {"extra_width_points": {}}}"#
        ),
        (
            "grid.line_width_points",
            #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "grid": {"line_width_points": {}}}"#
        ),
        (
            "grid.min_spacing_points",
            #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "grid": {"min_spacing_points": {}}}"#
        ),
        (
            "markers.radius_points",
            #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "markers": {"radius_points": {}}}"#
        ),
        (
            "markers.radius_per_stroke_width",
            #"{"version": 1, "detail": false, "thumbnail": {"width": 64, "height": 48, "scales": [1]}, "markers": {"radius_per_stroke_width": {}}}"#
        ),
        ("basemap.opacity", #"{"version": 1, "detail": false, "basemap": {"source": "a.mbtiles", "opacity": {}}}"#),
        ("basemap.max_overzoom", #"{"version": 1, "detail": false, "basemap": {"source": "a.mbtiles", "max_overzoom": {}}}"#),
    ]

    /// The numbers that broke things, the edges of every range, and a spread of random ones
    /// (as JSON text: "1e400" is out of Double's range).
    static func values(count: Int) -> [String] {
        var values = [
            "0", "-0", "-1", "1", "0.5", "2", "4", "6", "16", "64", "8192", "8193", "0.45", "0.4499", "200", "1e7", "1.0000001e7",
            "1e30", "1e100", "1e300", "1e308", "1.7976931348623157e308", "-1e308", "5e-324", "1e-300", "9.3e18", "9223372036854775807",
            "18446744073709551616", "1e400", "-1e400",
        ]
        var generator = SplitMix64(seed: 20261125)  // fixed: a failure is reproducible
        for _ in 0..<count {
            let magnitude = Double.random(in: -320...308, using: &generator)
            let sign = Bool.random(using: &generator) ? "" : "-"
            values.append(sign + "\(Double.random(in: 1..<10, using: &generator))e\(Int(magnitude))")
            values.append("\(Double.random(in: -10...10_000, using: &generator))")
        }
        return values
    }

    /// A 300 m track near Bern: small enough that `min_span_m` decides the view.
    static let track = Array(
        """
        <gpx version="1.1" creator="t"><trk><trkseg>
        <trkpt lat="46.9480" lon="7.4474"/><trkpt lat="46.9490" lon="7.4490"/><trkpt lat="46.9500" lon="7.4510"/>
        </trkseg></trk></gpx>
        """.utf8)

    @Test(arguments: 0..<16)
    func everyNumberIsBoundedOrRefusedByName(fieldIndex: Int) throws {
        let (keyPath, document) = Self.fields[fieldIndex]
        for value in Self.values(count: 20) {
            let json = document.replacing("{}", with: value)
            let settings: ThumbnailSettings
            do {
                settings = try StyleFile.settings(from: Array(json.utf8), file: "fuzz.json")
            } catch {
                #expect(error.keyPath == keyPath, "\(keyPath) = \(value): \(error)")
                #expect(error.message.contains("expected"), "\(keyPath) = \(value): \(error)")
                continue
            }
            #expect(settings.validationProblem() == nil, "\(keyPath) = \(value) accepted but invalid")
            // Accepted: it renders (no basemap: the source is not there; the numbers are what count).
            var options = settings
            options.options.basemap = nil
            for image in options.images {
                let snapshot = try SnapshotRenderer.render(trackBytes: Self.track, fileName: "t.gpx", options: options.options(for: image))
                #expect(!snapshot.png.isEmpty)
            }
        }
    }
}
