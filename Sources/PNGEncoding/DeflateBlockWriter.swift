/// Writes tokens as a zlib stream: header, one final dynamic-Huffman block (RFC 1951 §3.2.7),
/// Adler-32.
enum DeflateBlockWriter {
    /// The order code-length code lengths are stored in (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// `tokens` as made by `RowDeflater`: a literal byte, or `length << 16` for a distance-1 match.
    static func zlibStream(tokens: [UInt32], literalFrequencies: [UInt32], adler: UInt32) -> [UInt8] {
        var writer = BitWriter(capacity: tokens.count + 1024)
        // CMF 0x78 (deflate, 32 KB window), FLG 0x01 (fastest; 0x7801 is a multiple of 31).
        writer.bytes.append(0x78)
        writer.bytes.append(0x01)
        let literals = HuffmanCode(frequencies: literalFrequencies, maximumLength: 15)
        // Every match has distance 1 (code 0); code 1 pads the distance code to two codes.
        var distanceFrequencies = [UInt32](repeating: 0, count: 30)
        distanceFrequencies[0] = 1
        let distances = HuffmanCode(frequencies: distanceFrequencies, maximumLength: 15)
        writer.write(1, bits: 1)  // BFINAL
        writer.write(2, bits: 2)  // BTYPE = dynamic Huffman
        writeCodeLengths(literals.lengths, distances.lengths, &writer)

        let distanceCode = UInt64(distances.reversedCodes[0]), distanceBits = Int(distances.lengths[0])
        // Local copies: each read of a static table is a `swift_once` call.
        let lengthSymbol = DeflateTables.lengthSymbol, lengthExtraBits = DeflateTables.lengthExtraBits, lengthBase = DeflateTables.lengthBase
        literals.lengths.withUnsafeBufferPointer { lengths in
            literals.reversedCodes.withUnsafeBufferPointer { codes in
                for token in tokens {
                    let length = Int(token >> 16)
                    if length == 0 {
                        writer.write(UInt64(codes[Int(token)]), bits: Int(lengths[Int(token)]))
                        continue
                    }
                    let symbol = Int(lengthSymbol[length])
                    let extraBits = Int(lengthExtraBits[symbol - 257])
                    let extra = UInt64(length - Int(lengthBase[symbol - 257]))
                    // One write: code, extra bits, distance code (15 + 5 + 1 bits at most: the
                    // distance code has two symbols, so one bit).
                    let codeBits = Int(lengths[symbol])
                    writer.write(
                        UInt64(codes[symbol]) | extra << codeBits | distanceCode << (codeBits + extraBits),
                        bits: codeBits + extraBits + distanceBits)
                }
                writer.write(UInt64(codes[256]), bits: Int(lengths[256]))
            }
        }
        writer.flushToByte()
        for shift in [24, 16, 8, 0] { writer.bytes.append(UInt8(truncatingIfNeeded: adler >> UInt32(shift))) }
        return writer.bytes
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

/// LSB-first bit packing (RFC 1951 §3.1.1).
struct BitWriter {
    /// The bytes written so far.
    var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `bits` bits of `value`, at most 32 at once (fewer than 32 are buffered
    /// between calls, so the 64-bit buffer never overflows).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        if count >= 32 {
            let word = UInt32(truncatingIfNeeded: buffer)
            bytes.append(UInt8(truncatingIfNeeded: word))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            buffer >>= 32
            count -= 32
        }
    }

    /// Pads with zero bits to a byte boundary and writes what is buffered.
    mutating func flushToByte() {
        while count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count = max(0, count - 8)
        }
        buffer = 0
    }
}
