/// One layer of a vector tile (MVT 2.1 §4.1): its header read when the tile is opened, its
/// features decoded on demand (`feature(at:)`, then `properties(of:)` and `geometry(of:budget:)`).
public struct VectorTileLayer: Sendable {
    /// The layer's name (`water`, `transportation`, …).
    public let name: String
    /// The spec version the layer declares (1 or 2; absent means 1).
    public let version: Int
    /// Tile units per tile side (4096 unless the layer says otherwise).
    public let extent: Int
    /// The key table that tags index into.
    public let keys: [String]
    /// The value table that tags index into.
    public let values: [VectorTileValue]
    /// The layer's byte range in the tile.
    public let byteRange: Range<Int>
    /// The tile's bytes, shared with the tile (not copied).
    let bytes: [UInt8]
    /// Where each feature's message is in `bytes`.
    let featureRanges: [Range<Int>]
    /// Bounds for geometry decoding.
    let limits: VectorTileLimits

    /// The number of features in the layer.
    public var featureCount: Int { featureRanges.count }

    /// What the layers of one tile may still hold (`VectorTileLimits.maximumFeaturesPerTile`,
    /// `maximumKeysAndValuesPerTile`), taken as each layer is opened.
    struct Allowance {
        /// Features left.
        var features: Int
        /// Keys and values left.
        var tableEntries: Int

        /// The full allowance of one tile.
        init(limits: VectorTileLimits) {
            features = limits.maximumFeaturesPerTile
            tableEntries = limits.maximumKeysAndValuesPerTile
        }
    }

    /// Reads the layer message at `range`: name (1), features (2, noted, not read), keys (3),
    /// values (4), extent (5), version (15); unknown fields are skipped.
    init(
        bytes: [UInt8], buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, limits: VectorTileLimits, allowance: inout Allowance
    ) throws(VectorTileProblem) {
        var reader = WireReader(buffer, range: range)
        var name: String?
        var version: UInt64 = 1
        var extent: UInt64 = 4096
        var keys: [String] = []
        var valueRanges: [Range<Int>] = []
        var featureRanges: [Range<Int>] = []
        do throws(VectorTileProblem) {
            while !reader.isAtEnd {
                let (field, wireType) = try reader.readFieldKey()
                switch field {
                case 1:
                    try reader.expect(.lengthDelimited, found: wireType, for: "the layer name")
                    name = Self.string(buffer, try reader.readLengthDelimited())
                case 2:
                    try reader.expect(.lengthDelimited, found: wireType, for: "a feature")
                    try Self.take(&allowance.features, at: reader.position, "features", limit: limits.maximumFeaturesPerTile)
                    featureRanges.append(try reader.readLengthDelimited())
                case 3:
                    try reader.expect(.lengthDelimited, found: wireType, for: "a key")
                    try Self.take(&allowance.tableEntries, at: reader.position, "keys and values", limit: limits.maximumKeysAndValuesPerTile)
                    keys.append(Self.string(buffer, try reader.readLengthDelimited()))
                case 4:
                    try reader.expect(.lengthDelimited, found: wireType, for: "a value")
                    try Self.take(&allowance.tableEntries, at: reader.position, "keys and values", limit: limits.maximumKeysAndValuesPerTile)
                    valueRanges.append(try reader.readLengthDelimited())
                case 5:
                    try reader.expect(.varint, found: wireType, for: "the extent")
                    extent = try reader.readVarint()
                case 15:
                    try reader.expect(.varint, found: wireType, for: "the version")
                    version = try reader.readVarint()
                default:
                    try reader.skip(wireType, field: field)
                }
            }
            guard let name else {
                throw VectorTileProblem(.invalidLayer, at: range.lowerBound, "expected a layer name (field 1), found none")
            }
            guard version == 1 || version == 2 else {
                throw VectorTileProblem(.unsupportedVersion, at: range.lowerBound, "expected layer version 1 or 2, found \(version)", layerName: name)
            }
            guard extent > 0, extent <= UInt64(limits.maximumExtent) else {
                throw VectorTileProblem(
                    .invalidLayer, at: range.lowerBound, "expected an extent of 1…\(limits.maximumExtent) tile units, found \(extent)",
                    layerName: name)
            }
            var values: [VectorTileValue] = []
            values.reserveCapacity(valueRanges.count)
            for valueRange in valueRanges {
                do throws(VectorTileProblem) {
                    values.append(try VectorTileValue.decode(buffer, range: valueRange))
                } catch {
                    throw error.located(layer: name)
                }
            }
            self.name = name
            self.version = Int(version)
            self.extent = Int(extent)
            self.keys = keys
            self.values = values
        } catch {
            throw error.located(layer: name)
        }
        self.bytes = bytes
        self.byteRange = range
        self.featureRanges = featureRanges
        self.limits = limits
    }

    private static func take(_ left: inout Int, at offset: Int, _ what: String, limit: Int) throws(VectorTileProblem) {
        guard left > 0 else { throw VectorTileProblem(.limitExceeded, at: offset, "expected at most \(limit) \(what) in the tile, found more") }
        left -= 1
    }

    private static func string(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    /// The feature at `index` (0..<`featureCount`): its id, type and where its tags and geometry are.
    /// A broken feature message is a problem naming the layer and the feature.
    public func feature(at index: Int) throws(VectorTileProblem) -> VectorTileFeature {
        precondition(featureRanges.indices.contains(index), "feature index \(index) outside 0..<\(featureCount)")
        let range = featureRanges[index]
        return try bytes.withUnsafeBufferPointer { buffer throws(VectorTileProblem) in
            do throws(VectorTileProblem) {
                return try VectorTileFeature(buffer, range: range, index: index)
            } catch {
                throw error.located(layer: name, feature: index)
            }
        }
    }

    /// The feature's tags as (key index, value index) pairs, each checked against the tables.
    public func tagIndices(of feature: VectorTileFeature) throws(VectorTileProblem) -> [(keyIndex: Int, valueIndex: Int)] {
        guard let tagRange = feature.tagRange else { return [] }
        return try bytes.withUnsafeBufferPointer { buffer throws(VectorTileProblem) in
            var reader = WireReader(buffer, range: tagRange)
            var pairs: [(keyIndex: Int, valueIndex: Int)] = []
            do throws(VectorTileProblem) {
                while !reader.isAtEnd {
                    let at = reader.position
                    let key = Int(try reader.readVarint32())
                    guard !reader.isAtEnd else {
                        throw VectorTileProblem(.invalidTags, at: at, "expected tags in key/value pairs, found an odd count")
                    }
                    let value = Int(try reader.readVarint32())
                    guard key < keys.count, value < values.count else {
                        throw VectorTileProblem(
                            .invalidTags, at: at, "expected key < \(keys.count) and value < \(values.count), found key \(key) and value \(value)")
                    }
                    pairs.append((key, value))
                }
            } catch {
                throw error.located(layer: name, feature: feature.index)
            }
            return pairs
        }
    }

    /// The feature's properties, in the order of its tags.
    public func properties(of feature: VectorTileFeature) throws(VectorTileProblem) -> [(key: String, value: VectorTileValue)] {
        try tagIndices(of: feature).map { (keys[$0.keyIndex], values[$0.valueIndex]) }
    }

    /// The feature's value for `key`, nil when it has none.
    public func value(forKey key: String, of feature: VectorTileFeature) throws(VectorTileProblem) -> VectorTileValue? {
        for pair in try tagIndices(of: feature) where keys[pair.keyIndex] == key { return values[pair.valueIndex] }
        return nil
    }
}
