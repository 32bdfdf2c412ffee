import JSONDocument
import Testing
import TrackSynthesis
import VectorTiles

/// PMTiles v3: tile ids on the Hilbert curve, directories (runs, leaves, offset 0), the writer read
/// back, and damaged archives refused.
@Suite struct PMTilesTests {
    @Test func tileIDsMatchTheSpecsExamplesAndRoundTripToZoom31() throws {
        #expect(PMTilesTileID.id(z: 0, x: 0, y: 0) == 0)
        #expect(PMTilesTileID.id(z: 1, x: 0, y: 0) == 1)
        #expect(PMTilesTileID.id(z: 1, x: 0, y: 1) == 2)
        #expect(PMTilesTileID.id(z: 1, x: 1, y: 1) == 3)
        #expect(PMTilesTileID.id(z: 1, x: 1, y: 0) == 4)
        #expect(PMTilesTileID.id(z: 2, x: 1, y: 3) == 11)
        #expect(PMTilesTileID.id(z: 3, x: 3, y: 0) == 26)
        #expect(PMTilesTileID.id(z: 2, x: 4, y: 0) == nil && PMTilesTileID.id(z: 32, x: 0, y: 0) == nil && PMTilesTileID.id(z: 1, x: -1, y: 0) == nil)
        var random = SplitMix64(seed: 16)
        for z in 0...PMTilesTileID.maximumZoom {
            let n = 1 << z
            var samples = [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1), (n / 2, n / 3)]
            for _ in 0..<50 { samples.append((Int(random.next() % UInt64(n)), Int(random.next() % UInt64(n)))) }
            for (x, y) in samples {
                let id = try #require(PMTilesTileID.id(z: z, x: x, y: y))
                #expect(id >= PMTilesTileID.firstID(ofZoom: z) && id < PMTilesTileID.firstID(ofZoom: z + 1))
                let back = try #require(PMTilesTileID.tile(of: id))
                #expect(back == (z, x, y), "z \(z) x \(x) y \(y) → \(id) → \(back)")
            }
            // The first and last ids of the zoom (boundary ids) map inside its grid.
            let first = try #require(PMTilesTileID.tile(of: PMTilesTileID.firstID(ofZoom: z)))
            let last = try #require(PMTilesTileID.tile(of: PMTilesTileID.firstID(ofZoom: z + 1) - 1))
            #expect(first.z == z && last.z == z && last.x < n && last.y < n)
        }
        #expect(PMTilesTileID.tile(of: PMTilesTileID.firstID(ofZoom: 32)) == nil)
    }

    @Test func everyTileOfLowZoomsHasItsOwnConsecutiveID() throws {
        for z in 0...5 {
            var ids: Set<UInt64> = []
            for x in 0..<(1 << z) { for y in 0..<(1 << z) { ids.insert(try #require(PMTilesTileID.id(z: z, x: x, y: y))) } }
            #expect(ids == Set(PMTilesTileID.firstID(ofZoom: z)..<PMTilesTileID.firstID(ofZoom: z + 1)))
        }
    }

    /// `count` tiles at zoom `z` in a row of columns, each with distinct bytes unless `shared`.
    private func tiles(z: Int, count: Int, shared: Bool = false) -> [PMTilesWriter.Tile] {
        (0..<count).map { k in
            PMTilesWriter.Tile(z: z, x: k % (1 << z), y: k / (1 << z), bytes: shared ? [7, 7, 7] : Array("tile \(z)/\(k)".utf8))
        }
    }

    @Test func writerRoundTripsWithRunsDeduplicationAndGzippedDirectories() throws {
        var input = tiles(z: 3, count: 64) + tiles(z: 1, count: 4, shared: true)
        input.append(PMTilesWriter.Tile(z: 0, x: 0, y: 0, bytes: [7, 7, 7]))
        var options = PMTilesWriter.Options()
        options.metadata = Array(#"{"attribution":"© OpenStreetMap contributors","vector_layers":[{"id":"water"}]}"#.utf8)
        for gzip in [false, true] {
            let archive = try PMTilesWriter.write(input, options: options, compressDirectories: gzip ? { Compression.deflate($0, gzip: true) } : nil)
            let reader = try PMTilesReader(source: archive)
            #expect(reader.header.internalCompression == (gzip ? .gzip : .none))
            #expect(reader.header.minimumZoom == 0 && reader.header.maximumZoom == 3)
            #expect(reader.header.addressedTileCount == 69 && reader.header.tileContentCount == 65)
            // z0 and the four z1 tiles share one blob and consecutive ids 0…4: one entry, run length 5.
            #expect(reader.rootDirectory.first == PMTilesEntry(tileID: 0, offset: 0, length: 3, runLength: 5))
            for tile in input { #expect(try reader.tile(z: tile.z, x: tile.x, y: tile.y) == tile.bytes) }
            #expect(try reader.tile(z: 4, x: 0, y: 0) == nil)
            let metadata = try reader.metadata()
            #expect(metadata["attribution"]?.string == "© OpenStreetMap contributors")
            #expect(metadata["vector_layers"]?.array?.first?.object?["id"]?.string == "water")
        }
    }

    @Test func compressionIsToldByTheBytesNotTheHeader() throws {
        let tile = Array("a vector tile".utf8)
        let input = [PMTilesWriter.Tile(z: 2, x: 1, y: 1, bytes: Compression.deflate(tile, gzip: true))]
        var archive = try PMTilesWriter.write(input, compressDirectories: { Compression.deflate($0, gzip: true) })
        archive[97] = PMTilesCompression.none.rawValue  // the header lies about the directories
        archive[98] = PMTilesCompression.unknown.rawValue  // and does not say what the tiles are
        let reader = try PMTilesReader(source: archive)
        #expect(try reader.tile(z: 2, x: 1, y: 1) == tile)
        #expect(try reader.storedTile(z: 2, x: 1, y: 1) == input[0].bytes)
    }

    @Test func tileBombAndBadMetadataAreRefused() throws {
        let bomb = Compression.deflate([UInt8](repeating: 0, count: 4 << 20), gzip: true, level: 9)
        var options = PMTilesWriter.Options()
        options.metadata = Array("[1, 2".utf8)
        let reader = try PMTilesReader(source: try PMTilesWriter.write([PMTilesWriter.Tile(z: 0, x: 0, y: 0, bytes: bomb)], options: options))
        var limits = PMTilesLimits()
        limits.maximumTileBytes = 1 << 20
        let limited = try PMTilesReader(source: reader.source, limits: limits)
        let refused = failure { _ = try limited.tile(z: 0, x: 0, y: 0) }
        #expect(refused?.kind == .limitExceeded && refused?.message.contains("1048576") == true)
        #expect(try reader.tile(z: 0, x: 0, y: 0)?.count == 4 << 20)
        #expect(failure { _ = try reader.metadata() }?.kind == .malformedMetadata)
    }

    @Test func leafDirectoriesAreFollowed() throws {
        var options = PMTilesWriter.Options()
        options.entriesPerLeaf = 10
        let input = tiles(z: 4, count: 256)
        let archive = try PMTilesWriter.write(input, options: options)
        let reader = try PMTilesReader(source: archive)
        #expect(reader.rootDirectory.count == 26 && reader.rootDirectory.allSatisfy(\.isLeafPointer))
        for tile in input { #expect(try reader.tile(z: tile.z, x: tile.x, y: tile.y) == tile.bytes) }
        // Without a forced size, a large directory still gets leaves once the root passes 16 KiB.
        let many = try PMTilesWriter.write(tiles(z: 8, count: 40_000))
        let big = try PMTilesReader(source: many)
        #expect(big.header.rootDirectoryLength + 127 <= 16_384 && big.header.leafDirectoriesLength > 0)
        #expect(try big.tile(z: 8, x: 17, y: 100) == Array("tile 8/\(100 * 256 + 17)".utf8))
    }

    @Test func aSecondTileInTheSameLeafCostsOneReadAndTheLeafCacheIsBounded() throws {
        var options = PMTilesWriter.Options()
        options.entriesPerLeaf = 10
        let input = tiles(z: 4, count: 256)
        let source = CountingRanges(try PMTilesWriter.write(input, options: options))
        let reader = try PMTilesReader(source: source)
        // Tiles 0 and 1 of zoom 4 (ids next to each other) sit in one leaf of ten entries.
        let (first, second) = (input[0], input[1])
        source.reads = []
        #expect(try reader.tile(z: first.z, x: first.x, y: first.y) == first.bytes)
        #expect(source.reads.count == 2, "a leaf directory and a tile: \(source.reads)")
        source.reads = []
        #expect(try reader.tile(z: second.z, x: second.x, y: second.y) == second.bytes)
        #expect(source.reads.count == 1 && source.reads.first?.length == second.bytes.count, "only the tile: \(source.reads)")
        #expect(reader.cachedLeafCount == 1)

        // A cache of ten entries holds one leaf: going back to the first leaf reads it again.
        var limits = PMTilesLimits()
        limits.cachedLeafEntries = 10
        let small = try PMTilesReader(source: source, limits: limits)
        let far = input[200]
        source.reads = []
        for tile in [first, far, first] { #expect(try small.tile(z: tile.z, x: tile.x, y: tile.y) == tile.bytes) }
        #expect(source.reads.count == 6 && small.cachedLeafCount == 1, "\(source.reads)")
        // Every tile still reads back right through a cache that keeps evicting.
        for tile in input { #expect(try small.tile(z: tile.z, x: tile.x, y: tile.y) == tile.bytes) }
    }

    /// A hand-made archive: `root` and `leaves` directories (encoded by the test), tile data `data`.
    private func archive(root: [UInt8], leaves: [UInt8] = [], data: [UInt8], edit: (inout PMTilesHeader) -> Void = { _ in }) -> [UInt8] {
        var header = PMTilesHeader()
        header.internalCompression = .none
        header.tileCompression = .none
        header.rootDirectoryOffset = 127
        header.rootDirectoryLength = UInt64(root.count)
        header.metadataOffset = 127 + UInt64(root.count)
        header.leafDirectoriesOffset = header.metadataOffset
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + UInt64(leaves.count)
        header.tileDataLength = UInt64(data.count)
        edit(&header)
        return header.encoded() + root + leaves + data
    }

    /// A directory's bytes from its columns (offsets as stored: 0 = after the previous, else offset + 1).
    private func directory(ids: [UInt64], runs: [UInt64], lengths: [UInt64], storedOffsets: [UInt64]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varint(UInt64(ids.count))
        var previous: UInt64 = 0
        for id in ids {
            writer.varint(id - previous)
            previous = id
        }
        for column in [runs, lengths, storedOffsets] { for value in column { writer.varint(value) } }
        return writer.bytes
    }

    @Test func offsetZeroMeansRightAfterThePreviousEntry() throws {
        let data: [UInt8] = [1, 2, 3, 4, 5, 6]
        let root = directory(ids: [0, 1, 2], runs: [1, 1, 1], lengths: [2, 2, 2], storedOffsets: [1, 0, 0])
        let reader = try PMTilesReader(source: archive(root: root, data: data))
        #expect(try reader.tile(z: 0, x: 0, y: 0) == [1, 2])
        #expect(try reader.tile(z: 1, x: 0, y: 0) == [3, 4])
        #expect(try reader.tile(z: 1, x: 0, y: 1) == [5, 6])
        #expect(try reader.tile(z: 1, x: 1, y: 1) == nil)
    }

    /// The error `body` throws, or nil.
    private func failure(_ body: () throws -> Void) -> PMTilesError? {
        do {
            try body()
            return nil
        } catch {
            return error as? PMTilesError
        }
    }

    @Test func damagedArchivesAreRefusedWithEvidence() throws {
        let data: [UInt8] = [1, 2]
        let root = directory(ids: [0], runs: [1], lengths: [2], storedOffsets: [1])
        let good = archive(root: root, data: data)
        var badMagic = good
        badMagic[0] = UInt8(ascii: "X")
        #expect(failure { _ = try PMTilesReader(source: badMagic) }?.kind == .notPMTiles)
        var version2 = good
        version2[7] = 2
        #expect(failure { _ = try PMTilesReader(source: version2) }?.message.contains("found 2") == true)
        #expect(failure { _ = try PMTilesReader(source: Array(good.prefix(100))) }?.kind == .notPMTiles)
        let past = failure { _ = try PMTilesReader(source: archive(root: root, data: data) { $0.tileDataLength = 1_000 }) }
        #expect(past?.kind == .outOfBounds && past?.byteOffset == 56 && past?.message.contains("tile data") == true)
        #expect(failure { _ = try PMTilesReader(source: Array(good.dropLast())) }?.kind == .outOfBounds)
        let entryPast = directory(ids: [0], runs: [1], lengths: [5], storedOffsets: [1])
        #expect(failure { _ = try PMTilesReader(source: archive(root: entryPast, data: data)) }?.kind == .outOfBounds)
        for (name, compression) in [("brotli", PMTilesCompression.brotli), ("zstd", .zstd)] {
            let refused = failure { _ = try PMTilesReader(source: archive(root: root, data: data) { $0.tileCompression = compression }) }
            #expect(refused?.kind == .unsupportedCompression && refused?.message.contains(name) == true)
            let internalRefused = failure { _ = try PMTilesReader(source: archive(root: root, data: data) { $0.internalCompression = compression }) }
            #expect(internalRefused?.kind == .unsupportedCompression && internalRefused?.byteOffset == 97)
        }
        let repeated = directory(ids: [1, 1], runs: [1, 1], lengths: [1, 1], storedOffsets: [1, 0])
        let nonIncreasing = failure { _ = try PMTilesReader(source: archive(root: repeated, data: data)) }
        #expect(nonIncreasing?.kind == .malformedDirectory && nonIncreasing?.message.contains("increasing") == true)
        let hugeCount = [0xFF, 0xFF, 0xFF, 0x7F] + root
        #expect(failure { _ = try PMTilesReader(source: archive(root: hugeCount, data: data)) }?.kind == .malformedDirectory)
    }

    @Test func leafLoopsAndDeepLeavesAreRefused() throws {
        // A leaf directory whose only entry points at itself.
        let leaf = directory(ids: [0], runs: [0], lengths: [5], storedOffsets: [1])
        #expect(leaf.count == 5)
        let root = directory(ids: [0], runs: [0], lengths: [5], storedOffsets: [1])
        let looping = try PMTilesReader(source: archive(root: root, leaves: leaf, data: [1]))
        let loop = failure { _ = try looping.tile(z: 3, x: 1, y: 1) }
        #expect(loop?.kind == .directoryLoop && loop?.message.contains("again") == true)
        // Four nested leaves, each pointing at the next: deeper than three.
        var leaves: [UInt8] = []
        for level in 0..<4 { leaves += directory(ids: [0], runs: [0], lengths: [5], storedOffsets: [UInt64(5 * (level + 1)) + 1]) }
        leaves += directory(ids: [0], runs: [100], lengths: [1], storedOffsets: [1])
        let deep = try PMTilesReader(source: archive(root: root, leaves: leaves, data: [9]))
        let tooDeep = failure { _ = try deep.tile(z: 2, x: 0, y: 0) }
        #expect(tooDeep?.kind == .directoryLoop && tooDeep?.message.contains("at most 3 deep") == true)
        var limits = PMTilesLimits()
        limits.maximumLeafDepth = 5
        #expect(try PMTilesReader(source: archive(root: root, leaves: leaves, data: [9]), limits: limits).tile(z: 2, x: 0, y: 0) == [9])
    }
}

/// Bytes in memory that count the reads made of them.
private final class CountingRanges: ByteRangeReading {
    let bytes: [UInt8]
    var reads: [(offset: UInt64, length: Int)] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var byteCount: UInt64 { bytes.byteCount }

    func read(offset: UInt64, length: Int) throws -> [UInt8] {
        reads.append((offset, length))
        return try bytes.read(offset: offset, length: length)
    }
}
