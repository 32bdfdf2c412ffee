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
        #expect(document.sources.keys.sorted() == ["openmaptiles"])
        #expect(document.layers.allSatisfy { $0.kind == .background || $0.sourceName == "openmaptiles" })
    }

    @Test(arguments: BuiltInStyle.allCases) func sensibleValuesAtZoom15(style: BuiltInStyle) throws {
        let rules = try style.document().drawRules(zoom256: 15)
        func rule(_ id: String) throws -> DrawRule { try #require(rules.first { $0.layer.id == id }) }
        let motorway = TestFeature(.line, ["class": .string("motorway")]), path = TestFeature(.line, ["class": .string("path")])
        let road = try rule("road"), paths = try rule("path"), casing = try rule("road_casing")
        #expect(road.matches(motorway) && !road.matches(path) && paths.matches(path) && !paths.matches(motorway))
        #expect(road.lineWidthPixels(for: motorway) > 2 * paths.lineWidthPixels(for: path))
        #expect(casing.lineWidthPixels(for: motorway) > road.lineWidthPixels(for: motorway))
        #expect(paths.lineDashes(for: path) != nil && road.lineDashes(for: motorway) == nil)
        let minor = TestFeature(.line, ["class": .string("minor")])
        #expect(road.lineWidthPixels(for: motorway) > road.lineWidthPixels(for: minor))
        let tunnel = TestFeature(.line, ["class": .string("motorway"), "brunnel": .string("tunnel")])
        #expect(road.opacity(for: tunnel) < road.opacity(for: motorway))
        let wood = TestFeature(.polygon, ["class": .string("wood")])
        #expect(try rule("landcover").matches(wood) && rule("landcover").color(for: wood) != rule("background").color())
        #expect(try rule("water").matches(TestFeature(.polygon, ["class": .string("lake")])))
        let country = TestFeature(.line, ["admin_level": .number(2), "maritime": .number(0)])
        #expect(try rule("boundary_country").matches(country))
        #expect(try !rule("boundary_country").matches(TestFeature(.line, ["admin_level": .number(2), "maritime": .bool(true)])))
        #expect(try rule("railway").matches(TestFeature(.line, ["class": .string("rail")])))
    }

    @Test(arguments: BuiltInStyle.allCases) func buildingsOnlyAtDetailZooms(style: BuiltInStyle) throws {
        let document = try style.document()
        #expect(!document.drawRules(zoom256: 13).contains { $0.layer.id == "building" })
        #expect(document.drawRules(zoom256: 15).contains { $0.layer.id == "building" })
        #expect(!document.drawRules(zoom256: 10).contains { $0.layer.id == "path" })
    }

    @Test func darkIsDarkerThanLight() throws {
        func paper(_ style: BuiltInStyle) throws -> StyleColor { try #require(try style.document().drawRules(zoom256: 12).first).color() }
        let light = try paper(.openMapTilesLight), dark = try paper(.openMapTilesDark)
        #expect(light.red + light.green + light.blue > 2.5 && dark.red + dark.green + dark.blue < 0.6)
    }
}
