/// Why a vector tile, one of its layers or one of its features could not be decoded, with the
/// evidence: where (layer, feature, byte offset in the tile) and what was expected versus found.
///
/// Thrown by `VectorTile.init(bytes:limits:)` for a structurally broken tile (the whole tile is
/// refused), and by the per-feature calls (`VectorTileLayer.feature(at:)`, `geometry(of:budget:)`,
/// `properties(of:)`) for one bad feature, which a caller skips and counts.
public struct VectorTileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure class.
    public enum Kind: String, Sendable, Equatable {
        /// The bytes end inside a field, a varint or a length-delimited record.
        case truncated
        /// The protobuf wire format is broken: an invalid wire type or field number, a varint longer
        /// than ten bytes, a field with the wrong wire type for the schema.
        case malformedField
        /// A layer's `version` is neither 1 nor 2.
        case unsupportedVersion
        /// A layer without a name, with an extent of 0 or past `VectorTileLimits.maximumExtent`, or a
        /// value with no value field.
        case invalidLayer
        /// A feature's tags: an odd count, or a key or value index past the layer's tables.
        case invalidTags
        /// A geometry command stream that breaks the spec (an unknown command, a LineTo before
        /// MoveTo, a command count past the bytes left).
        case invalidGeometry
        /// A coordinate far outside the tile (past `VectorTileLimits.coordinateMarginExtents`).
        case coordinateOutOfRange
        /// More vertices or bytes than `VectorTileLimits` allows.
        case limitExceeded
        /// A gzip-compressed tile whose stream is broken or truncated.
        case brokenCompression
    }

    /// The failure class.
    public var kind: Kind
    /// The layer's name, when the problem is inside a named layer.
    public var layerName: String?
    /// The feature's index in its layer, when the problem is inside a feature.
    public var featureIndex: Int?
    /// Offset in the (inflated) tile bytes where the problem was found.
    public var byteOffset: Int
    /// Expected versus found.
    public var message: String

    /// Creates a problem at `byteOffset`; layer and feature are added by the caller that knows them.
    public init(_ kind: Kind, at byteOffset: Int, _ message: String, layerName: String? = nil, featureIndex: Int? = nil) {
        self.kind = kind
        self.byteOffset = byteOffset
        self.message = message
        self.layerName = layerName
        self.featureIndex = featureIndex
    }

    /// This problem, placed in `layerName` (and `featureIndex`) unless it already names them.
    func located(layer layerName: String?, feature featureIndex: Int? = nil) -> VectorTileProblem {
        var copy = self
        if copy.layerName == nil { copy.layerName = layerName }
        if copy.featureIndex == nil { copy.featureIndex = featureIndex }
        return copy
    }

    /// "layer "water" feature 3, byte 120: …".
    public var description: String {
        var place = ""
        if let layerName { place += "layer \"\(layerName)\" " }
        if let featureIndex { place += "feature \(featureIndex), " }
        return "\(place)byte \(byteOffset): \(message)"
    }
}
