/// Writes a PMTiles v3 archive from tiles in memory (pure: tiles in, bytes out): clustered (tile
/// data in tile-id order), identical blobs stored once, consecutive ids with one blob as one run,
/// leaf directories when the root would not fit in the first 16 KiB. Used by the tests and by the
/// MBTiles → PMTiles conversion.
public enum PMTilesWriter {
    /// One tile to write.
    public struct Tile: Sendable {
        /// Zoom level, 0…31.
        public var z: Int
        /// Column, 0..<2^z.
        public var x: Int
        /// Row from the north (XYZ), 0..<2^z.
        public var y: Int
        /// The tile's bytes as they are to be stored (already compressed as `Options.tileCompression` says).
        public var bytes: [UInt8]

        /// Creates a tile.
        public init(z: Int, x: Int, y: Int, bytes: [UInt8]) {
            self.z = z
            self.x = x
            self.y = y
            self.bytes = bytes
        }
    }

    /// What the archive declares and how directories are laid out.
    public struct Options: Sendable {
        /// The header fields other than offsets, lengths, counts and zooms (those are computed):
        /// tile type, tile compression (what the given tile bytes are), bounds and centre.
        /// Default: `PMTilesHeader()` (vector tiles, gzip, the whole world).
        public var header = PMTilesHeader()
        /// The metadata JSON. Default: `{}`.
        public var metadata: [UInt8] = Array("{}".utf8)
        /// Most bytes of header and root directory together (the spec: 16 KiB, so a client's first
        /// request gets both). Default: 16,384.
        public var maximumHeaderAndRootBytes = 16_384
        /// Entries per leaf directory when leaves are needed; nil lets the writer start at 4,096 and
        /// double until the root fits. Set it to force leaves (tests). Default: nil.
        public var entriesPerLeaf: Int?

        /// The defaults above.
        public init() {}
    }

    /// The archive of `tiles`. `compressDirectories`, when given, gzips directories and metadata
    /// (it must return a gzip stream; the header then says gzip) — this target inflates but does
    /// not deflate. A tile outside its zoom's grid or given twice is an `invalidTile` error.
    public static func write(
        _ tiles: [Tile], options: Options = Options(), compressDirectories: (([UInt8]) -> [UInt8])? = nil
    ) throws(PMTilesError) -> [UInt8] {
        var identified: [(id: UInt64, tile: Tile)] = []
        identified.reserveCapacity(tiles.count)
        for tile in tiles {
            guard let id = PMTilesTileID.id(z: tile.z, x: tile.x, y: tile.y) else {
                throw PMTilesError(.invalidTile, at: 0, "expected a tile inside zoom 0…31's grid, found \(tile.z)/\(tile.x)/\(tile.y)")
            }
            identified.append((id, tile))
        }
        identified.sort { $0.id < $1.id }
        var tileData: [UInt8] = []
        var blobOffsets: [[UInt8]: UInt64] = [:]
        var entries: [PMTilesEntry] = []
        for (k, item) in identified.enumerated() {
            if k > 0, identified[k - 1].id == item.id {
                throw PMTilesError(.invalidTile, at: 0, "expected each tile once, found \(item.tile.z)/\(item.tile.x)/\(item.tile.y) twice")
            }
            let offset: UInt64
            if let known = blobOffsets[item.tile.bytes] {
                offset = known
            } else {
                offset = UInt64(tileData.count)
                blobOffsets[item.tile.bytes] = offset
                tileData += item.tile.bytes
            }
            if let last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == item.id {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(PMTilesEntry(tileID: item.id, offset: offset, length: UInt32(item.tile.bytes.count), runLength: 1))
            }
        }
        let pack = { (bytes: [UInt8]) in compressDirectories?(bytes) ?? bytes }
        var (root, leaves) = (pack(PMTilesDirectory.encode(entries)), [UInt8]())
        if root.count > options.maximumHeaderAndRootBytes - PMTilesHeader.byteCount || options.entriesPerLeaf != nil {
            var perLeaf = max(1, options.entriesPerLeaf ?? 4_096)
            repeat {
                leaves = []
                var pointers: [PMTilesEntry] = []
                for start in stride(from: 0, to: entries.count, by: perLeaf) {
                    let leaf = pack(PMTilesDirectory.encode(Array(entries[start..<min(start + perLeaf, entries.count)])))
                    pointers.append(
                        PMTilesEntry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                    leaves += leaf
                }
                root = pack(PMTilesDirectory.encode(pointers))
                perLeaf *= 2
            } while root.count > options.maximumHeaderAndRootBytes - PMTilesHeader.byteCount && options.entriesPerLeaf == nil
        }
        let metadata = pack(options.metadata)
        var header = options.header
        header.rootDirectoryOffset = UInt64(PMTilesHeader.byteCount)
        header.rootDirectoryLength = UInt64(root.count)
        header.metadataOffset = header.rootDirectoryOffset + header.rootDirectoryLength
        header.metadataLength = UInt64(metadata.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = UInt64(tileData.count)
        header.addressedTileCount = UInt64(identified.count)
        header.tileEntryCount = UInt64(entries.count)
        header.tileContentCount = UInt64(blobOffsets.count)
        header.isClustered = true
        header.internalCompression = compressDirectories == nil ? .none : .gzip
        header.minimumZoom = UInt8(identified.map(\.tile.z).min() ?? 0)
        header.maximumZoom = UInt8(identified.map(\.tile.z).max() ?? 0)
        return header.encoded() + root + metadata + leaves + tileData
    }
}
