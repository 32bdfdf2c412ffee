/// A Mapbox Vector Tile (MVT 2.1), opened lazily over its bytes in the manner of vtzero: opening
/// reads each layer's header (name, version, extent, keys, values) and notes where its features
/// are; a feature's fields, tags and geometry are decoded only when asked for, straight from the
/// bytes, which are never copied (every layer shares the tile's array).
///
/// A structurally broken tile (truncated, not protobuf, a layer without a name or with a bad
/// version, extent or value) is refused by `init` with a `VectorTileProblem`; a broken feature is
/// a problem of its own call, so the caller skips it and keeps the rest (`decoded()` does that).
public struct VectorTile: Sendable {
    /// The tile's bytes (inflated: see `VectorTileBytes.inflateIfNeeded(_:limit:)`).
    public let bytes: [UInt8]
    /// The bounds this tile is decoded under.
    public let limits: VectorTileLimits
    /// The layers in the order of the tile.
    public let layers: [VectorTileLayer]

    /// Opens a tile: reads every layer's header (field 3 of the `Tile` message; other fields are
    /// skipped, whatever their wire type).
    public init(bytes: [UInt8], limits: VectorTileLimits = VectorTileLimits()) throws(VectorTileProblem) {
        guard bytes.count <= limits.maximumTileBytes else {
            throw VectorTileProblem(.limitExceeded, at: 0, "expected a tile of at most \(limits.maximumTileBytes) bytes, found \(bytes.count)")
        }
        self.bytes = bytes
        self.limits = limits
        layers = try bytes.withUnsafeBufferPointer { buffer throws(VectorTileProblem) in
            var reader = WireReader(buffer, range: 0..<buffer.count)
            var layers: [VectorTileLayer] = []
            var allowance = VectorTileLayer.Allowance(limits: limits)
            while !reader.isAtEnd {
                let (field, wireType) = try reader.readFieldKey()
                guard field == 3 else {
                    try reader.skip(wireType, field: field)
                    continue
                }
                try reader.expect(.lengthDelimited, found: wireType, for: "a layer (Tile field 3)")
                let range = try reader.readLengthDelimited()
                layers.append(try VectorTileLayer(bytes: bytes, buffer: buffer, range: range, limits: limits, allowance: &allowance))
            }
            return layers
        }
    }

    /// The first layer called `name` (the spec forbids two layers of one name).
    public func layer(named name: String) -> VectorTileLayer? {
        layers.first { $0.name == name }
    }
}
