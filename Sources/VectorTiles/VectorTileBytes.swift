import Decompression

/// Tile bytes as sources store them: MBTiles and PMTiles usually hold vector tiles gzip-compressed.
public enum VectorTileBytes {
    /// `bytes` inflated when they start with the gzip magic (1f 8b), else unchanged (an MVT tile
    /// never starts with 1f: that would be field 3 with wire type 7, which does not exist). A
    /// stream that would inflate past `limit` bytes (a gzip bomb) is refused with a
    /// `limitExceeded` problem naming the limit. Default limit: `VectorTileLimits().maximumTileBytes` (32 MiB).
    public static func inflateIfNeeded(_ bytes: [UInt8], limit: Int = VectorTileLimits().maximumTileBytes) throws(VectorTileProblem)
        -> [UInt8]
    {
        try bytes.withUnsafeBufferPointer { buffer throws(VectorTileProblem) in
            guard Gzip.hasMagic(buffer) else { return bytes }
            var limits = DecompressionLimits()
            limits.maximumOutputBytes = limit
            // A real tile compresses 2–10:1; the byte limit alone bounds memory, so the ratio
            // guard (made for track files) is lifted to let a small, very repetitive tile through.
            limits.maximumRatio = Int.max / 2
            do throws(DecompressionError) {
                return try Gzip.decompress(buffer, limits: limits)
            } catch {
                switch error.kind {
                case .limitExceeded:
                    throw VectorTileProblem(
                        .limitExceeded, at: error.byteOffset,
                        "expected a tile of at most \(limit) bytes inflated, found more (a gzip bomb?): \(error.message)")
                case .malformed, .unsupported:
                    throw VectorTileProblem(.brokenCompression, at: error.byteOffset, "expected a whole gzip stream: \(error.message)")
                }
            }
        }
    }
}
