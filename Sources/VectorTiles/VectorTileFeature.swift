/// One feature of a layer (MVT 2.1 §4.2): its id and type, and where its tags and geometry lie in
/// the tile's bytes; `VectorTileLayer` decodes those on demand.
public struct VectorTileFeature: Sendable {
    /// The feature's index in its layer.
    public let index: Int
    /// The feature's id, nil when the feature has none.
    public let id: UInt64?
    /// The geometry type (`unknown` for a missing or unknown type number).
    public let geometryType: VectorTileGeometryType
    /// The feature's byte range in the tile.
    public let byteRange: Range<Int>
    /// The packed tag indices, nil when the feature has no tags.
    let tagRange: Range<Int>?
    /// The packed geometry command stream, nil when the feature has no geometry.
    let geometryRange: Range<Int>?

    /// Reads the feature message at `range`: id (1), tags (2), type (3), geometry (4).
    init(_ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, index: Int) throws(VectorTileProblem) {
        var reader = WireReader(buffer, range: range)
        var id: UInt64?
        var type: UInt64 = 0
        var tagRange: Range<Int>?
        var geometryRange: Range<Int>?
        while !reader.isAtEnd {
            let (field, wireType) = try reader.readFieldKey()
            switch field {
            case 1:
                try reader.expect(.varint, found: wireType, for: "the feature id")
                id = try reader.readVarint()
            case 2:
                try reader.expect(.lengthDelimited, found: wireType, for: "the packed tags")
                tagRange = try reader.readLengthDelimited()
            case 3:
                try reader.expect(.varint, found: wireType, for: "the geometry type")
                type = try reader.readVarint()
            case 4:
                try reader.expect(.lengthDelimited, found: wireType, for: "the packed geometry")
                geometryRange = try reader.readLengthDelimited()
            default:
                try reader.skip(wireType, field: field)
            }
        }
        self.index = index
        self.id = id
        self.geometryType = type <= 3 ? VectorTileGeometryType(rawValue: UInt8(type)) ?? .unknown : .unknown
        self.byteRange = range
        self.tagRange = tagRange
        self.geometryRange = geometryRange
    }
}
