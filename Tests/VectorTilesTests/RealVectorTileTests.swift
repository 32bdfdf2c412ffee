import Testing
import TrackSynthesis
import VectorTiles

/// Real OpenMapTiles-schema tiles made by tilemaker from the Liechtenstein extract
/// (`Tests/Fixtures/vector/README.md`): they decode whole, with the schema's layers and every
/// coordinate inside the tile plus its buffer.
@Suite struct RealVectorTileTests {
    @Test func realTilesDecodeWithTheSchemasLayers() throws {
        var allNames: Set<String> = []
        for entry in realTileNames {
            let bytes = try VectorTileBytes.inflateIfNeeded(try vectorFixture(entry.name))
            let tile = try VectorTile(bytes: bytes)
            let decoded = tile.decoded()
            #expect(decoded.problems.isEmpty, "\(entry.name): \(decoded.problems)")
            let names = Set(tile.layers.map(\.name))
            allNames.formUnion(names)
            #expect(names.contains("transportation") && names.contains("boundary"), "\(entry.name): \(names)")
            if entry.z == 14 { #expect(names.contains("building")) }
            for layer in decoded.layers {
                #expect(!layer.features.isEmpty, "\(entry.name) layer \(layer.name)")
                // tilemaker 2.2 clips most layers within half an extent of the tile, but leaves
                // boundary lines (and a few waterways and parks at zoom 14) up to 2 extents out.
                let margin =
                    layer.name == "boundary" || layer.name == "park" || layer.name.hasPrefix("water")
                    ? 2 * layer.extent : layer.extent / 2 + layer.extent / 16
                let low = Int32(-margin)
                let high = Int32(layer.extent + margin)
                for feature in layer.features {
                    let all: [TilePoint] =
                        switch feature.geometry {
                        case .points(let points): points
                        case .lines(let lines): lines.flatMap { $0 }
                        case .polygons(let polygons): polygons.flatMap { [$0.exterior] + $0.holes }.flatMap { $0 }
                        case .unknown: []
                        }
                    #expect(
                        all.allSatisfy { $0.x >= low && $0.x <= high && $0.y >= low && $0.y <= high }, "\(entry.name) \(layer.name) \(feature.index)")
                }
            }
        }
        #expect(
            allNames.isSuperset(of: ["transportation", "water", "waterway", "building", "landuse", "landcover", "boundary", "place"]), "\(allNames)")
    }

    @Test func realTileFeaturesHaveTheSchemasProperties() throws {
        let tile = try VectorTile(bytes: VectorTileBytes.inflateIfNeeded(try vectorFixture(realTileNames[0].name)))
        let transportation = try #require(tile.layer(named: "transportation"))
        var classes: Set<String> = []
        var budget = VectorTileVertexBudget()
        var lineCount = 0
        for index in 0..<transportation.featureCount {
            let feature = try transportation.feature(at: index)
            if let value = try transportation.value(forKey: "class", of: feature)?.string { classes.insert(value) }
            if case .lines(let lines) = try transportation.geometry(of: feature, budget: &budget) { lineCount += lines.count }
        }
        #expect(!classes.isEmpty && lineCount > 0)
        let building = try #require(tile.layer(named: "building"))
        var polygonCount = 0
        for index in 0..<building.featureCount {
            if case .polygons(let polygons) = try building.geometry(of: building.feature(at: index), budget: &budget) {
                polygonCount += polygons.count
            }
        }
        #expect(polygonCount > 0)
    }

    @Test func realTilesRoundTripThroughAPMTilesArchive() throws {
        let tiles = try realTileNames.map { PMTilesWriter.Tile(z: $0.z, x: $0.x, y: $0.y, bytes: try vectorFixture($0.name)) }
        let archive = try PMTilesWriter.write(tiles, compressDirectories: { Compression.deflate($0, gzip: true) })
        let reader = try PMTilesReader(source: archive)
        #expect(reader.header.minimumZoom == 8 && reader.header.maximumZoom == 14)
        for entry in realTileNames {
            let stored = try #require(try reader.storedTile(z: entry.z, x: entry.x, y: entry.y))
            #expect(stored == (try vectorFixture(entry.name)))
            let inflated = try #require(try reader.tile(z: entry.z, x: entry.x, y: entry.y))
            #expect(try VectorTile(bytes: inflated).layers.count == VectorTile(bytes: VectorTileBytes.inflateIfNeeded(stored)).layers.count)
        }
    }
}
