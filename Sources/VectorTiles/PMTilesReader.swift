import Decompression
import JSONDocument

/// A PMTiles v3 archive read through a `ByteRangeReading` source: the header and root directory
/// at `init`, then one tile per lookup. Leaf directories are read on the way and kept decoded in
/// a small least-recently-used cache (`PMTilesLeafCache`, at most `limits.cachedLeafEntries`
/// entries: 6 MiB by default), so a tile whose leaf was used lately costs one read.
///
/// Compression is told by the bytes' magic (gzip 1f 8b, else stored), not trusted from the header;
/// a header that names brotli or zstd is refused at `init`, naming it. Damage is refused with a
/// `PMTilesError`: bad magic or version, sections or entries past the end of the archive or of
/// their section, non-increasing tile ids, leaf directories that loop or nest too deep.
public struct PMTilesReader<Source: ByteRangeReading> {
    /// Where the bytes come from.
    public let source: Source
    /// The archive's header.
    public let header: PMTilesHeader
    /// The root directory's entries.
    public let rootDirectory: [PMTilesEntry]
    /// The bounds this archive is read under.
    public let limits: PMTilesLimits
    private let leafCache: PMTilesLeafCache

    /// Reads and checks the header and the root directory.
    public init(source: Source, limits: PMTilesLimits = PMTilesLimits()) throws(PMTilesError) {
        self.source = source
        self.limits = limits
        leafCache = PMTilesLeafCache(capacityEntries: limits.cachedLeafEntries)
        let size = source.byteCount
        guard size >= UInt64(PMTilesHeader.byteCount) else {
            throw PMTilesError(.notPMTiles, at: 0, "expected a 127-byte PMTiles header, found an archive of \(size) bytes")
        }
        let header = try PMTilesHeader(parsing: try Self.read(source, offset: 0, length: PMTilesHeader.byteCount))
        for (name, compression) in [("internal (directory and metadata)", header.internalCompression), ("tile", header.tileCompression)]
        where compression == .brotli || compression == .zstd {
            throw PMTilesError(
                .unsupportedCompression, at: name == "tile" ? 98 : 97,
                "expected \(name) compression gzip or none, found \(compression) (recompress the archive with gzip, e.g. `pmtiles convert`)")
        }
        for (name, offset, length, at) in [
            ("root directory", header.rootDirectoryOffset, header.rootDirectoryLength, 8 as UInt64),
            ("metadata", header.metadataOffset, header.metadataLength, 24),
            ("leaf directories", header.leafDirectoriesOffset, header.leafDirectoriesLength, 40),
            ("tile data", header.tileDataOffset, header.tileDataLength, 56),
        ] {
            let (end, overflow) = offset.addingReportingOverflow(length)
            guard !overflow, end <= size else {
                throw PMTilesError(
                    .outOfBounds, at: at,
                    "expected the \(name) (bytes \(offset) + \(length)) inside the archive of \(size) bytes, found it past the end")
            }
        }
        self.header = header
        rootDirectory = try Self.directory(
            source, header: header, offset: header.rootDirectoryOffset, length: header.rootDirectoryLength, limits: limits)
    }

    /// The entry of tile `z/x/y` (XYZ rows): its blob's offset is in the tile data section. Nil when
    /// the archive has no such tile.
    public func entry(z: Int, x: Int, y: Int) throws(PMTilesError) -> PMTilesEntry? {
        guard let id = PMTilesTileID.id(z: z, x: x, y: y) else { return nil }
        var entries = rootDirectory
        var visited: Set<UInt64> = []
        var depth = 0
        while true {
            guard let entry = PMTilesDirectory.find(id, in: entries) else { return nil }
            guard entry.isLeafPointer else { return entry }
            depth += 1
            guard depth <= limits.maximumLeafDepth, visited.insert(entry.offset).inserted else {
                throw PMTilesError(
                    .directoryLoop, at: header.leafDirectoriesOffset + entry.offset,
                    depth > limits.maximumLeafDepth
                        ? "expected leaf directories at most \(limits.maximumLeafDepth) deep for tile \(z)/\(x)/\(y), found deeper"
                        : "expected each leaf directory once on the way to tile \(z)/\(x)/\(y), found the one at leaf offset \(entry.offset) again")
            }
            let leaf = PMTilesLeafCache.Key(offset: header.leafDirectoriesOffset + entry.offset, length: entry.length)
            if let cached = leafCache.entries(at: leaf) {
                entries = cached
            } else {
                entries = try Self.directory(source, header: header, offset: leaf.offset, length: UInt64(entry.length), limits: limits)
                leafCache.insert(entries, at: leaf)
            }
        }
    }

    /// The bytes of tile `z/x/y` as stored (gzip-compressed or not); nil when the archive has none.
    public func storedTile(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
        try stored(z: z, x: x, y: y)?.bytes
    }

    /// The bytes of tile `z/x/y` inflated when gzip-compressed (within `limits.maximumTileBytes`);
    /// nil when the archive has none.
    public func tile(z: Int, x: Int, y: Int) throws(PMTilesError) -> [UInt8]? {
        guard let (offset, bytes) = try stored(z: z, x: x, y: y) else { return nil }
        return try Self.inflateIfNeeded(bytes, at: offset, limit: limits.maximumTileBytes, what: "tile \(z)/\(x)/\(y)")
    }

    private func stored(z: Int, x: Int, y: Int) throws(PMTilesError) -> (offset: UInt64, bytes: [UInt8])? {
        guard let entry = try entry(z: z, x: x, y: y) else { return nil }
        let offset = header.tileDataOffset + entry.offset
        guard Int(entry.length) <= limits.maximumTileBytes else {
            throw PMTilesError(.limitExceeded, at: offset, "expected a tile of at most \(limits.maximumTileBytes) bytes, found \(entry.length)")
        }
        return (offset, try Self.read(source, offset: offset, length: Int(entry.length)))
    }

    /// How many leaf directories are kept decoded now (tests, diagnostics).
    public var cachedLeafCount: Int { leafCache.count }

    /// The metadata JSON's bytes, inflated when gzip-compressed.
    public func metadataBytes() throws(PMTilesError) -> [UInt8] {
        guard header.metadataLength <= UInt64(limits.maximumMetadataBytes) else {
            throw PMTilesError(
                .limitExceeded, at: 32, "expected metadata of at most \(limits.maximumMetadataBytes) bytes, found \(header.metadataLength)")
        }
        let stored = try Self.read(source, offset: header.metadataOffset, length: Int(header.metadataLength))
        return try Self.inflateIfNeeded(stored, at: header.metadataOffset, limit: limits.maximumMetadataBytes, what: "the metadata")
    }

    /// The metadata as a JSON object (`attribution`, `vector_layers`, …); `{}` when it is empty.
    public func metadata() throws(PMTilesError) -> [String: JSONValue] {
        let bytes = try metadataBytes()
        guard !bytes.isEmpty else { return [:] }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(bytes)
        } catch {
            throw PMTilesError(.malformedMetadata, at: header.metadataOffset, "expected JSON metadata: \(error)")
        }
        guard let object = value.object else {
            throw PMTilesError(.malformedMetadata, at: header.metadataOffset, "expected the metadata to be a JSON object, found \(value)")
        }
        return object
    }

    /// Reads, inflates, decodes and bounds-checks one directory.
    private static func directory(
        _ source: Source, header: PMTilesHeader, offset: UInt64, length: UInt64, limits: PMTilesLimits
    ) throws(PMTilesError) -> [PMTilesEntry] {
        guard length <= UInt64(limits.maximumDirectoryBytes) else {
            throw PMTilesError(.limitExceeded, at: offset, "expected a directory of at most \(limits.maximumDirectoryBytes) bytes, found \(length)")
        }
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= source.byteCount else {
            throw PMTilesError(
                .outOfBounds, at: offset,
                "expected a directory (\(length) bytes) inside the archive of \(source.byteCount) bytes, found it past the end")
        }
        let stored = try read(source, offset: offset, length: Int(length))
        let bytes = try inflateIfNeeded(stored, at: offset, limit: limits.maximumDirectoryBytes, what: "the directory")
        let entries = try PMTilesDirectory.decode(bytes, at: offset)
        for entry in entries {
            let (section, sectionLength) =
                entry.isLeafPointer ? ("leaf directories", header.leafDirectoriesLength) : ("tile data", header.tileDataLength)
            let (entryEnd, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
            guard !overflow, entryEnd <= sectionLength else {
                throw PMTilesError(
                    .outOfBounds, at: offset,
                    "expected the entry of tile id \(entry.tileID) (bytes \(entry.offset) + \(entry.length)) inside the \(section) section of \(sectionLength) bytes, found it past the end"
                )
            }
        }
        return entries
    }

    private static func read(_ source: Source, offset: UInt64, length: Int) throws(PMTilesError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try source.read(offset: offset, length: length)
        } catch {
            throw PMTilesError(.readFailed, at: offset, "could not read \(length) bytes: \(error)")
        }
        guard bytes.count == length else {
            throw PMTilesError(.outOfBounds, at: offset, "expected \(length) bytes, found \(bytes.count) (the archive ends early)")
        }
        return bytes
    }

    private static func inflateIfNeeded(_ bytes: [UInt8], at offset: UInt64, limit: Int, what: String) throws(PMTilesError) -> [UInt8] {
        do throws(VectorTileProblem) {
            return try VectorTileBytes.inflateIfNeeded(bytes, limit: limit)
        } catch {
            let kind: PMTilesError.Kind = error.kind == .limitExceeded ? .limitExceeded : .brokenCompression
            throw PMTilesError(kind, at: offset + UInt64(error.byteOffset), "\(what): \(error.message)")
        }
    }
}

extension PMTilesReader: Sendable where Source: Sendable {}
