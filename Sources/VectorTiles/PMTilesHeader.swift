/// A compression named in a PMTiles header.
public enum PMTilesCompression: UInt8, Sendable, Equatable, CustomStringConvertible {
    /// Not stated (told by the bytes' magic).
    case unknown = 0
    /// Stored as is.
    case none = 1
    /// gzip (RFC 1952).
    case gzip = 2
    /// Brotli: not implemented here.
    case brotli = 3
    /// Zstandard: not implemented here.
    case zstd = 4

    /// The spec's name.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .none: "none"
        case .gzip: "gzip"
        case .brotli: "brotli"
        case .zstd: "zstd"
        }
    }
}

/// The kind of tiles a PMTiles archive holds.
public enum PMTilesTileType: UInt8, Sendable, Equatable {
    /// Not stated.
    case unknown = 0
    /// Mapbox Vector Tiles.
    case mvt = 1
    /// PNG images.
    case png = 2
    /// JPEG images.
    case jpeg = 3
    /// WebP images.
    case webp = 4
    /// AVIF images.
    case avif = 5
}

/// The fixed 127-byte header of a PMTiles v3 archive (PMTiles v3 spec, "Header"): little-endian
/// offsets and lengths of the root directory, metadata, leaf directories and tile data; tile
/// counts; compressions; tile type; zooms; bounds and centre in degrees × 10^7.
public struct PMTilesHeader: Sendable, Equatable {
    /// The header's size in bytes.
    public static let byteCount = 127
    /// The spec version this code reads and writes.
    public static let version: UInt8 = 3

    /// Where the root directory starts (bytes from the start of the archive).
    public var rootDirectoryOffset: UInt64 = 0
    /// The root directory's length in bytes (as stored).
    public var rootDirectoryLength: UInt64 = 0
    /// Where the metadata JSON starts.
    public var metadataOffset: UInt64 = 0
    /// The metadata's length in bytes (as stored).
    public var metadataLength: UInt64 = 0
    /// Where the leaf directories section starts (leaf offsets count from here).
    public var leafDirectoriesOffset: UInt64 = 0
    /// The leaf directories section's length in bytes.
    public var leafDirectoriesLength: UInt64 = 0
    /// Where the tile data section starts (tile offsets count from here).
    public var tileDataOffset: UInt64 = 0
    /// The tile data section's length in bytes.
    public var tileDataLength: UInt64 = 0
    /// Tiles addressed (run lengths summed); 0 when unknown.
    public var addressedTileCount: UInt64 = 0
    /// Tile entries in all directories; 0 when unknown.
    public var tileEntryCount: UInt64 = 0
    /// Distinct tile blobs; 0 when unknown.
    public var tileContentCount: UInt64 = 0
    /// Whether tile data is ordered by tile id.
    public var isClustered = false
    /// The compression of directories and metadata.
    public var internalCompression = PMTilesCompression.gzip
    /// The compression of tiles.
    public var tileCompression = PMTilesCompression.gzip
    /// The kind of tiles.
    public var tileType = PMTilesTileType.mvt
    /// The lowest zoom with tiles.
    public var minimumZoom: UInt8 = 0
    /// The highest zoom with tiles.
    public var maximumZoom: UInt8 = 0
    /// The bounds' west edge, degrees × 10^7.
    public var minimumLongitudeE7: Int32 = -180_0000000
    /// The bounds' south edge, degrees × 10^7.
    public var minimumLatitudeE7: Int32 = -85_0511287
    /// The bounds' east edge, degrees × 10^7.
    public var maximumLongitudeE7: Int32 = 180_0000000
    /// The bounds' north edge, degrees × 10^7.
    public var maximumLatitudeE7: Int32 = 85_0511287
    /// The zoom a viewer opens at.
    public var centerZoom: UInt8 = 0
    /// The centre's longitude, degrees × 10^7.
    public var centerLongitudeE7: Int32 = 0
    /// The centre's latitude, degrees × 10^7.
    public var centerLatitudeE7: Int32 = 0

    /// A header with the defaults above (whole world, gzip, vector tiles).
    public init() {}

    /// Reads the first 127 bytes of an archive: "PMTiles" and version 3, else an error.
    public init(parsing bytes: [UInt8]) throws(PMTilesError) {
        guard bytes.count >= Self.byteCount else {
            throw PMTilesError(.notPMTiles, at: 0, "expected a 127-byte PMTiles header, found \(bytes.count) bytes")
        }
        guard Array(bytes[0..<7]) == Array("PMTiles".utf8) else {
            throw PMTilesError(.notPMTiles, at: 0, "expected the magic \"PMTiles\", found \(bytes[0..<7].map { String($0, radix: 16) })")
        }
        guard bytes[7] == Self.version else {
            throw PMTilesError(.unsupportedVersion, at: 7, "expected PMTiles version 3, found \(bytes[7])")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }) }
        func compression(_ at: Int) throws(PMTilesError) -> PMTilesCompression {
            guard let value = PMTilesCompression(rawValue: bytes[at]) else {
                throw PMTilesError(.unsupportedCompression, at: UInt64(at), "expected a compression 0–4, found \(bytes[at])")
            }
            return value
        }
        rootDirectoryOffset = u64(8)
        rootDirectoryLength = u64(16)
        metadataOffset = u64(24)
        metadataLength = u64(32)
        leafDirectoriesOffset = u64(40)
        leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56)
        tileDataLength = u64(64)
        addressedTileCount = u64(72)
        tileEntryCount = u64(80)
        tileContentCount = u64(88)
        isClustered = bytes[96] == 1
        internalCompression = try compression(97)
        tileCompression = try compression(98)
        tileType = PMTilesTileType(rawValue: bytes[99]) ?? .unknown
        minimumZoom = bytes[100]
        maximumZoom = bytes[101]
        minimumLongitudeE7 = i32(102)
        minimumLatitudeE7 = i32(106)
        maximumLongitudeE7 = i32(110)
        maximumLatitudeE7 = i32(114)
        centerZoom = bytes[118]
        centerLongitudeE7 = i32(119)
        centerLatitudeE7 = i32(123)
    }

    /// The 127 header bytes.
    public func encoded() -> [UInt8] {
        var bytes = Array("PMTiles".utf8) + [Self.version]
        func u64(_ value: UInt64) { for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) } }
        func i32(_ value: Int32) { for k in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: value) >> (8 * UInt32(k)))) } }
        for value in [
            rootDirectoryOffset, rootDirectoryLength, metadataOffset, metadataLength, leafDirectoriesOffset, leafDirectoriesLength,
            tileDataOffset, tileDataLength, addressedTileCount, tileEntryCount, tileContentCount,
        ] { u64(value) }
        bytes += [isClustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue, minimumZoom, maximumZoom]
        for value in [minimumLongitudeE7, minimumLatitudeE7, maximumLongitudeE7, maximumLatitudeE7] { i32(value) }
        bytes.append(centerZoom)
        i32(centerLongitudeE7)
        i32(centerLatitudeE7)
        return bytes
    }
}
