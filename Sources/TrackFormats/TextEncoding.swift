import TrackModel

/// The text encodings the readers accept: UTF-8 (checked) and UTF-16 with a byte-order mark or an
/// XML declaration (transcoded to UTF-8 before reading, so one scanner serves both).
enum TextEncoding {
    /// The byte order of UTF-16 content, detected from a BOM or from `<?` encoded in UTF-16.
    enum UTF16Order { case littleEndian, bigEndian }

    /// UTF-16 content: `FF FE` / `FE FF`, or no BOM and `<?` / `<` + letter as 16-bit units
    /// (XML 1.0 appendix F).
    static func utf16Order(_ bytes: UnsafeBufferPointer<UInt8>) -> UTF16Order? {
        guard bytes.count >= 2, !isUTF32(bytes) else { return nil }
        if bytes[0] == 0xFF, bytes[1] == 0xFE { return .littleEndian }
        if bytes[0] == 0xFE, bytes[1] == 0xFF { return .bigEndian }
        guard bytes.count >= 4 else { return nil }
        if bytes[0] == 0x3C, bytes[1] == 0, bytes[2] != 0, bytes[3] == 0 { return .littleEndian }
        if bytes[0] == 0, bytes[1] == 0x3C, bytes[2] == 0, bytes[3] != 0 { return .bigEndian }
        return nil
    }

    /// Whether the content starts with a UTF-32 byte-order mark (`FF FE 00 00` or `00 00 FE FF`):
    /// not read, and said so, rather than taken for UTF-16 with a stray odd byte.
    static func isUTF32(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0 && bytes[3] == 0)
            || (bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0xFE && bytes[3] == 0xFF)
    }

    /// UTF-16 to UTF-8. Offsets in later errors refer to the UTF-8 text; lines are the same.
    static func transcodeUTF16(_ bytes: UnsafeBufferPointer<UInt8>, order: UTF16Order) throws(TrackDecodingError) -> [UInt8] {
        var start = 0
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) { start = 2 }
        guard (bytes.count - start) % 2 == 0 else {
            throw TrackDecodingError(
                .malformed, format: nil, position: SourcePosition(byteOffset: bytes.count - 1),
                "UTF-16 text has an odd number of bytes (\(bytes.count)); the file is truncated")
        }
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count - start) / 2 + 16)
        var i = start
        func unit(_ offset: Int) -> UInt32 {
            order == .littleEndian
                ? UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                : UInt32(bytes[offset]) << 8 | UInt32(bytes[offset + 1])
        }
        while i < bytes.count {
            var scalar = unit(i)
            let unitOffset = i
            i += 2
            if scalar >= 0xD800, scalar < 0xDC00 {
                guard i < bytes.count, case let low = unit(i), low >= 0xDC00, low < 0xE000 else {
                    throw TrackDecodingError(
                        .malformed, format: nil, position: SourcePosition(byteOffset: unitOffset),
                        "invalid UTF-16: a high surrogate not followed by a low surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit(i) - 0xDC00)
                i += 2
            } else if scalar >= 0xDC00, scalar < 0xE000 {
                throw TrackDecodingError(
                    .malformed, format: nil, position: SourcePosition(byteOffset: unitOffset), "invalid UTF-16: a lone low surrogate")
            }
            appendUTF8(scalar, to: &output)
        }
        return output
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | (scalar >> 12) & 0x3F))
            output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The offset of the first byte that is not part of well-formed UTF-8, or nil.
    /// 32 ASCII bytes are checked per step, so a track file costs about a memory pass.
    static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var i = 0
        while i < count {
            // why 32 bytes a step: a GPX is nearly all ASCII, and one test of four ORed words took
            // this pass from 4.0% to 1.3% of decoding and drawing an 18,000-fix GPX (perf record).
            if i + 32 <= count {
                let raw = UnsafeRawPointer(base + i)
                let words =
                    raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                if words & 0x8080_8080_8080_8080 == 0 {
                    i += 32
                    continue
                }
            }
            if i + 8 <= count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let lead = base[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var minimum: UInt32
            var scalar: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; minimum = 0x80; scalar = UInt32(lead & 0x1F)
            case 0xE0...0xEF: length = 3; minimum = 0x800; scalar = UInt32(lead & 0x0F)
            case 0xF0...0xF4: length = 4; minimum = 0x10000; scalar = UInt32(lead & 0x07)
            default: return i
            }
            guard i + length <= count else { return i }
            for k in 1..<length {
                let continuation = base[i + k]
                guard continuation & 0xC0 == 0x80 else { return i }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar < 0xE000) { return i }
            i += length
        }
        return nil
    }
}
