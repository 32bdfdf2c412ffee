import MapStyle
import Testing

@Suite struct MapStyleDocumentTests {
    /// Style zooms are for 512-pixel tiles: the style's zoom z is TrackSnap's zoom z + 1.
    @Test func zoomConventionAgainstTheStylesOwnBreakpoints() throws {
        let style = try styleDocument(
            #"""
            {"id": "buildings", "type": "fill", "source": "tiles", "source-layer": "building", "minzoom": 14},
            {"id": "overview", "type": "line", "source": "tiles", "source-layer": "roads", "maxzoom": 10,
             "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 6, 1, 8, 3]}}
            """#)
        #expect(style.drawRules(zoom256: 14).map(\.layer.id) == [])
        #expect(style.drawRules(zoom256: 14.99).map(\.layer.id) == [])
        #expect(style.drawRules(zoom256: 15).map(\.layer.id) == ["buildings"])
        #expect(style.drawRules(zoom256: 10.99).map(\.layer.id) == ["overview"])
        #expect(style.drawRules(zoom256: 11).map(\.layer.id) == [])
        // The width's stops 6 → 1 and 8 → 3 take effect at TrackSnap zooms 7 and 9.
        let overview = try #require(style.drawRules(zoom256: 8).first)
        #expect(close(overview.lineWidthPixels(for: TestFeature()), 2))
        #expect(overview.zoom == StyleZoom(zoom256: 8) && overview.zoom.value == 7)
    }

    @Test func layersKeepTheirOrderSourceAndSourceLayer() throws {
        let style = try styleDocument(
            #"""
            {"id": "paper", "type": "background", "paint": {"background-color": "#eee", "background-opacity": 0.5}},
            {"id": "water", "type": "fill", "source": "tiles", "source-layer": "water", "paint": {"fill-color": "blue", "fill-outline-color": "navy"}},
            {"id": "houses", "type": "fill-extrusion", "source": "tiles", "source-layer": "building",
             "paint": {"fill-extrusion-color": "#ccc", "fill-extrusion-height": 10, "fill-extrusion-opacity": 0.8}}
            """#)
        #expect(style.sources["tiles"] == StyleSource(type: "vector", url: "https://example.org/tiles.json", tiles: []))
        let rules = style.drawRules(zoom256: 12)
        #expect(rules.map(\.layer.id) == ["paper", "water", "houses"])
        #expect(rules[0].layer.kind == .background && rules[0].layer.sourceName == nil)
        #expect(close(rules[0].color(), StyleColor(css: "#eeeeee")!) && rules[0].opacity() == 0.5)
        #expect(rules[1].layer.sourceName == "tiles" && rules[1].layer.sourceLayer == "water")
        #expect(rules[1].outlineColor(for: TestFeature(.polygon)) == StyleColor(css: "navy"))
        #expect(rules[2].layer.kind == .fill && rules[2].layer.isFlattenedExtrusion && close(rules[2].opacity(), 0.8))
        #expect(rules[1].antialias(for: TestFeature(.polygon)))
    }

    @Test func lineDefaultsAndLayout() throws {
        let rule = try #require(try lineRule(paint: "{}"))
        let road = TestFeature()
        #expect(rule.color(for: road) == .black && rule.opacity(for: road) == 1 && rule.lineWidthPixels(for: road) == 1)
        #expect(rule.lineGapWidthPixels(for: road) == 0 && rule.lineCap(for: road) == .butt && rule.lineJoin(for: road) == .miter)
        let styled = try #require(
            try lineRule(paint: #"{"line-gap-width": 3, "line-opacity": 0.4}"#, layout: #"{"line-cap": "round", "line-join": "bevel"}"#))
        #expect(styled.lineGapWidthPixels(for: road) == 3 && styled.opacity(for: road) == 0.4)
        #expect(styled.lineCap(for: road) == .round && styled.lineJoin(for: road) == .bevel)
    }

    @Test func labelsAndOtherLayerTypesAreSkippedCountedAndWarned() throws {
        let style = try styleDocument(
            #"""
            {"id": "names", "type": "symbol", "source": "tiles", "source-layer": "place", "layout": {"text-field": ["let", "x", 1, ["var", "x"]]}},
            {"id": "relief", "type": "hillshade", "source": "tiles"},
            {"id": "photo", "type": "raster", "source": "tiles"},
            {"id": "pois", "type": "circle", "source": "tiles", "source-layer": "poi"},
            {"id": "wetland", "type": "fill", "source": "tiles", "source-layer": "landcover", "paint": {"fill-pattern": "wetland", "fill-color": "red"}},
            {"id": "glow", "type": "line", "source": "tiles", "source-layer": "roads", "paint": {"line-blur": 2, "line-offset": 1, "line-color": "red"}},
            {"id": "off", "type": "line", "source": "tiles", "source-layer": "roads", "layout": {"visibility": "none"}}
            """#)
        #expect(style.symbolLayerCount == 1 && style.hiddenLayerCount == 1)
        #expect(style.layers.map(\.id) == ["glow"])
        #expect(
            style.warnings.map(\.description) == [
                #"layer "relief": layer type "hillshade" is not drawn"#, #"layer "photo": layer type "raster" is not drawn"#,
                #"layer "pois": layer type "circle" is not drawn"#, #"layer "wetland": fill-pattern is not drawn, so the layer is skipped"#,
                #"layer "glow": line-blur, line-offset not drawn"#,
            ])
    }

    @Test func errorsNameTheLayerAndTheKeyPath() {
        let roads = #"{"id": "water", "type": "fill", "source": "tiles"}, "#
        #expect(
            layersError(roads + #"{"id": "road_major", "type": "line", "source": "tiles", "paint": {"line-width": ["let", "w", 2, ["var", "w"]]}}"#)
                == #"layers[1] "road_major" paint.line-width: unknown expression operator "let""#)
        #expect(
            layersError(
                #"{"id": "r", "type": "line", "source": "tiles", "paint": {"line-width": ["interpolate", ["linear"], ["zoom"], 5, 1, 10, ["sqrt", 4]]}}"#
            )
                == #"layers[0] "r" paint.line-width[6]: unknown expression operator "sqrt""#)
        #expect(
            layersError(#"{"id": "r", "type": "line", "source": "tiles", "filter": ["all", ["==", "class", "a"], ["within", {}]]}"#)
                == #"layers[0] "r" filter[2]: unknown expression operator "within""#)
        #expect(
            layersError(##"{"id": "r", "type": "line", "source": "tiles", "paint": {"line-color": ["match", ["get", "c"], "a", "#12", "red"]}}"##)
                == ##"layers[0] "r" paint.line-color[3]: expected a colour, found "#12""##)
        #expect(
            layersError(#"{"id": "r", "type": "line", "source": "tiles", "paint": {"line-wobble": 1}}"#)
                == #"layers[0] "r" paint.line-wobble: unknown paint property for a "line" layer"#)
        #expect(
            layersError(
                #"{"id": "r", "type": "line", "source": "tiles", "paint": {"line-width": ["interpolate", ["cubic-bezier", 0, 0, 1, 1], ["zoom"], 1, 1, 2, 2]}}"#
            )
                == #"layers[0] "r" paint.line-width[1]: unsupported interpolation "cubic-bezier" (linear and exponential are)"#)
        #expect(
            layersError(#"{"id": "r", "type": "line", "source": "elsewhere"}"#) == #"layers[0] "r" source: no source named "elsewhere" in "sources""#)
        #expect(layersError(#"{"type": "line"}"#) == #"layers[0].id: expected the layer's id in quotes"#)
        #expect(layersError(#"{"id": "r", "type": "line", "source": "tiles", "filter": ["==", "class"]}"#).hasPrefix(#"layers[0] "r" filter: "#))
    }

    @Test func documentErrors() {
        #expect(styleError(#"{"version": 8, "sources": {}}"#) == #"layers: the style has no "layers""#)
        #expect(styleError(#"{"version": 7, "layers": []}"#) == "version: expected 8, found 7")
        #expect(styleError("{\"version\": 8,\n \"layers\": [}").hasPrefix("not valid JSON: line 2, column 13"))
        #expect(styleError("[]") == "expected a style object, found a list")
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: #"["!", "#, count: 40) + "true" + String(repeating: "]", count: 40)
        let message = layersError(#"{"id": "r", "type": "line", "source": "tiles", "filter": \#(deep)}"#)
        #expect(message.contains("nested deeper than 32 levels") && message.hasPrefix(#"layers[0] "r" filter"#))
    }
}
