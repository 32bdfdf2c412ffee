/// gzip (RFC 1952) decompression with `DecompressionLimits`.
public enum Gzip {
    /// Whether `bytes` starts with the gzip magic number.
    public static func hasMagic(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed content of a gzip file. Concatenated members (what `cat a.gz b.gz`
    /// makes, and what parallel compressors write) are joined, as `gunzip` does; zero padding
    /// after the last member (tape-style blocking) is ignored; any other trailing bytes are an error.
    /// Each member's CRC-32 and length are checked by zlib.
    public static func decompress(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecompressionLimits = DecompressionLimits()
    ) throws(DecompressionError) -> [UInt8] {
        guard hasMagic(bytes) else {
            throw DecompressionError(.malformed, at: 0, "expected the gzip magic 1f 8b")
        }
        let budget = limits.outputBudget(inputBytes: bytes.count)
        var output: [UInt8] = []
        // The last member's trailer states its length mod 2^32 (ISIZE). Only a hint, never
        // trusted: reserving it up front keeps a large output from being copied on growth, which
        // would hold one and a half times the output at once.
        if bytes.count >= 18 {
            let n = bytes.count
            let announced = Int(bytes[n - 1]) << 24 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 3]) << 8 | Int(bytes[n - 4])
            if announced > bytes.count { output.reserveCapacity(min(budget, announced)) }
        }
        var offset = 0
        var member = 1
        while offset < bytes.count {
            let start = offset
            let consumed = try Inflater.inflate(
                bytes, from: start, wrapper: .gzip, budget: budget, into: &output,
                what: member == 1 ? "the gzip stream" : "gzip member \(member)")
            offset = start + consumed
            guard offset < bytes.count else { break }
            if bytes[offset] == 0x1F, offset + 1 < bytes.count, bytes[offset + 1] == 0x8B {
                member += 1
                continue
            }
            var k = offset
            while k < bytes.count, bytes[k] == 0 { k += 1 }
            guard k == bytes.count else {
                throw DecompressionError(
                    .malformed, at: offset,
                    "expected the end of the file or another gzip member after member \(member), found \(bytes.count - offset) other bytes")
            }
            break
        }
        return output
    }
}
