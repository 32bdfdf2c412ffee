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
///
/// The tokens are 16-bit, written through raw pointers into a buffer kept between images and
/// counted in one histogram by token (`DeflateTokens`), and a difference inside an 8-byte word is
/// found from its lowest set byte: the 90 palette images of the 24-track vector bench run (a
/// vector map's busy rows are single literals) encode in 102 ms instead of 156 (checked array
/// appends and frequency updates per literal, then byte steps to each change), byte for byte the
/// same streams.
struct RowDeflater {
    /// The tokens of the image being compressed (`DeflateTokens`); only the first `count` are
    /// meaningful, the rest is room kept for the next image.
    private var tokens: [UInt16] = []
    private var zeroRow: [UInt8] = []

    /// An empty deflater; its buffers grow to the largest image and are kept for the next.
    init() {}

    /// The zlib stream of `height` rows of `width` indices, `stride` bytes apart, each prefixed
    /// with filter byte 2 (up).
    mutating func compress(_ indices: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt8] {
        if zeroRow.count < width { zeroRow = [UInt8](repeating: 0, count: width) }
        // A row adds at most width + 1 tokens; room grows (doubling) only when a row might not fit.
        if tokens.count < height * 16 + width + 1 { tokens = [UInt16](repeating: 0, count: height * 16 + width + 1) }
        var histogram = [UInt32](repeating: 0, count: DeflateTokens.count)
        var adler = Adler32()
        var count = 0
        var storage = tokens
        tokens = []
        zeroRow.withUnsafeBufferPointer { zeros in
            histogram.withUnsafeMutableBufferPointer { histogram in
                for row in 0..<height {
                    if storage.count - count < width + 1 { storage += repeatElement(0, count: max(storage.count, width + 1)) }
                    let current = indices + row * stride
                    let above = row == 0 ? zeros.baseAddress! : indices + (row - 1) * stride
                    storage.withUnsafeMutableBufferPointer { output in
                        var writer = TokenWriter(tokens: output.baseAddress!, count: count, histogram: histogram.baseAddress!)
                        Self.tokenizeRow(current, above, width, &writer, &adler)
                        count = writer.count
                    }
                }
            }
        }
        histogram[DeflateTokens.endOfBlock] += 1
        let stream = storage.withUnsafeBufferPointer { tokens in
            DeflateBlockWriter.zlibStream(tokens: UnsafeBufferPointer(rebasing: tokens[0..<count]), histogram: histogram, adler: adler.value)
        }
        tokens = storage
        return stream
    }

    /// Appends one filtered row's tokens: runs found 8 bytes at a time where the row equals the
    /// row above, byte by byte elsewhere.
    @inline(__always)
    private static func tokenizeRow(
        _ current: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ width: Int, _ writer: inout TokenWriter, _ adler: inout Adler32
    ) {
        writer.literal(2, &adler)
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
                // Then 8 at a time; the first differing byte of a word is its lowest set byte
                // of the difference (little-endian loads).
                while end + 8 <= width {
                    let difference =
                        UnsafeRawPointer(current + end).loadUnaligned(as: UInt64.self)
                        ^ UnsafeRawPointer(above + end).loadUnaligned(as: UInt64.self)
                    if difference != 0 {
                        end += UInt64(littleEndian: difference).trailingZeroBitCount >> 3
                        break
                    }
                    end += 8
                }
                if end + 8 > width {
                    while end < width, current[end] == above[end] { end += 1 }
                }
            } else {
                while end < width, current[end] &- above[end] == value { end += 1 }
            }
            let count = end - x
            if count == 1 {
                writer.literal(value, &adler)
            } else {
                writer.run(value, count: count, &adler)
            }
            x = end
        }
        adler.reduce()
    }
}

/// The token alphabet shared by `RowDeflater` and `DeflateBlockWriter`: a literal byte is its
/// value (0...255), a distance-1 match of length 3...258 is 256 + its length, and 256 + 0 (no
/// match has length 0) stands for the end of the block. One index per token, so the histogram
/// and the writer's code table are looked up without a branch.
enum DeflateTokens {
    /// Tokens in the alphabet: 256 literals, then 259 slots for lengths 0...258.
    static let count = 256 + 259
    /// The end-of-block token.
    static let endOfBlock = 256
    /// The token of a match of `length` bytes at distance 1.
    @inline(__always)
    static func match(length: Int) -> Int { 256 + length }
}

/// Writes tokens and counts them, through raw pointers (`RowDeflater`'s inner loop).
private struct TokenWriter {
    let tokens: UnsafeMutablePointer<UInt16>
    var count: Int
    let histogram: UnsafeMutablePointer<UInt32>

    @inline(__always)
    mutating func literal(_ byte: UInt8, _ adler: inout Adler32) {
        tokens[count] = UInt16(byte)
        count &+= 1
        histogram[Int(byte)] &+= 1
        adler.add(byte)
    }

    /// `count` copies of `value`: a literal and then distance-1 matches of 3...258 bytes, or
    /// literals when the run is too short for a match.
    @inline(__always)
    mutating func run(_ value: UInt8, count: Int, _ adler: inout Adler32) {
        if count < 4 {
            for _ in 0..<count { literal(value, &adler) }
            return
        }
        literal(value, &adler)
        adler.add(value, count: count - 1)
        var remaining = count - 1
        while remaining > 0 {
            // Never leave a tail of 1 or 2 bytes, which no match can code.
            var length = min(remaining, 258)
            if (1...2).contains(remaining - length) { length = remaining - 3 }
            let token = DeflateTokens.match(length: length)
            tokens[self.count] = UInt16(token)
            self.count &+= 1
            histogram[token] &+= 1
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

    /// Adds `count` copies of `byte`: a += n·v, b += n·a + v·n(n+1)/2, left unreduced like
    /// `add(_:)`, under the same rule: `reduce()` at least every 4,000,000 bytes, runs included
    /// (then a < 2^30 and b < 2^52, far from overflow). Reducing at every run was a sixth of
    /// `RowDeflater`'s time (`perf annotate`, a raster run).
    @inline(__always)
    mutating func add(_ byte: UInt8, count: Int) {
        let n = UInt64(count), v = UInt64(byte)
        b &+= n &* a &+ v &* (n &* (n &+ 1) / 2)
        a &+= n &* v
    }

    /// Brings both sums below the modulus.
    mutating func reduce() {
        a %= Adler32.modulus
        b %= Adler32.modulus
    }

    /// The checksum as stored (big-endian) at the end of the stream.
    var value: UInt32 { UInt32((b % Adler32.modulus) << 16 | (a % Adler32.modulus)) }
}
