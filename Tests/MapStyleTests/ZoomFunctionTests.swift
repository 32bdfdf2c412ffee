import MapStyle
import Testing

/// Zoom functions against hand-computed values. Style zooms are TrackSnap's zoom − 1, so a style
/// zoom z is asked for as `zoom256: z + 1` throughout.
@Suite struct ZoomFunctionTests {
    private func width(_ value: String, styleZoom: Double, _ feature: TestFeature = TestFeature()) throws -> Double? {
        try lineRule(paint: #"{"line-width": \#(value)}"#, zoom256: styleZoom + 1)?.lineWidthPixels(for: feature)
    }

    @Test func interpolateLinear() throws {
        let value = #"["interpolate", ["linear"], ["zoom"], 10, 2, 14, 10]"#
        #expect(try close(width(value, styleZoom: 12), 6))
        #expect(try close(width(value, styleZoom: 11), 4))
        #expect(try close(width(value, styleZoom: 5), 2))
        #expect(try close(width(value, styleZoom: 20), 10))
    }

    @Test func interpolateExponential() throws {
        // base 2 from 10 to 12: at 11 the fraction is (2¹ − 1) / (2² − 1) = 1/3.
        let value = #"["interpolate", ["exponential", 2], ["zoom"], 10, 0, 12, 6]"#
        #expect(try close(width(value, styleZoom: 11), 2))
        // three stops: between 12 and 16 at 13, (2¹ − 1) / (2⁴ − 1) = 1/15 of 6 → 12.
        let three = #"["interpolate", ["exponential", 2], ["zoom"], 10, 0, 12, 6, 16, 96]"#
        #expect(try close(width(three, styleZoom: 13), 12))
    }

    @Test func stepOnZoom() throws {
        let value = #"["step", ["zoom"], 1, 10, 2, 14, 3]"#
        #expect(try close(width(value, styleZoom: 9.99), 1))
        #expect(try close(width(value, styleZoom: 10), 2))
        #expect(try close(width(value, styleZoom: 13.5), 2))
        #expect(try close(width(value, styleZoom: 14), 3))
    }

    @Test func legacyStopsWithBase() throws {
        // base 1.5 from 10 to 12: at 11 the fraction is (1.5 − 1) / (1.5² − 1) = 0.4.
        #expect(try close(width(#"{"base": 1.5, "stops": [[10, 1], [12, 5]]}"#, styleZoom: 11), 2.6))
        #expect(try close(width(#"{"stops": [[10, 1], [12, 5]]}"#, styleZoom: 11), 3))
        #expect(try close(width(#"{"stops": [[10, 1], [12, 5]]}"#, styleZoom: 3), 1))
        #expect(try close(width(#"{"type": "interval", "stops": [[10, 1], [12, 5]]}"#, styleZoom: 11.9), 1))
    }

    @Test func legacyIntervalIsTheDefaultForEnumerations() throws {
        let layout = #"{"line-cap": {"stops": [[10, "round"], [14, "square"]]}}"#
        #expect(try lineRule(paint: "{}", layout: layout, zoom256: 11)?.lineCap(for: TestFeature()) == .round)
        #expect(try lineRule(paint: "{}", layout: layout, zoom256: 14.9)?.lineCap(for: TestFeature()) == .round)
        #expect(try lineRule(paint: "{}", layout: layout, zoom256: 15)?.lineCap(for: TestFeature()) == .square)
    }

    @Test func legacyPropertyFunctions() throws {
        let categorical =
            ##"{"line-color": {"property": "class", "type": "categorical", "stops": [["a", "#f00"], ["b", "#00f"]], "default": "#0f0"}}"##
        let rule = try #require(try lineRule(paint: categorical))
        #expect(rule.color(for: TestFeature(.line, ["class": .string("b")])) == StyleColor(red: 0, green: 0, blue: 1))
        #expect(rule.color(for: TestFeature(.line, ["class": .string("c")])) == StyleColor(red: 0, green: 1, blue: 0))
        #expect(rule.isDataDriven)
        let exponential = #"{"property": "rank", "stops": [[0, 1], [10, 11]]}"#
        #expect(try close(width(exponential, styleZoom: 12, TestFeature(.line, ["rank": .number(5)])), 6))
        let interval = #"{"property": "rank", "type": "interval", "stops": [[0, 1], [10, 11]]}"#
        #expect(try close(width(interval, styleZoom: 12, TestFeature(.line, ["rank": .number(9)])), 1))
        #expect(try close(width(#"{"property": "w", "type": "identity"}"#, styleZoom: 12, TestFeature(.line, ["w": .number(7)])), 7))
    }

    @Test func coloursInterpolateInPremultipliedRGB() throws {
        let paint = ##"{"line-color": ["interpolate", ["linear"], ["zoom"], 10, "#ff0000", 12, "#0000ff"]}"##
        let halfway = try #require(try lineRule(paint: paint, zoom256: 12)).color(for: TestFeature())
        #expect(close(halfway, StyleColor(red: 0.5, green: 0, blue: 0.5)))
        // Towards transparent the colour keeps its hue (MapLibre's premultiplied RGB), fading only alpha.
        let fade = #"{"line-color": {"stops": [[10, "rgba(255, 0, 0, 1)"], [12, "transparent"]]}}"#
        let faded = try #require(try lineRule(paint: fade, zoom256: 12)).color(for: TestFeature())
        #expect(close(faded, StyleColor(red: 1, green: 0, blue: 0, alpha: 0.5)))
    }

    @Test func dataDrivenValuesInsideZoomFunctions() throws {
        // Protomaps' form: an interpolation on zoom whose stop outputs are matches on a property.
        let value =
            #"["interpolate", ["linear"], ["zoom"], 10, ["match", ["get", "kind"], "major", 2, 1], 14, ["match", ["get", "kind"], "major", 10, 5]]"#
        #expect(try close(width(value, styleZoom: 12, TestFeature(.line, ["kind": .string("major")])), 6))
        #expect(try close(width(value, styleZoom: 12, TestFeature(.line, ["kind": .string("minor")])), 3))
    }

    @Test func zoomOnlyValuesAreConstantsPerImage() throws {
        let rule = try #require(try lineRule(paint: #"{"line-width": ["interpolate", ["linear"], ["zoom"], 10, 2, 14, 10], "line-color": "red"}"#))
        #expect(!rule.isDataDriven)
    }
}

/// Values a hostile tile or style can give: never a crash, never a non-finite width.
@Suite struct NonFiniteValueTests {
    @Test func notANumberInputsAndOverflowingCurves() throws {
        let byRank = #"{"line-width": ["interpolate", ["linear"], ["get", "rank"], 0, 1, 10, 11]}"#
        let rule = try #require(try lineRule(paint: byRank))
        #expect(rule.lineWidthPixels(for: TestFeature(.line, ["rank": .number(.nan)])) == 1)
        #expect(rule.lineWidthPixels(for: TestFeature(.line, ["rank": .number(.infinity)])) == 11)
        #expect(rule.lineWidthPixels(for: TestFeature(.line, ["rank": .string("high")])) == 1, "not a number: the default width")
        let steep = #"{"line-width": ["interpolate", ["exponential", 1e300], ["zoom"], 0, 1, 24, 3]}"#
        let width = try #require(try lineRule(paint: steep, zoom256: 12)).lineWidthPixels(for: TestFeature())
        #expect(width.isFinite && (1...3).contains(width))
    }
}
