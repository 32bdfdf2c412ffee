/// The whole tile decoded at once, bad features skipped and counted: what a renderer that draws
/// every layer wants, and what the tests and the throughput check use.
extension VectorTile {
    /// One decoded feature.
    public struct DecodedFeature: Sendable {
        /// The feature's index in its layer.
        public var index: Int
        /// The feature's id, nil when it has none.
        public var id: UInt64?
        /// Its properties in tag order.
        public var properties: [(key: String, value: VectorTileValue)]
        /// Its geometry in tile units.
        public var geometry: VectorTileGeometry
    }

    /// One decoded layer.
    public struct DecodedLayer: Sendable {
        /// The layer's name.
        public var name: String
        /// Tile units per tile side.
        public var extent: Int
        /// The features that decoded.
        public var features: [DecodedFeature]
    }

    /// Every layer decoded, and what was skipped.
    public struct Decoded: Sendable {
        /// The layers in tile order.
        public var layers: [DecodedLayer]
        /// The first `VectorTileLimits.maximumProblemsKept` problems.
        public var problems: [VectorTileProblem]
        /// Features skipped for a problem (all of them, kept or not).
        public var skippedFeatureCount: Int

        /// The layer called `name`.
        public func layer(named name: String) -> DecodedLayer? { layers.first { $0.name == name } }
    }

    /// Decodes every feature of every layer under one vertex budget; a feature with a problem is
    /// skipped, counted, and its problem kept (up to `limits.maximumProblemsKept`).
    public func decoded() -> Decoded {
        var budget = VectorTileVertexBudget(limits: limits)
        var result = Decoded(layers: [], problems: [], skippedFeatureCount: 0)
        for layer in layers {
            var features: [DecodedFeature] = []
            features.reserveCapacity(layer.featureCount)
            for index in 0..<layer.featureCount {
                do throws(VectorTileProblem) {
                    let feature = try layer.feature(at: index)
                    let properties = try layer.properties(of: feature)
                    let geometry = try layer.geometry(of: feature, budget: &budget)
                    features.append(DecodedFeature(index: index, id: feature.id, properties: properties, geometry: geometry))
                } catch {
                    result.skippedFeatureCount += 1
                    if result.problems.count < limits.maximumProblemsKept { result.problems.append(error) }
                }
            }
            result.layers.append(DecodedLayer(name: layer.name, extent: layer.extent, features: features))
        }
        return result
    }
}
