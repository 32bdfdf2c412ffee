import Decompression
import Testing
import TrackSynthesis
import VectorTiles

/// Tiles made to hurt: each is a named problem, never a crash, with work bounded by the bytes and
/// `VectorTileLimits`.
@Suite struct HostileVectorTileTests {
    typealias Feature = SyntheticVectorTile.Feature

    @Test func commandCountOf2To29IsRefusedBeforeAnyAllocation() throws {
        let huge = Feature(type: 2, geometry: [SyntheticVectorTile.command(1, count: 1), 2, 2, SyntheticVectorTile.command(2, count: 1 << 28), 2, 2])
        let found = problem { try decodedGeometry(huge) }
        #expect(found?.kind == .invalidGeometry)
        #expect(found?.message.contains("command count of 268435456") == true)
        let moveTo = Feature(type: 1, geometry: [SyntheticVectorTile.command(1, count: (1 << 29) - 1), 2, 2])
        #expect(problem { try decodedGeometry(moveTo) }?.kind == .invalidGeometry)
    }

    @Test func coordinatesFarOutsideTheExtentAreAProblem() throws {
        let far = Feature.lines([[(0, 0), (2_000_000_000, 5)]])
        let found = problem { try decodedGeometry(far) }
        #expect(found?.kind == .coordinateOutOfRange && found?.message.contains("-16384…20480") == true)
        // Deltas that wrap a 32-bit cursor are caught on the way, not after the wrap.
        let wrapping = Feature(
            type: 1, geometry: [SyntheticVectorTile.command(1, count: 3)] + Array(repeating: SyntheticVectorTile.zigzag(Int32.max), count: 6))
        #expect(problem { try decodedGeometry(wrapping) }?.kind == .coordinateOutOfRange)
    }

    @Test func twoMillionVertexPolygonIsRefusedByTheFeatureLimit() throws {
        let ring = (0..<2_000_000).map { k -> (x: Int32, y: Int32) in (Int32(k % 4000), Int32(k % 2 == 0 ? 0 : 4000)) }
        let found = problem { try decodedGeometry(Feature.polygon(rings: [ring])) }
        #expect(found?.kind == .limitExceeded && found?.message.contains("500000") == true)
    }

    @Test func tileVertexBudgetIsSharedAcrossFeatures() throws {
        var limits = VectorTileLimits()
        limits.maximumVerticesPerTile = 10
        let line = Feature.lines([[(0, 0), (1, 1), (2, 2), (3, 3)]])
        let tile = try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: "l", features: [line, line, line])]), limits: limits)
        let decoded = tile.decoded()
        #expect(decoded.layers[0].features.count == 2 && decoded.skippedFeatureCount == 1)
        #expect(decoded.problems.first?.kind == .limitExceeded && decoded.problems.first?.featureIndex == 2)
    }

    @Test func tileWideCountsAndSizeAreBounded() throws {
        var limits = VectorTileLimits()
        limits.maximumFeaturesPerTile = 3
        limits.maximumKeysAndValuesPerTile = 3
        let point = Feature.points([(1, 1)])
        let twoLayers: [SyntheticVectorTile.Layer] = [.init(name: "a", features: [point, point]), .init(name: "b", features: [point, point])]
        let features = problem { try VectorTile(bytes: SyntheticVectorTile.encode(twoLayers), limits: limits) }
        #expect(features?.kind == .limitExceeded && features?.layerName == "b" && features?.message.contains("3 features") == true)
        let tagged = Feature.points(properties: [("a", .int(1)), ("b", .int(2))], [(1, 1)])
        let tables = problem { try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: "t", features: [tagged])]), limits: limits) }
        #expect(tables?.kind == .limitExceeded && tables?.message.contains("keys and values") == true)
        limits.maximumTileBytes = 10
        #expect(problem { try VectorTile(bytes: SyntheticVectorTile.encode(twoLayers), limits: limits) }?.kind == .limitExceeded)
    }

    @Test func structurallyBrokenTilesAreRefusedWithEvidence() throws {
        let good = SyntheticVectorTile.encode([.init(name: "water", features: [Feature.points([(1, 1)])])])
        let truncated = problem { try VectorTile(bytes: Array(good.dropLast(3))) }
        #expect(truncated?.kind == .truncated)
        #expect(problem { try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: nil, features: [])])) }?.kind == .invalidLayer)
        let version = problem { try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: "v", version: 3, features: [])])) }
        #expect(version?.kind == .unsupportedVersion && version?.layerName == "v" && version?.message.contains("found 3") == true)
        #expect(problem { try VectorTile(bytes: SyntheticVectorTile.encode([.init(name: "e", extent: 0, features: [])])) }?.kind == .invalidLayer)
        #expect(problem { try VectorTile(bytes: [0x1F, 0x8B, 0x08]) }?.kind == .malformedField)  // wire type 7
        #expect(problem { try VectorTile(bytes: Array(repeating: 0xFF, count: 11)) }?.kind == .malformedField)  // varint > 64 bits
        // A layer whose name has the wrong wire type.
        var layer = ProtobufWriter()
        layer.varintField(1, 5)
        var tile = ProtobufWriter()
        tile.message(3, layer.bytes)
        let wrongType = problem { try VectorTile(bytes: tile.bytes) }
        #expect(wrongType?.kind == .malformedField && wrongType?.byteOffset == 3)
        #expect(try VectorTile(bytes: []).layers.isEmpty)
    }

    @Test func randomAndTruncatedBuffersNeverCrash() throws {
        var random = SplitMix64(seed: 23)
        let real = try VectorTileBytes.inflateIfNeeded(try vectorFixture(realTileNames[1].name))
        var opened = 0
        var refused = 0
        func attempt(_ bytes: [UInt8]) {
            do {
                let tile = try VectorTile(bytes: bytes)
                _ = tile.decoded()
                opened += 1
            } catch {
                #expect(error.byteOffset >= 0 && error.byteOffset <= bytes.count)
                refused += 1
            }
        }
        for _ in 0..<2_000 {
            attempt((0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        for length in stride(from: 0, to: real.count, by: 97) { attempt(Array(real.prefix(length))) }
        for _ in 0..<300 {
            var damaged = real
            for _ in 0..<4 { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next()) }
            attempt(damaged)
        }
        #expect(opened > 0 && refused > 0)
    }

    @Test func gzipBombIsRefusedNamingTheLimit() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let bomb = Compression.deflate(zeros, gzip: true, level: 9)
        let found = problem { try VectorTileBytes.inflateIfNeeded(bomb, limit: 1 << 20) }
        #expect(found?.kind == .limitExceeded && found?.message.contains("1048576") == true)
        // Within the limit, a gzipped tile inflates; plain bytes pass through untouched.
        let tile = SyntheticVectorTile.encode([.init(name: "water", features: [Feature.points([(1, 1)])])])
        #expect(try VectorTileBytes.inflateIfNeeded(Compression.deflate(tile, gzip: true)) == tile)
        #expect(try VectorTileBytes.inflateIfNeeded(tile) == tile)
        let broken = problem { try VectorTileBytes.inflateIfNeeded(Array(Compression.deflate(tile, gzip: true).dropLast(6))) }
        #expect(broken?.kind == .brokenCompression)
    }
}
