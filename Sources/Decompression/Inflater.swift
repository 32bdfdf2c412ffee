import SystemZlib

/// Runs zlib's inflate over a buffer with a hard output budget. Used for gzip members
/// (`Gzip`) and raw deflate data inside zip entries (`ZipArchive`).
///
/// The output array grows by doubling but never past the budget: a stream that wants more is
/// stopped and reported, so a bomb costs at most the budget in memory and the time to fill it.
struct Inflater {
    /// zlib's window bits: 15 for raw deflate (negated), +16 for a gzip wrapper.
    enum Wrapper {
        case gzip, raw
        var windowBits: Int32 { self == .gzip ? 15 + 16 : -15 }
    }

    /// Inflates one stream starting at `input[start...]`, appending to `output`; returns the
    /// number of input bytes the stream took (a gzip member may be followed by another).
    /// Throws `malformed` for broken data or an input that ends before the stream does, and
    /// `limitExceeded` when `output` would pass `budget` bytes.
    static func inflate(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, wrapper: Wrapper, budget: Int,
        into output: inout [UInt8], what: String
    ) throws(DecompressionError) -> Int {
        var stream = z_stream()
        let initStatus = inflateInit2_(&stream, wrapper.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw DecompressionError(.malformed, at: start, "zlib could not start (status \(initStatus))") }
        defer { inflateEnd(&stream) }
        let available = input.count - start
        guard available > 0, let base = input.baseAddress else {
            throw DecompressionError(.malformed, at: start, "\(what) is empty: expected compressed data")
        }
        stream.next_in = UnsafeMutablePointer(mutating: base + start)
        stream.avail_in = UInt32(clamping: available)
        var remainingInput = available - Int(stream.avail_in)
        var produced = output.count
        if output.count == 0 { output.reserveCapacity(min(budget, max(64 << 10, available * 4))) }
        while true {
            if produced == output.count {
                // Room already reserved (a gzip trailer's size hint) is used before growing, so an
                // output of the announced size is never copied to a larger buffer midway.
                let doubled = max(output.count * 2, output.count + (64 << 10))
                let grown = min(budget, output.capacity > output.count ? min(output.capacity, doubled) : doubled)
                guard grown > output.count else {
                    throw DecompressionError(
                        .limitExceeded, at: start + Int(stream.total_in),
                        "\(what) expands to more than \(budget) bytes (the limit for \(available) compressed bytes); refused as a likely decompression bomb"
                    )
                }
                output.append(contentsOf: repeatElement(0, count: grown - output.count))
            }
            let status: Int32 = output.withUnsafeMutableBufferPointer { buffer in
                stream.next_out = buffer.baseAddress! + produced
                stream.avail_out = UInt32(clamping: buffer.count - produced)
                let before = stream.avail_out
                let result = SystemZlib.inflate(&stream, Z_NO_FLUSH)
                produced += Int(before - stream.avail_out)
                return result
            }
            if stream.avail_in == 0, remainingInput > 0 {
                let next = min(remainingInput, Int(UInt32.max))
                stream.avail_in = UInt32(next)
                remainingInput -= next
            }
            switch status {
            case Z_STREAM_END:
                output.removeSubrange(produced...)
                return Int(stream.total_in)
            case Z_OK:
                continue
            case Z_BUF_ERROR:
                if stream.avail_in == 0 {
                    throw DecompressionError(.malformed, at: input.count, "\(what) is truncated: the input ended before the compressed stream did")
                }
                continue  // output full; grown on the next turn
            case Z_DATA_ERROR:
                let reason = stream.msg.map { String(cString: $0) } ?? "invalid data"
                throw DecompressionError(.malformed, at: start + Int(stream.total_in), "\(what) is corrupt: \(reason)")
            case Z_MEM_ERROR:
                throw DecompressionError(.limitExceeded, at: start + Int(stream.total_in), "zlib ran out of memory")
            default:
                throw DecompressionError(.malformed, at: start + Int(stream.total_in), "\(what) could not be inflated (zlib status \(status))")
            }
        }
    }
}

/// zlib's CRC-32 (the checksum of gzip and zip).
public enum CRC32 {
    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc: UInt = crc32(0, nil, 0)
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, Int(UInt32.max))
            crc = crc32(crc, bytes.baseAddress! + offset, UInt32(chunk))
            offset += chunk
        }
        return UInt32(truncatingIfNeeded: crc)
    }
}
