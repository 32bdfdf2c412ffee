import Foundation
import VectorTiles

/// `tracksnap-dev vector-decode FILE...`: decode throughput of vector tiles (gzip or not) in this
/// build, for the numbers in the VectorTiles notes (run it from a release build). CPU time of this
/// process, not wall time, so other work on a shared machine does not count.
enum VectorDecodeCommand {
    static func run(_ paths: [String]) throws {
        let stored = try paths.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let inflated = try stored.map { try VectorTileBytes.inflateIfNeeded($0) }
        let bytes = inflated.reduce(0) { $0 + $1.count }
        var features = 0
        var vertices = 0
        var skipped = 0
        for tile in inflated {
            let decoded = try VectorTile(bytes: tile).decoded()
            skipped += decoded.skippedFeatureCount
            for layer in decoded.layers {
                features += layer.features.count
                vertices += layer.features.reduce(0) { $0 + $1.geometry.vertexCount }
            }
        }
        print("\(inflated.count) tiles, \(bytes) bytes inflated, \(features) features, \(vertices) vertices, \(skipped) skipped")
        // Enough passes for about a second of work whatever the tile count.
        let rounds = max(3, 10_000_000 / max(1, bytes))
        var sink = 0
        func report(_ what: String, _ body: () throws -> Void) rethrows {
            let start = Benchmark.processCPUSeconds()
            for _ in 0..<rounds { try body() }
            let pass = (Benchmark.processCPUSeconds() - start) / Double(rounds)
            print(
                String(
                    format: "%@: %.2f ms a pass, %.0f MB/s, %.2f M features/s, %.1f M vertices/s", what, pass * 1e3, Double(bytes) / pass / 1e6,
                    Double(features) / pass / 1e6, Double(vertices) / pass / 1e6))
        }
        try report("gzip inflate") { for tile in stored { sink &+= try VectorTileBytes.inflateIfNeeded(tile).count } }
        try report("open (layer headers, keys, values)") { for tile in inflated { sink &+= try VectorTile(bytes: tile).layers.count } }
        try report("open + every geometry") {
            for tile in inflated {
                let opened = try VectorTile(bytes: tile)
                var budget = VectorTileVertexBudget()
                for layer in opened.layers {
                    for index in 0..<layer.featureCount { sink &+= try layer.geometry(of: layer.feature(at: index), budget: &budget).vertexCount }
                }
            }
        }
        try report("open + decoded() (properties and geometry)") {
            for tile in inflated { sink &+= try VectorTile(bytes: tile).decoded().layers.count }
        }
        if sink == 42 { print("") }  // keeps the work from being optimized away
    }
}
