import Testing
import TrackSynthesis
import VectorTiles

/// MVT 2.1 decoding of hand-built tiles: layers, values of every type, every geometry command,
/// extents other than 4096, ring grouping in both windings, unknown fields.
@Suite struct VectorTileDecodingTests {
    typealias Feature = SyntheticVectorTile.Feature

    @Test func layerHeaderAndEveryValueType() throws {
        let properties: [(key: String, value: SyntheticVectorTile.Value)] = [
            ("name", .string("Vaduz ünï")), ("f", .float(1.5)), ("d", .double(-2.25)), ("i", .int(-7)),
            ("u", .uint(UInt64.max)), ("s", .sint(-123_456_789_012)), ("b", .bool(true)),
        ]
        let bytes = SyntheticVectorTile.encode([
            .init(name: "place", version: 2, extent: 4096, features: [Feature.points(id: 42, properties: properties, [(10, 20)])]),
            .init(name: "water", version: 1, extent: nil, features: []),
        ])
        let tile = try VectorTile(bytes: bytes)
        #expect(tile.layers.map(\.name) == ["place", "water"])
        let place = try #require(tile.layer(named: "place"))
        #expect(place.version == 2 && place.extent == 4096 && place.featureCount == 1)
        #expect(tile.layer(named: "water")?.extent == 4096)  // absent: the spec's default
        #expect(tile.layer(named: "water")?.version == 1)
        let feature = try place.feature(at: 0)
        #expect(feature.id == 42 && feature.geometryType == .point)
        let decoded = try place.properties(of: feature)
        #expect(decoded.map(\.key) == ["name", "f", "d", "i", "u", "s", "b"])
        #expect(
            decoded.map(\.value) == [
                .string("Vaduz ünï"), .float(1.5), .double(-2.25), .int(-7), .uint(UInt64.max), .int(-123_456_789_012), .bool(true),
            ])
        #expect(try place.value(forKey: "u", of: feature)?.number == Double(UInt64.max))
        #expect(try place.value(forKey: "missing", of: feature) == nil)
    }

    @Test func pointsAndMultiPoints() throws {
        #expect(try decodedGeometry(Feature.points([(25, 17)])) == .points(points([(25, 17)])))
        #expect(try decodedGeometry(Feature.points([(5, 7), (3, 2), (-1, 4097)])) == .points(points([(5, 7), (3, 2), (-1, 4097)])))
    }

    @Test func linesAndMultiLinesWithDeltasAcrossCommands() throws {
        let two = Feature.lines([[(2, 2), (2, 10), (10, 10)], [(1, 1), (3, 5)]])
        #expect(try decodedGeometry(two) == .lines([points([(2, 2), (2, 10), (10, 10)]), points([(1, 1), (3, 5)])]))
        // The spec's example stream (§4.3.5, "Example Multi LineString"), written as raw integers.
        let raw = Feature(type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8])
        #expect(try decodedGeometry(raw) == .lines([points([(2, 2), (2, 10), (10, 10)]), points([(1, 1), (3, 5)])]))
        // ClosePath on a line closes it; a one-point line is dropped.
        let closed = Feature(type: 2, commands: [.moveTo([(0, 0)]), .lineTo([(5, 0), (5, 5)]), .closePath, .moveTo([(9, 9)])])
        #expect(try decodedGeometry(closed) == .lines([points([(0, 0), (5, 0), (5, 5), (0, 0)])]))
    }

    @Test func polygonWithHoleAndSecondPolygonInTheSpecsWinding() throws {
        // Exterior clockwise on screen (positive area, y down); the hole counter-clockwise.
        let exterior: [(x: Int32, y: Int32)] = [(0, 0), (10, 0), (10, 10), (0, 10)]
        let hole: [(x: Int32, y: Int32)] = [(2, 2), (2, 8), (8, 8), (8, 2)]
        let second: [(x: Int32, y: Int32)] = [(20, 20), (30, 20), (30, 30), (20, 30)]
        let geometry = try decodedGeometry(Feature.polygon(rings: [exterior, hole, second]))
        #expect(
            geometry
                == .polygons([
                    VectorTilePolygon(exterior: points([(0, 0), (10, 0), (10, 10), (0, 10)]), holes: [points([(2, 2), (2, 8), (8, 8), (8, 2)])]),
                    VectorTilePolygon(exterior: points([(20, 20), (30, 20), (30, 30), (20, 30)])),
                ]))
        #expect(geometry.vertexCount == 12)
    }

    @Test func reversedWindingGroupsTheSameWay() throws {
        // Every ring reversed: the first ring still defines "exterior", so holes stay holes.
        let exterior: [(x: Int32, y: Int32)] = [(0, 10), (10, 10), (10, 0), (0, 0)]
        let hole: [(x: Int32, y: Int32)] = [(8, 2), (8, 8), (2, 8), (2, 2)]
        let second: [(x: Int32, y: Int32)] = [(20, 30), (30, 30), (30, 20), (20, 20)]
        guard case .polygons(let polygons) = try decodedGeometry(Feature.polygon(rings: [exterior, hole, second])) else {
            Issue.record("expected polygons")
            return
        }
        #expect(polygons.count == 2)
        #expect(polygons[0].holes.count == 1 && polygons[1].holes.isEmpty)
        #expect(polygons[0].exterior == points([(0, 10), (10, 10), (10, 0), (0, 0)]))
    }

    @Test func zeroAreaRingsAndRepeatedClosingPointsAreDropped() throws {
        let flat: [(x: Int32, y: Int32)] = [(0, 0), (10, 0), (20, 0)]
        let square: [(x: Int32, y: Int32)] = [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)]
        let geometry = try decodedGeometry(Feature.polygon(rings: [flat, square]))
        #expect(geometry == .polygons([VectorTilePolygon(exterior: points([(0, 0), (10, 0), (10, 10), (0, 10)]))]))
        #expect(try decodedGeometry(Feature.polygon(rings: [flat])) == .polygons([]))
    }

    @Test func extentOtherThan4096() throws {
        let tile = try VectorTile(
            bytes: SyntheticVectorTile.encode([.init(name: "big", extent: 16_384, features: [Feature.points([(16_000, 12)])])]))
        #expect(tile.layers[0].extent == 16_384)
        var budget = VectorTileVertexBudget()
        #expect(try tile.layers[0].geometry(of: tile.layers[0].feature(at: 0), budget: &budget) == .points(points([(16_000, 12)])))
        // At extent 256, a coordinate of 1300 is more than four extents outside the tile.
        #expect(try decodedGeometry(Feature.points([(1280, -1024)]), extent: 256) == .points(points([(1280, -1024)])))
        let far = problem { try decodedGeometry(Feature.points([(1300, 10)]), extent: 256) }
        #expect(far?.kind == .coordinateOutOfRange)
    }

    @Test func unknownGeometryTypeIsNotDecodedAndMissingGeometryIsEmpty() throws {
        #expect(try decodedGeometry(Feature(type: 0, geometry: [9, 2, 2])) == .unknown)
        #expect(try decodedGeometry(Feature(type: 9, geometry: [9, 2, 2])) == .unknown)
        #expect(try decodedGeometry(Feature(type: 3, geometry: [])) == .polygons([]))
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        var layer = ProtobufWriter()
        layer.varintField(15, 2)
        layer.message(1, Array("roads".utf8))
        layer.varintField(100, 1)  // varint
        layer.key(101, wireType: 1)  // fixed64
        layer.bytes += [1, 2, 3, 4, 5, 6, 7, 8]
        layer.key(102, wireType: 5)  // fixed32
        layer.bytes += [1, 2, 3, 4]
        layer.message(103, [0xFF, 0xFF])  // length-delimited
        layer.key(104, wireType: 3)  // a group holding a varint, then its end
        layer.varintField(1, 5)
        layer.key(104, wireType: 4)
        var feature = ProtobufWriter()
        feature.varintField(3, 1)
        feature.varintField(200, 9)
        feature.packed(4, [9, 50, 34])
        layer.message(2, feature.bytes)
        var tile = ProtobufWriter()
        tile.varintField(7, 1)
        tile.message(3, layer.bytes)
        tile.message(9, [1, 2, 3])
        let decoded = try VectorTile(bytes: tile.bytes).decoded()
        #expect(decoded.problems.isEmpty)
        #expect(decoded.layer(named: "roads")?.features.first?.geometry == .points(points([(25, 17)])))
    }

    @Test func decodedSkipsAndCountsBadFeaturesAndKeepsTheRest() throws {
        let good = Feature.points(properties: [("class", .string("town"))], [(1, 1)])
        let badCommand = Feature(type: 2, geometry: [SyntheticVectorTile.command(3, count: 1), 2, 2])
        let bytes = SyntheticVectorTile.encode([.init(name: "mixed", features: [good, badCommand, good])])
        let tile = try VectorTile(bytes: bytes)
        let decoded = tile.decoded()
        #expect(decoded.layers[0].features.map(\.index) == [0, 2])
        #expect(decoded.skippedFeatureCount == 1)
        let first = try #require(decoded.problems.first)
        #expect(first.kind == .invalidGeometry && first.layerName == "mixed" && first.featureIndex == 1)
        #expect(first.description.contains("layer \"mixed\" feature 1") && first.message.contains("found 3"))
        // A tag index past the value table.
        var layer = ProtobufWriter()
        layer.message(1, Array("tags".utf8))
        var body = ProtobufWriter()
        body.packed(2, [0, 5])
        body.varintField(3, 1)
        body.packed(4, [9, 2, 2])
        layer.message(2, body.bytes)
        layer.message(3, Array("k".utf8))
        var tile2 = ProtobufWriter()
        tile2.message(3, layer.bytes)
        let tagProblem = try VectorTile(bytes: tile2.bytes).decoded().problems.first
        #expect(tagProblem?.kind == .invalidTags && tagProblem?.message.contains("value 5") == true)
    }
}
