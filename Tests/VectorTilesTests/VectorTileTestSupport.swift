import Foundation
import Testing
import TrackSynthesis
import VectorTiles

/// Reads a file from `Tests/Fixtures/vector/`.
func vectorFixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vector").appendingPathComponent(name)
    return Array(try Data(contentsOf: url))
}

/// The real tiles under `Tests/Fixtures/vector/` (gzip-compressed, as MBTiles stores them), by z/x/y.
let realTileNames: [(z: Int, x: Int, y: Int, name: String)] = [
    (14, 8624, 5758, "openmaptiles-liechtenstein-14-8624-5758.pbf.gz"),
    (12, 2156, 1437, "openmaptiles-liechtenstein-12-2156-1437.pbf.gz"),
    (10, 539, 359, "openmaptiles-liechtenstein-10-539-359.pbf.gz"),
    (8, 134, 89, "openmaptiles-liechtenstein-8-134-89.pbf.gz"),
]

/// One layer with one feature, opened.
func singleFeatureTile(_ feature: SyntheticVectorTile.Feature, extent: UInt64? = 4096) throws -> (VectorTileLayer, VectorTileFeature) {
    let tile = try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: "test", extent: extent, features: [feature])]))
    let layer = try #require(tile.layer(named: "test"))
    return (layer, try layer.feature(at: 0))
}

/// The geometry of a single-feature tile, under a fresh budget.
func decodedGeometry(_ feature: SyntheticVectorTile.Feature, extent: UInt64? = 4096, limits: VectorTileLimits = VectorTileLimits()) throws
    -> VectorTileGeometry
{
    let tile = try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: "test", extent: extent, features: [feature])]), limits: limits)
    let layer = try #require(tile.layers.first)
    var budget = VectorTileVertexBudget(limits: limits)
    return try layer.geometry(of: try layer.feature(at: 0), budget: &budget)
}

/// Points from integer pairs.
func points(_ pairs: [(Int32, Int32)]) -> [TilePoint] { pairs.map { TilePoint(x: $0.0, y: $0.1) } }

/// The problem `body` throws, or nil (also when it throws another error, which fails the test that expects a problem).
func problem<T>(_ body: () throws -> T) -> VectorTileProblem? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? VectorTileProblem
    }
}
