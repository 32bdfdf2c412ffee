import MapStyle
import Testing

/// Each expression operator, through a layer's filter (booleans) or `line-width` (numbers).
@Suite struct ExpressionOperatorTests {
    private let road = TestFeature(.line, id: 42, ["class": .string("primary"), "lanes": .number(2), "oneway": .bool(true), "ref": .string("12")])

    private func passes(_ filter: String, _ feature: TestFeature? = nil, zoom256: Double = 12) throws -> Bool {
        try #require(try lineRule(paint: "{}", filter: filter, zoom256: zoom256)).matches(feature ?? road)
    }

    private func width(_ value: String, _ feature: TestFeature? = nil) throws -> Double? {
        try lineRule(paint: #"{"line-width": \#(value)}"#)?.lineWidthPixels(for: feature ?? road)
    }

    @Test func getHasAndComparisons() throws {
        #expect(try passes(#"["==", ["get", "class"], "primary"]"#))
        #expect(try !passes(#"["!=", ["get", "class"], "primary"]"#))
        #expect(try passes(#"["!=", ["get", "missing"], "primary"]"#))
        #expect(try passes(#"["<", ["get", "lanes"], 3]"#) && passes(#"["<=", ["get", "lanes"], 2]"#))
        #expect(try passes(#"[">", ["get", "lanes"], 1]"#) && passes(#"[">=", ["get", "lanes"], 2]"#))
        #expect(try !passes(#"["<", ["get", "ref"], 13]"#), "a string is not ordered against a number")
        #expect(try passes(#"["<", ["get", "class"], "secondary"]"#), "strings are ordered")
        #expect(try passes(#"["has", "oneway"]"#) && !passes(#"["has", "bridge"]"#))
        #expect(try passes(#"["==", ["get", "oneway"], true]"#))
    }

    @Test func booleanOperators() throws {
        #expect(try passes(#"["all", ["has", "class"], ["==", ["get", "lanes"], 2]]"#))
        #expect(try !passes(#"["all", ["has", "class"], ["has", "bridge"]]"#))
        #expect(try passes(#"["any", ["has", "bridge"], ["has", "class"]]"#))
        #expect(try !passes(#"["any"]"#) && passes(#"["all"]"#))
        #expect(try passes(#"["!", ["has", "bridge"]]"#))
    }

    @Test func inWithListsAndStrings() throws {
        #expect(try passes(#"["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary"]]]"#))
        #expect(try !passes(#"["in", ["get", "class"], ["literal", ["motorway", "trunk"]]]"#))
        #expect(try passes(#"["in", "rim", ["get", "class"]]"#), "a substring of a string")
        #expect(try passes(#"["in", ["get", "lanes"], ["literal", [1, 2, 3]]]"#))
    }

    @Test func matchCaseAndCoalesce() throws {
        #expect(try close(width(#"["match", ["get", "class"], ["motorway", "trunk"], 8, "primary", 6, 1]"#), 6))
        #expect(try close(width(#"["match", ["get", "lanes"], 2, 4, 1]"#), 4))
        #expect(try close(width(#"["match", ["get", "class"], "path", 4, 1]"#), 1))
        #expect(try close(width(#"["case", ["has", "bridge"], 9, [">", ["get", "lanes"], 1], 5, 1]"#), 5))
        #expect(try close(width(#"["coalesce", ["get", "width"], ["get", "lanes"], 1]"#), 2))
        #expect(try close(width(#"["coalesce", ["get", "width"], 3]"#), 3))
    }

    @Test func typesAndConversions() throws {
        #expect(try passes(#"["==", ["typeof", ["get", "class"]], "string"]"#))
        #expect(try passes(#"["==", ["typeof", ["get", "lanes"]], "number"]"#))
        #expect(try passes(#"["==", ["typeof", ["get", "missing"]], "null"]"#))
        #expect(try close(width(#"["to-number", ["get", "ref"]]"#), 12))
        #expect(try close(width(#"["to-number", ["get", "class"], 7]"#), 7), "falls through to the next argument")
        #expect(try passes(#"["==", ["to-string", ["get", "lanes"]], "2"]"#))
    }

    @Test func zoomIdAndGeometryType() throws {
        #expect(try passes(#"[">=", ["zoom"], 11]"#, zoom256: 12) && !passes(#"[">=", ["zoom"], 11]"#, zoom256: 11.5))
        #expect(try passes(#"["==", ["id"], 42]"#) && !passes(#"["==", ["id"], 41]"#))
        #expect(try passes(#"["==", ["geometry-type"], "LineString"]"#))
        var area = road
        area.geometryType = .polygon
        #expect(try passes(#"["match", ["geometry-type"], ["MultiPolygon", "Polygon"], true, false]"#, area))
        #expect(try passes(#"["==", ["geometry-type"], "Polygon"]"#, area) && passes(#"["==", "$type", "Polygon"]"#, area))
        #expect(try !passes(#"["==", ["geometry-type"], "MultiPolygon"]"#, area), "singular forms only, as MapLibre's style spec v23")
    }

    @Test func literalAndDashes() throws {
        let rule = try #require(
            try lineRule(paint: #"{"line-dasharray": ["step", ["zoom"], ["literal", [1, 2]], 12, ["literal", [3, 1]]]}"#, zoom256: 14))
        #expect(rule.lineDashes(for: road) == [3, 1])
        #expect(try lineRule(paint: #"{"line-dasharray": [2, 1]}"#)?.lineDashes(for: road) == [2, 1])
        #expect(try lineRule(paint: "{}")?.lineDashes(for: road) == nil)
    }

    @Test func aFilterFalseAtThisZoomMatchesNothing() throws {
        let rule = try #require(try lineRule(paint: "{}", filter: #"["all", [">=", ["zoom"], 14], ["has", "class"]]"#, zoom256: 12))
        #expect(rule.matchesNothing && !rule.matches(road))
        let later = try #require(try lineRule(paint: "{}", filter: #"["all", [">=", ["zoom"], 14], ["has", "class"]]"#, zoom256: 15))
        #expect(!later.matchesNothing && later.matches(road))
    }
}
