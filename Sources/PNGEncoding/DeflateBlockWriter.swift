/// Writes tokens as a zlib stream: header, one final dynamic-Huffman block (RFC 1951 §3.2.7),
/// Adler-32.
enum DeflateBlockWriter {
    /// The order code-length code lengths are stored in (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// `tokens` as made by `RowDeflater` (`DeflateTokens`), `histogram` their counts by token,
    /// the end of block's included.
    static func zlibStream(tokens: UnsafeBufferPointer<UInt16>, histogram: [UInt32], adler: UInt32) -> [UInt8] {
        let lengthSymbol = DeflateTables.lengthSymbol, lengthExtraBits = DeflateTables.lengthExtraBits, lengthBase = DeflateTables.lengthBase
        // The literal/length alphabet's frequencies: literals and the end of block as counted,
        // each match length added to its length symbol's.
        var literalFrequencies = [UInt32](repeating: 0, count: 286)
        for symbol in 0...256 { literalFrequencies[symbol] = histogram[symbol] }
        for length in 3...258 { literalFrequencies[Int(lengthSymbol[length])] += histogram[DeflateTokens.match(length: length)] }
        let literals = HuffmanCode(frequencies: literalFrequencies, maximumLength: 15)
        // Every match has distance 1 (code 0); code 1 pads the distance code to two codes.
        var distanceFrequencies = [UInt32](repeating: 0, count: 30)
        distanceFrequencies[0] = 1
        let distances = HuffmanCode(frequencies: distanceFrequencies, maximumLength: 15)

        // Each token's whole code as one table entry: its bits in the low 24 bits, their count in
        // the high 8. A match is its length symbol's code, its extra bits and the distance code
        // (15 + 5 + 1 bits at most: the distance code has two symbols, so one bit).
        var table = [UInt32](repeating: 0, count: DeflateTokens.count)
        for symbol in 0...256 { table[symbol] = UInt32(literals.reversedCodes[symbol]) | UInt32(literals.lengths[symbol]) << 24 }
        let distanceCode = UInt32(distances.reversedCodes[0]), distanceBits = UInt32(distances.lengths[0])
        for length in 3...258 {
            let symbol = Int(lengthSymbol[length])
            let extraBits = UInt32(lengthExtraBits[symbol - 257]), extra = UInt32(length - Int(lengthBase[symbol - 257]))
            let codeBits = UInt32(literals.lengths[symbol])
            let code = UInt32(literals.reversedCodes[symbol]) | extra << codeBits | distanceCode << (codeBits + extraBits)
            table[DeflateTokens.match(length: length)] = code | (codeBits + extraBits + distanceBits) << 24
        }

        // At most 24 bits a token, the header's code lengths well under 1 KB.
        let capacity = 1024 + 3 * tokens.count
        return [UInt8](unsafeUninitializedCapacity: capacity) { output, written in
            var writer = BitWriter(output.baseAddress!)
            // CMF 0x78 (deflate, 32 KB window), FLG 0x01 (fastest; 0x7801 is a multiple of 31).
            writer.write(0x0178, bits: 16)
            writer.write(1, bits: 1)  // BFINAL
            writer.write(2, bits: 2)  // BTYPE = dynamic Huffman
            writeCodeLengths(literals.lengths, distances.lengths, &writer)
            table.withUnsafeBufferPointer { table in
                for token in tokens {
                    let entry = table[Int(token)]
                    writer.write(UInt64(entry & 0xFF_FFFF), bits: Int(entry >> 24))
                }
                let end = table[DeflateTokens.endOfBlock]
                writer.write(UInt64(end & 0xFF_FFFF), bits: Int(end >> 24))
            }
            writer.flushToByte()
            for shift in [24, 16, 8, 0] { writer.write(UInt64(UInt8(truncatingIfNeeded: adler >> UInt32(shift))), bits: 8) }
            writer.flushToByte()
            precondition(writer.count <= capacity, "the stream outgrew its bound")
            written = writer.count
        }
    }

    /// HLIT, HDIST, HCLEN and the run-length coded code lengths of both codes.
    private static func writeCodeLengths(_ literalLengths: [UInt8], _ distanceLengths: [UInt8], _ writer: inout BitWriter) {
        var literalCount = 286
        while literalCount > 257, literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = 30
        while distanceCount > 1, distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }
        let all = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])

        // Run-length code: 16 repeats the previous length 3-6 times, 17 and 18 give 3-10 and
        // 11-138 zeros. Symbols carry their extra bits as (symbol, extra value).
        var symbols: [(symbol: Int, extra: Int)] = []
        var index = 0
        while index < all.count {
            let length = all[index]
            var run = 1
            while index + run < all.count, all[index + run] == length { run += 1 }
            index += run
            if length == 0 {
                while run >= 11 { let n = min(run, 138); symbols.append((18, n - 11)); run -= n }
                if run >= 3 { symbols.append((17, run - 3)); run = 0 }
            } else {
                symbols.append((Int(length), 0))
                run -= 1
                while run >= 3 { let n = min(run, 6); symbols.append((16, n - 3)); run -= n }
            }
            for _ in 0..<run { symbols.append((Int(length), 0)) }
        }
        var frequencies = [UInt32](repeating: 0, count: 19)
        for entry in symbols { frequencies[entry.symbol] += 1 }
        let code = HuffmanCode(frequencies: frequencies, maximumLength: 7)
        var codeLengthCount = 19
        while codeLengthCount > 4, code.lengths[codeLengthOrder[codeLengthCount - 1]] == 0 { codeLengthCount -= 1 }

        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceCount - 1), bits: 5)
        writer.write(UInt64(codeLengthCount - 4), bits: 4)
        for position in 0..<codeLengthCount { writer.write(UInt64(code.lengths[codeLengthOrder[position]]), bits: 3) }
        let extraBits = [16: 2, 17: 3, 18: 7]
        for entry in symbols {
            writer.write(UInt64(code.reversedCodes[entry.symbol]), bits: Int(code.lengths[entry.symbol]))
            if let bits = extraBits[entry.symbol] { writer.write(UInt64(entry.extra), bits: bits) }
        }
    }
}

/// DEFLATE's length alphabet (RFC 1951 §3.2.5).
enum DeflateTables {
    /// Length symbol (257...285) for each match length 0...258 (0 for lengths below 3).
    static let lengthSymbol: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 259)
        for symbol in 0..<29 {
            let base = Int(lengthBase[symbol]), span = 1 << Int(lengthExtraBits[symbol])
            for length in base..<min(259, base + span) { table[length] = UInt16(257 + symbol) }
        }
        table[258] = 285  // 258 has its own symbol (284 with all extra bits set would be 258 too)
        return table
    }()
    /// Smallest length of each length symbol, from 257.
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    /// Extra bits of each length symbol, from 257.
    static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
}

/// LSB-first bit packing (RFC 1951 §3.1.1) into memory the caller sized.
struct BitWriter {
    private let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0
    private var buffer: UInt64 = 0
    private var bits = 0

    /// A writer starting at `base`.
    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Appends the low `bits` bits of `value`, at most 32 at once (fewer than 32 are buffered
    /// between calls, so the 64-bit buffer never overflows).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        buffer |= value << UInt64(self.bits)
        self.bits += bits
        if self.bits >= 32 {
            UnsafeMutableRawPointer(base + count).storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
            count += 4
            buffer >>= 32
            self.bits -= 32
        }
    }

    /// Pads with zero bits to a byte boundary and writes what is buffered.
    mutating func flushToByte() {
        while bits > 0 {
            base[count] = UInt8(truncatingIfNeeded: buffer)
            count += 1
            buffer >>= 8
            bits = max(0, bits - 8)
        }
        buffer = 0
    }
}
