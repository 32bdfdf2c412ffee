/// Why a PMTiles archive (or one lookup in it) was refused, with the evidence: the byte offset in
/// the archive and what was expected versus found. The caller that knows the file adds its name.
public struct PMTilesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure class.
    public enum Kind: String, Sendable, Equatable {
        /// No "PMTiles" magic: not a PMTiles archive.
        case notPMTiles
        /// A spec version other than 3.
        case unsupportedVersion
        /// A compression this reader does not implement (brotli, zstd) or does not know.
        case unsupportedCompression
        /// A section, directory or tile that lies (partly) past the end of the archive or its section.
        case outOfBounds
        /// A directory that cannot be decoded: bad varints, non-increasing tile ids, a zero length.
        case malformedDirectory
        /// Leaf directories that point back at a directory already visited, or nest deeper than
        /// `PMTilesLimits.maximumLeafDepth`.
        case directoryLoop
        /// A directory, metadata or tile larger than `PMTilesLimits` allows (inflated or not).
        case limitExceeded
        /// Broken gzip data in a directory or the metadata.
        case brokenCompression
        /// The metadata is not a JSON object.
        case malformedMetadata
        /// The byte-range reader failed (the message is its error's).
        case readFailed
        /// A tile the writer cannot place (a zoom past 31, a column or row outside the zoom's grid,
        /// the same tile twice).
        case invalidTile
    }

    /// The failure class.
    public var kind: Kind
    /// Offset in the archive where the problem was found.
    public var byteOffset: UInt64
    /// Expected versus found.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, at byteOffset: UInt64, _ message: String) {
        self.kind = kind
        self.byteOffset = byteOffset
        self.message = message
    }

    /// "byte 127: …".
    public var description: String { "byte \(byteOffset): \(message)" }
}

/// Bounds on what one PMTiles archive may make the reader allocate.
public struct PMTilesLimits: Sendable, Equatable {
    /// Most bytes one directory (root or leaf) may take, stored or inflated. The spec's root
    /// directory fits in 16 KiB with the header; leaf directories of real planet files are a few
    /// hundred KiB. Decoded entries take 24 bytes each, at most six times the directory's bytes.
    /// Default: 16 MiB.
    public var maximumDirectoryBytes: Int = 16 << 20
    /// Most bytes the metadata may take, stored or inflated. Default: 16 MiB.
    public var maximumMetadataBytes: Int = 16 << 20
    /// Most bytes one tile may take, stored or inflated. Default: 32 MiB (`VectorTileLimits.maximumTileBytes`).
    public var maximumTileBytes: Int = 32 << 20
    /// Most leaf directories one lookup may descend through below the root. The spec's writer uses
    /// one level; readers commonly allow three. Default: 3.
    public var maximumLeafDepth: Int = 3
    /// Most decoded leaf-directory entries a reader keeps between lookups (24 bytes each), summed
    /// over its cached leaves; least recently used leaves go first, and a leaf larger than this
    /// is decoded for each lookup. 0 turns the cache off. Default: 262,144 (6 MiB).
    public var cachedLeafEntries: Int = 256 << 10

    /// The defaults above.
    public init() {}
}
