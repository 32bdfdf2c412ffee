/// A source of byte ranges: a file, an HTTP server answering range requests, or bytes in memory.
/// `PMTilesReader` does its I/O only through this, so the container code stays pure; the file and
/// HTTP implementations live in `TileSources`.
public protocol ByteRangeReading {
    /// The total number of bytes in the source.
    var byteCount: UInt64 { get }
    /// The `length` bytes at `offset`. The reader only asks for ranges inside `byteCount`; a source
    /// that returns fewer bytes makes the read an `outOfBounds` error.
    func read(offset: UInt64, length: Int) throws -> [UInt8]
}

/// Bytes in memory as a byte-range source (tests, and archives already loaded whole).
extension Array: ByteRangeReading where Element == UInt8 {
    /// The array's length.
    public var byteCount: UInt64 { UInt64(count) }

    /// A copy of `self[offset..<offset + length]`.
    public func read(offset: UInt64, length: Int) throws -> [UInt8] {
        let start = Int(clamping: offset)
        guard start <= count, length >= 0, length <= count - start else { return [] }
        return Array(self[start..<(start + length)])
    }
}
