import MapStyle
import Testing

/// Filters in the legacy form, and telling the two forms apart as MapLibre does.
@Suite struct LegacyFilterTests {
    private let park = TestFeature(.polygon, id: 7, ["class": .string("park"), "rank": .number(3)])

    private func passes(_ filter: String, _ feature: TestFeature? = nil) throws -> Bool {
        try #require(try lineRule(paint: "{}", filter: filter)).matches(feature ?? park)
    }

    @Test func comparisons() throws {
        #expect(try passes(#"["==", "class", "park"]"#) && !passes(#"["==", "class", "wood"]"#))
        #expect(try passes(#"["!=", "class", "wood"]"#) && passes(#"["!=", "missing", "wood"]"#))
        #expect(try passes(#"["<", "rank", 4]"#) && passes(#"["<=", "rank", 3]"#) && passes(#"[">", "rank", 2]"#) && passes(#"[">=", "rank", 3]"#))
        #expect(try !passes(#"["==", "rank", "3"]"#), "legacy equality is typed: 3 is not \"3\"")
    }

    @Test func typeAndID() throws {
        #expect(try passes(#"["==", "$type", "Polygon"]"#) && !passes(#"["==", "$type", "LineString"]"#))
        #expect(try passes(#"["in", "$type", "Point", "Polygon"]"#))
        #expect(try passes(#"["==", "$id", 7]"#) && passes(#"["has", "$id"]"#))
        #expect(try !passes(#"["has", "$id"]"#, TestFeature(.polygon)))
    }

    @Test func inWithManyValues() throws {
        let classes = (0..<300).map { #""class\#($0)""# }.joined(separator: ", ")
        #expect(try passes(#"["in", "class", \#(classes), "park"]"#))
        #expect(try !passes(#"["!in", "class", \#(classes), "park"]"#))
        #expect(try !passes(#"["in", "class", \#(classes)]"#))
        #expect(try passes(#"["!in", "missing", "a", "b"]"#))
    }

    @Test func hasAndNotHas() throws {
        #expect(try passes(#"["has", "rank"]"#) && !passes(#"["!has", "rank"]"#))
        #expect(try passes(#"["!has", "bridge"]"#))
    }

    @Test func allAnyNone() throws {
        #expect(try passes(#"["all", ["==", "class", "park"], ["<", "rank", 5]]"#))
        #expect(try passes(#"["any", ["==", "class", "wood"], ["==", "$type", "Polygon"]]"#))
        #expect(try passes(#"["none", ["==", "class", "wood"], ["has", "bridge"]]"#))
        #expect(try !passes(#"["none", ["==", "class", "park"]]"#))
    }

    /// Protomaps mixes the forms: an expression-form `has` beside a legacy `in` in one `all`.
    @Test func mixedFormsInOneAll() throws {
        let filter = #"["all", ["has", "is_tunnel"], ["in", "kind", "other", "path"], ["!=", ["get", "level"], 1]]"#
        #expect(try passes(filter, TestFeature(.line, ["is_tunnel": .bool(true), "kind": .string("path")])))
        #expect(try !passes(filter, TestFeature(.line, ["is_tunnel": .bool(true), "kind": .string("major_road")])))
        #expect(try !passes(filter, TestFeature(.line, ["kind": .string("path")])))
    }

    /// The same three-item list is legacy with a bare key and an expression with a computed one.
    @Test func formDetection() throws {
        #expect(try passes(#"["in", "class", "park", "wood"]"#))
        #expect(try passes(#"["in", ["get", "class"], ["literal", ["park", "wood"]]]"#))
        #expect(try passes(#"["==", "class", "park"]"#) && passes(#"["==", ["get", "class"], "park"]"#))
        #expect(try passes("true") && !passes("false"))
    }
}
