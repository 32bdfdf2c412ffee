import MapTiles
import Testing
import TrackSynthesis

@testable import TileSources

/// The libdeflate tile reader against libpng on the PNG kinds map servers send (palette of 1–8
/// bits with and without transparency, grey, grey + alpha, RGB, RGBA), every row filter, and
/// broken tiles.
struct PNGTileReaderTests {
    /// A PNG kind: colour type, bit depth, bytes a pixel in a filtered row (at least 1).
    private struct Kind: CustomStringConvertible {
        var colorType: UInt8, depth: Int, channels: Int
        var description: String { "colour type \(colorType), \(depth) bits" }
    }

    private static let kinds = [
        Kind(colorType: 3, depth: 1, channels: 1), Kind(colorType: 3, depth: 2, channels: 1), Kind(colorType: 3, depth: 4, channels: 1),
        Kind(colorType: 3, depth: 8, channels: 1), Kind(colorType: 0, depth: 8, channels: 1), Kind(colorType: 4, depth: 8, channels: 2),
        Kind(colorType: 2, depth: 8, channels: 3), Kind(colorType: 6, depth: 8, channels: 4),
    ]

    /// Every kind, with rows filtered none, sub, up, average and Paeth in turn, decodes to
    /// exactly libpng's premultiplied pixels; palette tiles stay indexed.
    @Test(arguments: kinds.indices, [false, true])
    func decodesExactlyAsLibpngDoes(kindIndex: Int, transparent: Bool) throws {
        let kind = Self.kinds[kindIndex]
        let png = Self.png(kind, width: 37, height: 23, transparentPalette: transparent)
        let reader = PNGTileReader()
        let fast = try #require(reader.decode(png, width: 37, height: 23)).get()
        let reference = try TileDecoder.decode(png).get()
        #expect(fast.pixels == reference.pixels, "\(kind)")
        #expect(fast.isIndexed == (kind.colorType == 3), "\(kind)")
        // The reader's buffers are reused: a second, different tile decodes as freshly.
        let other = Self.png(kind, width: 37, height: 23, transparentPalette: transparent, seed: 9)
        #expect(try #require(reader.decode(other, width: 37, height: 23)).get().pixels == TileDecoder.decode(other).get().pixels)
    }

    /// A stream cut short, a row with filter type 7 and a chunk longer than the tile are failures
    /// with a message, never a crash; an interlaced PNG is left to libpng.
    @Test func brokenTilesFailWithAMessage() {
        let kind = Kind(colorType: 2, depth: 8, channels: 3)
        let reader = PNGTileReader()
        var short = Self.png(kind, width: 16, height: 16, idatCut: 10)
        guard case .failure(let inflate)? = reader.decode(short, width: 16, height: 16) else {
            Issue.record("a cut stream decoded")
            return
        }
        #expect(inflate.description.contains("does not inflate"))
        let badFilter = Self.png(kind, width: 16, height: 16, forcedFilter: 7)
        guard case .failure(let filter)? = reader.decode(badFilter, width: 16, height: 16) else {
            Issue.record("filter type 7 decoded")
            return
        }
        #expect(filter.description.contains("filter type 7"))
        short = Self.png(kind, width: 16, height: 16)
        short[33 + 3] = 0xFF  // the first chunk after IHDR claims ~4 GB... of a few hundred bytes
        guard case .failure(let length)? = reader.decode(short, width: 16, height: 16) else {
            Issue.record("an overlong chunk decoded")
            return
        }
        #expect(length.description.contains("past the end"))
        var interlaced = Self.png(kind, width: 16, height: 16)
        interlaced[28] = 1
        #expect(reader.decode(interlaced, width: 16, height: 16) == nil)
    }

    // MARK: - Making PNGs

    /// A PNG of `kind` with pseudo-random pixels, row r filtered with filter r mod 5.
    private static func png(
        _ kind: Kind, width: Int, height: Int, transparentPalette: Bool = false, seed: UInt64 = 1, idatCut: Int = 0, forcedFilter: UInt8? = nil
    ) -> [UInt8] {
        var state = seed
        func random() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let rowBytes = (width * kind.channels * kind.depth + 7) / 8
        let step = max(1, kind.channels * kind.depth / 8)
        var raw: [[UInt8]] = []
        for _ in 0..<height {
            // Runs of equal bytes (as maps have) mixed with noise, so every filter sees both.
            var row: [UInt8] = []
            while row.count < rowBytes {
                let value = random(), run = Int(random() % 6) + 1
                row += [UInt8](repeating: value, count: min(run, rowBytes - row.count))
            }
            if kind.colorType == 3 && kind.depth == 8 { row = row.map { $0 % 40 } }  // indices inside the palette
            raw.append(row)
        }
        var data: [UInt8] = []
        for (index, row) in raw.enumerated() {
            let filter = forcedFilter ?? UInt8(index % 5)
            let above = index == 0 ? [UInt8](repeating: 0, count: rowBytes) : raw[index - 1]
            data.append(filter)
            for x in 0..<rowBytes {
                let left = x >= step ? Int(row[x - step]) : 0, up = Int(above[x]), upLeft = x >= step ? Int(above[x - step]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let p = left + up - upLeft
                    let pa = abs(p - left), pb = abs(p - up), pc = abs(p - upLeft)
                    predictor = pa <= pb && pa <= pc ? left : (pb <= pc ? up : upLeft)
                default: predictor = 0
                }
                data.append(row[x] &- UInt8(truncatingIfNeeded: predictor))
            }
        }
        // A zlib stream: header, raw DEFLATE, Adler-32 (RFC 1950).
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        var compressed = [0x78, 0x9C] + Compression.deflate(data, gzip: false) + be32(Int(b << 16 | a))
        if idatCut > 0 { compressed.removeLast(idatCut) }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(width) + be32(height) + [UInt8(kind.depth), kind.colorType, 0, 0, 0])
        if kind.colorType == 3 {
            let entries = min(256, 1 << kind.depth)
            png += chunk("PLTE", (0..<(entries * 3)).map { _ in random() })
            if transparentPalette { png += chunk("tRNS", (0..<(entries / 2)).map { _ in random() }) }
        }
        png += chunk("IDAT", Array(compressed.prefix(compressed.count / 2)))
        png += chunk("IDAT", Array(compressed.dropFirst(compressed.count / 2)))
        png += chunk("IEND", [])
        return png
    }

    private static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return be32(data.count) + typed + be32(Int(crc ^ 0xFFFF_FFFF))
    }
}
