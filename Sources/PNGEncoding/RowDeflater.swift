/// Compresses the rows of an 8-bit indexed image, each with PNG's "up" filter, into a zlib stream
/// (RFC 1950 around one dynamic-Huffman DEFLATE block, RFC 1951).
///
/// Why not zlib: a map snapshot is mostly rows equal to the row above (after "up": runs of zeros),
/// and zlib must still read, hash and checksum every byte. At 2560×1920 that is 8.7 ms through
/// libpng with the best settings (up, level 1, `Z_RLE`: 8.9 ms), more than the whole render
/// budget; this encoder compares 8 bytes at a time against the row above, codes each run in O(1)
/// (its Adler-32 included) and touches single bytes only where the row changes: 1.5 ms for the
/// same image, libpng's framing included, and smaller files than zlib level 1 on these images. libpng still
/// writes the file (signature, IHDR, PLTE, the IDAT chunk around this stream, CRCs, IEND), and
/// tests decode every output with libpng and zlib.
///
/// Only two kinds of token are needed: literals, and distance-1 matches (runs of the byte
/// before). A run's first byte is a literal, so no run reaches back across the row's filter byte.
struct RowDeflater {
    /// Tokens: a literal is its byte; a run is `length << 16` (distance 1 implied).
    private var tokens: [UInt32] = []
    private var zeroRow: [UInt8] = []
    // A copy of the length table: reading the static directly costs a `swift_once` per run.
    private let lengthSymbol = DeflateTables.lengthSymbol

    /// An empty deflater; its buffers grow to the largest image and are kept for the next.
    init() {}

    /// The zlib stream of `height` rows of `width` indices, `stride` bytes apart, each prefixed
    /// with filter byte 2 (up).
    mutating func compress(_ indices: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt8] {
        if zeroRow.count < width { zeroRow = [UInt8](repeating: 0, count: width) }
        tokens.removeAll(keepingCapacity: true)
        tokens.reserveCapacity(height * 16)
        var literalFrequencies = [UInt32](repeating: 0, count: 286)
        var adler = Adler32()
        zeroRow.withUnsafeBufferPointer { zeros in
            for row in 0..<height {
                let current = indices + row * stride
                let above = row == 0 ? zeros.baseAddress! : indices + (row - 1) * stride
                tokenizeRow(current, above, width, &literalFrequencies, &adler)
            }
        }
        literalFrequencies[256] += 1  // end of block
        return DeflateBlockWriter.zlibStream(tokens: tokens, literalFrequencies: literalFrequencies, adler: adler.value)
    }

    /// Appends one filtered row's tokens: runs found 8 bytes at a time where the row equals the
    /// row above, byte by byte elsewhere.
    private mutating func tokenizeRow(
        _ current: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ width: Int,
        _ frequencies: inout [UInt32], _ adler: inout Adler32
    ) {
        emitLiteral(2, &frequencies, &adler)
        var x = 0
        while x < width {
            let value = current[x] &- above[x]
            var end = x + 1
            if value == 0 {
                // Equal to the row above: skip 32 bytes at a time while they match (most of a
                // map's rows), then words, then bytes.
                while end + 32 <= width {
                    let mine = UnsafeRawPointer(current + end), theirs = UnsafeRawPointer(above + end)
                    let difference =
                        (mine.loadUnaligned(as: UInt64.self) ^ theirs.loadUnaligned(as: UInt64.self))
                        | (mine.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ theirs.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                        | (mine.loadUnaligned(fromByteOffset: 16, as: UInt64.self) ^ theirs.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
                        | (mine.loadUnaligned(fromByteOffset: 24, as: UInt64.self) ^ theirs.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
                    if difference != 0 { break }
                    end += 32
                }
                while end + 8 <= width,
                    UnsafeRawPointer(current + end).loadUnaligned(as: UInt64.self)
                        == UnsafeRawPointer(above + end).loadUnaligned(as: UInt64.self)
                {
                    end += 8
                }
                while end < width, current[end] == above[end] { end += 1 }
            } else {
                while end < width, current[end] &- above[end] == value { end += 1 }
            }
            emitRun(value, count: end - x, &frequencies, &adler)
            x = end
        }
        adler.reduce()
    }

    @inline(__always)
    private mutating func emitLiteral(_ byte: UInt8, _ frequencies: inout [UInt32], _ adler: inout Adler32) {
        tokens.append(UInt32(byte))
        frequencies[Int(byte)] += 1
        adler.add(byte)
    }

    /// `count` copies of `value`: a literal and then distance-1 matches of 3...258 bytes, or
    /// literals when the run is too short for a match.
    @inline(__always)
    private mutating func emitRun(_ value: UInt8, count: Int, _ frequencies: inout [UInt32], _ adler: inout Adler32) {
        if count < 4 {
            for _ in 0..<count { emitLiteral(value, &frequencies, &adler) }
            return
        }
        emitLiteral(value, &frequencies, &adler)
        adler.add(value, count: count - 1)
        var remaining = count - 1
        while remaining > 0 {
            // Never leave a tail of 1 or 2 bytes, which no match can code.
            var length = min(remaining, 258)
            if (1...2).contains(remaining - length) { length = remaining - 3 }
            tokens.append(UInt32(length) << 16)
            frequencies[Int(lengthSymbol[length])] += 1
            remaining -= length
        }
    }
}

/// The zlib stream's checksum of the uncompressed bytes, with runs added in O(1).
struct Adler32 {
    private var a: UInt64 = 1, b: UInt64 = 0
    private static let modulus: UInt64 = 65_521

    /// Adds one byte. Call `reduce()` at least every 4,000,000 bytes (no overflow before that).
    @inline(__always)
    mutating func add(_ byte: UInt8) {
        a &+= UInt64(byte)
        b &+= a
    }

    /// Adds `count` copies of `byte`: a += n·v, b += n·a + v·n(n+1)/2.
    mutating func add(_ byte: UInt8, count: Int) {
        reduce()
        let n = UInt64(count), v = UInt64(byte)
        b = (b + n % Adler32.modulus * a + v * (n * (n + 1) / 2 % Adler32.modulus)) % Adler32.modulus
        a = (a + n * v) % Adler32.modulus
    }

    /// Brings both sums below the modulus.
    mutating func reduce() {
        a %= Adler32.modulus
        b %= Adler32.modulus
    }

    /// The checksum as stored (big-endian) at the end of the stream.
    var value: UInt32 { UInt32((b % Adler32.modulus) << 16 | (a % Adler32.modulus)) }
}
