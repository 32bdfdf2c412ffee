import Raster
import SnapshotRendering
import StyleFile
import Testing
import ThumbnailCache

@Suite struct StyleFileTests {
    private func settings(_ json: String, theme: Theme? = nil) throws(StyleError) -> ThumbnailSettings { try readStyle(json, theme: theme) }

    private func error(_ json: String) -> String { styleError(json) }

    @Test func anEmptyStyleIsTheDefaultsAndPartOfTheCacheKey() throws {
        let defaults = try settings(#"{"version": 1}"#)
        #expect(defaults == ThumbnailSettings())
        let dark = try settings(#"{"version": 1, "theme": "dark"}"#)
        #expect(dark.options.style == SnapshotStyle(theme: .dark) && dark.fingerprint != defaults.fingerprint)
        let colored = try settings(#"{"version": 1, "route": {"color_by": "elevation"}}"#)
        #expect(colored.fingerprint != defaults.fingerprint)
    }

    /// `basemap` is read, checked, and every part of it (source, opacity, attribution, the
    /// source's content stamp) is in the cache key.
    @Test func theBasemapIsReadAndKeyed() throws {
        let defaults = try settings(#"{"version": 1}"#)
        let map = try settings(#"{"version": 1, "basemap": {"source": "alps.mbtiles", "opacity": 0.7, "attribution": "© OSM", "max_overzoom": 1}}"#)
        let basemap = try #require(map.options.basemap)
        #expect(basemap.source == "alps.mbtiles" && basemap.opacity == 0.7 && basemap.attribution == "© OSM" && basemap.maximumOverzoomLevels == 1)
        #expect(map.fingerprint != defaults.fingerprint)
        var other = map
        other.options.basemap?.source = "alps2.mbtiles"
        #expect(other.fingerprint != map.fingerprint)
        other = map
        other.options.basemap?.contentStamp = "size 10 mtime 20"
        #expect(other.fingerprint != map.fingerprint)
        other = map
        other.options.basemap?.opacity = 0.8
        #expect(other.fingerprint != map.fingerprint)
        #expect(try settings(#"{"version": 1, "basemap": false}"#).options.basemap == nil)
        #expect(error(#"{"version": 1, "basemap": {"source": "a.mbtiles", "opacity": 2}}"#).hasPrefix("style.json: basemap.opacity:"))
        #expect(error(#"{"version": 1, "basemap": {"opacity": 1}}"#).hasPrefix("style.json: basemap.source:"))
        #expect(error(#"{"version": 1, "basemap": {"source": "a", "zoom": 3}}"#).contains("unknown key"))
    }

    @Test func everySectionIsRead() throws {
        let style = try settings(
            #"""
            {"version": 1, "theme": "light", "thumbnail": {"width": 400, "height": 300, "scales": [1, 1.5]}, "detail": false,
             "padding": 0.05, "min_span_m": 500,
             "route": {"color": "#FF000080", "width": 3, "color_by": "speed",
                       "band_colors": ["#000001","#000002","#000003","#000004","#000005","#000006","#000007","#000008"]},
             "casing": false, "grid": {"paper": "#FFFFFF", "line_width_points": 2}, "markers": false, "scale_bar": {"color": "#123456"}}
            """#, theme: .dark)
        #expect(
            style.images.map(\.widthPoints) == [400, 400] && style.images.map(\.scale) == [1, 1.5]
                && style.images.allSatisfy { $0.role == .thumbnail })
        #expect(style.options.paddingFraction == 0.05 && style.options.minimumGroundSpanMeters == 500)
        let look = style.options.style
        #expect(look.routeColor == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128) && look.strokeWidthPoints == 3)
        #expect(look.coloring == .speed && look.bandColors.count == 8 && !look.drawsCasing && !look.drawsMarkers)
        // --theme dark won over the file's theme; the file's keys still apply on top of it.
        #expect(look.grid.paper == RGBAColor(red: 255, green: 255, blue: 255) && look.grid.majorLine == SnapshotStyle(theme: .dark).grid.majorLine)
        #expect(look.scaleBarColor == RGBAColor(red: 0x12, green: 0x34, blue: 0x56))
    }

    @Test func mistakesAreNamedWithTheirKeyPath() {
        #expect(error(#"{"theme": "dark"}"#) == "style.json: version: missing (this build reads version 1)")
        #expect(error(#"{"version": 2}"#) == "style.json: version: expected 1, found 2")
        #expect(error(#"{"version": true}"#) == "style.json: version: expected 1, found true")
        #expect(error(#"{"version": 1, "rout": {}}"#).hasPrefix("style.json: rout: unknown key (expected one of basemap, casing, detail"))
        #expect(
            error(##"{"version": 1, "route": {"color": "blue"}}"##)
                == ##"style.json: route.color: expected a colour "#RRGGBB" or "#RRGGBBAA", found "blue""##)
        #expect(
            error(##"{"version": 1, "route": {"band_colors": ["#000000"]}}"##)
                == "style.json: route.band_colors: expected a list of 8 to 10 colours, found a list")
        #expect(
            error(#"{"version": 1, "thumbnail": {"width": 8, "height": 300}}"#)
                == "style.json: thumbnail.width: expected a number from 16.0 to 8192.0, found 8.0")
        #expect(
            error(##"{"version": 1, "grid": {"minor": 3}}"##) == ##"style.json: grid.minor: expected a colour "#RRGGBB" or "#RRGGBBAA", found 3"##)
        #expect(error(#"{"version": 1,"#).hasPrefix("style.json: not valid JSON"))
        #expect(error("[1]") == "style.json: expected a JSON object at the top level")
    }

    /// The style file's JSON reader (no Foundation): errors give line and column.
    @Test func invalidJSONIsNamedWithLineAndColumn() {
        #expect(error(#"{"version": 1,"#) == "style.json: not valid JSON: line 1, column 15: expected a key in quotes, found the end of the file")
        #expect(
            error("{\"version\": 1,\n  \"theme\": \"dark\" \"padding\": 0.1}")
                == #"style.json: not valid JSON: line 2, column 19: expected "," or "}", found """"#)
        #expect(error(#"{"version": 01}"#) == #"style.json: not valid JSON: line 1, column 13: expected no leading zeros, found "0""#)
        #expect(error(#"{"version": 1, "version": 1}"#).hasSuffix(#"the key "version" appears twice, found " ""#))
        #expect(error(#"{"version": 1} x"#) == #"style.json: not valid JSON: line 1, column 16: expected the end of the document, found "x""#)
        #expect(error(String(repeating: "[", count: 100)).hasSuffix("at most 64 levels of nesting, found \"[\""))
        #expect(error("{\"version\": 1, \"theme\": \"da\u{1}rk\"}").contains("expected no control characters in a string"))
    }

    /// A size may be partly overridden, and a bad value is named (issue 13, item 8).
    @Test func sizesArePartialOverridesAndBadValuesAreNamed() throws {
        #expect(
            error(#"{"version": 1, "thumbnail": {"width": -5}}"#) == "style.json: thumbnail.width: expected a number from 16.0 to 8192.0, found -5.0")
        #expect(
            error(#"{"version": 1, "thumbnail": {"scales": [0]}}"#) == "style.json: thumbnail.scales[0]: expected a number from 0.5 to 4.0, found 0.0"
        )
        let wide = try settings(#"{"version": 1, "thumbnail": {"width": 400}}"#)
        let thumbnails = wide.images.filter { $0.role == .thumbnail }
        #expect(thumbnails.map(\.widthPoints) == [400, 400] && thumbnails.map(\.heightPoints) == [240, 240] && thumbnails.map(\.scale) == [1, 2])
        #expect(error(#"{"version": 1, "version": 1}"#).contains("appears twice"))
    }

    @Test func stringEscapesAndNumbersFollowTheJSONGrammar() throws {
        // \u0023 is "#", and a surrogate pair is one scalar; 1e0 and -0.5e+1 are numbers.
        let style = try settings(
            ##"{"version": 1e0, "route": {"color": "\u0023FF0000", "width": 2.5E0}, "grid": {"paper": "#FFFFFF"}, "padding": 0.05}"##)
        #expect(style.options.style.routeColor == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(style.options.style.strokeWidthPoints == 2.5 && style.options.paddingFraction == 0.05)
        #expect(error(##"{"version": 1, "theme": "\ud83d\ude00"}"##).hasSuffix(#"found "😀""#))
    }
}
