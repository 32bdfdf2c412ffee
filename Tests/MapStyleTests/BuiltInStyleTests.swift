import MapStyle
import Testing

@Suite struct BuiltInStyleTests {
    /// The text compiled into the binary is the file in `Sources/MapStyle/Styles/` (run
    /// `scripts/embed-map-styles.py` after editing one).
    @Test(arguments: BuiltInStyle.allCases) func embeddedTextIsTheStyleFile(style: BuiltInStyle) throws {
        let root = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
        let file = try #require(fileBytes("\(root)/Sources/MapStyle/Styles/\(style.rawValue).json"))
        #expect(file == style.bytes, "run scripts/embed-map-styles.py")
    }

    @Test(arguments: BuiltInStyle.allCases) func readsWithoutWarnings(style: BuiltInStyle) throws {
        let document = try style.document()
        #expect(document.warnings.isEmpty && document.symbolLayerCount == 0 && document.hiddenLayerCount == 0)
        let source = style.schema == .openMapTiles ? "openmaptiles" : "protomaps"
        #expect(document.sources.keys.sorted() == [source])
        #expect(document.layers.allSatisfy { $0.kind == .background || $0.sourceName == source })
        #expect(BuiltInStyle(schema: style.schema, dark: style.rawValue.hasSuffix("dark")) == style)
    }

    /// Features as each schema tags them.
    private struct SchemaFeatures {
        let motorway, motorwayTunnel, path, minor, wood, lake, country, notCountry, rail: TestFeature

        init(_ schema: BuiltInStyle.Schema) {
            switch schema {
            case .openMapTiles:
                motorway = TestFeature(.line, ["class": .string("motorway")])
                motorwayTunnel = TestFeature(.line, ["class": .string("motorway"), "brunnel": .string("tunnel")])
                path = TestFeature(.line, ["class": .string("path")])
                minor = TestFeature(.line, ["class": .string("minor")])
                wood = TestFeature(.polygon, ["class": .string("wood")])
                lake = TestFeature(.polygon, ["class": .string("lake")])
                country = TestFeature(.line, ["admin_level": .number(2), "notCountry": .number(0)])
                notCountry = TestFeature(.line, ["admin_level": .number(2), "maritime": .bool(true)])
                rail = TestFeature(.line, ["class": .string("rail")])
            case .protomaps:
                motorway = TestFeature(.line, ["kind": .string("highway"), "kind_detail": .string("motorway")])
                motorwayTunnel = TestFeature(.line, ["kind": .string("highway"), "kind_detail": .string("motorway"), "is_tunnel": .bool(true)])
                path = TestFeature(.line, ["kind": .string("path"), "kind_detail": .string("footway")])
                minor = TestFeature(.line, ["kind": .string("minor_road"), "kind_detail": .string("residential")])
                wood = TestFeature(.polygon, ["kind": .string("forest")])
                lake = TestFeature(.polygon, ["kind": .string("lake")])
                country = TestFeature(.line, ["kind": .string("country"), "kind_detail": .number(2)])
                notCountry = TestFeature(.line, ["kind": .string("region"), "kind_detail": .number(4)])
                rail = TestFeature(.line, ["kind": .string("rail")])
            }
        }
    }

    @Test(arguments: BuiltInStyle.allCases) func sensibleValuesAtZoom15(style: BuiltInStyle) throws {
        let rules = try style.document().drawRules(zoom256: 15)
        func rule(_ id: String) throws -> DrawRule { try #require(rules.first { $0.layer.id == id }) }
        let features = SchemaFeatures(style.schema)
        let road = try rule("road"), paths = try rule("path"), casing = try rule("road_casing")
        #expect(road.matches(features.motorway) && !road.matches(features.path) && paths.matches(features.path) && !paths.matches(features.motorway))
        #expect(road.lineWidthPixels(for: features.motorway) > 2 * paths.lineWidthPixels(for: features.path))
        #expect(road.lineWidthPixels(for: features.motorway) > road.lineWidthPixels(for: features.minor))
        #expect(paths.lineDashes(for: features.path) != nil && road.lineDashes(for: features.motorway) == nil)
        // The casing reaches beyond the road on both sides, drawn as one wide line or two beside a gap.
        let gap = casing.lineGapWidthPixels(for: features.motorway), casingWidth = casing.lineWidthPixels(for: features.motorway)
        #expect((gap > 0 ? gap + 2 * casingWidth : casingWidth) > road.lineWidthPixels(for: features.motorway))
        #expect(road.opacity(for: features.motorwayTunnel) < road.opacity(for: features.motorway))
        #expect(try rule("landcover").color(for: features.wood) != rule("background").color())
        #expect(try rule("water").matches(features.lake))
        #expect(try rule("boundary_country").matches(features.country) && !rule("boundary_country").matches(features.notCountry))
        #expect(try rule("railway").matches(features.rail) && !rule("railway").matches(features.motorway))
    }

    @Test(arguments: BuiltInStyle.allCases) func buildingsOnlyAtDetailZooms(style: BuiltInStyle) throws {
        let document = try style.document()
        #expect(!document.drawRules(zoom256: 13).contains { $0.layer.id == "building" })
        #expect(document.drawRules(zoom256: 15).contains { $0.layer.id == "building" })
        #expect(!document.drawRules(zoom256: 10).contains { $0.layer.id == "path" })
    }

    @Test(arguments: [BuiltInStyle.Schema.openMapTiles, .protomaps]) func darkIsDarkerThanLight(schema: BuiltInStyle.Schema) throws {
        func paper(_ style: BuiltInStyle) throws -> StyleColor { try #require(try style.document().drawRules(zoom256: 12).first).color() }
        let light = try paper(BuiltInStyle(schema: schema, dark: false)), dark = try paper(BuiltInStyle(schema: schema, dark: true))
        #expect(light.red + light.green + light.blue > 2.5 && dark.red + dark.green + dark.blue < 0.6)
    }
}
