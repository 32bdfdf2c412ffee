/// The protobuf wire format (varints, zigzag, fixed widths, length-delimited records) read in place
/// over a tile's bytes: the one place where the decoder touches raw memory. Every read is checked
/// against `end`, so a truncated or random buffer is a `VectorTileProblem`, never a read past it.
///
/// Wire types (protobuf encoding guide): 0 varint, 1 fixed 64-bit, 2 length-delimited, 3 and 4
/// group start and end (deprecated, still skipped), 5 fixed 32-bit; 6 and 7 do not exist.
struct WireReader {
    /// The wire type of a field.
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, groupStart = 3, groupEnd = 4, fixed32 = 5
    }

    /// Nested groups deeper than this are refused (groups are obsolete; MVT never uses them).
    private static let maximumGroupDepth = 16

    /// The whole buffer; positions are offsets into it, so errors report offsets in the tile.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var position: Int
    /// One past the last byte of the record being read.
    let end: Int

    /// A reader of `bytes[range]`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
        self.bytes = bytes
        position = range.lowerBound
        end = range.upperBound
    }

    /// Whether every byte of the record has been read.
    var isAtEnd: Bool { position >= end }

    /// Reads one unsigned varint (at most ten bytes, 64 bits).
    @inline(__always)
    mutating func readVarint() throws(VectorTileProblem) -> UInt64 {
        guard position < end else { throw truncation("a varint") }
        let first = bytes[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        return try readLongVarint()
    }

    private mutating func readLongVarint() throws(VectorTileProblem) -> UInt64 {
        let start = position
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw truncation("the rest of a varint", at: start) }
            let byte = bytes[position]
            position += 1
            if shift == 63 && byte > 1 {
                throw VectorTileProblem(.malformedField, at: start, "expected a varint of at most 64 bits, found a longer one")
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    /// Reads a varint as a 32-bit value (protobuf keeps the low 32 bits of a longer one).
    @inline(__always)
    mutating func readVarint32() throws(VectorTileProblem) -> UInt32 {
        UInt32(truncatingIfNeeded: try readVarint())
    }

    /// Decodes a zigzag-encoded signed value: 0, -1, 1, -2 … from 0, 1, 2, 3 ….
    @inline(__always)
    static func zigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Reads a field key: the field number and its wire type.
    mutating func readFieldKey() throws(VectorTileProblem) -> (field: UInt64, wireType: WireType) {
        let start = position
        let key = try readVarint()
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            throw VectorTileProblem(.malformedField, at: start, "expected a wire type 0–5, found \(key & 7)")
        }
        let field = key >> 3
        guard field > 0 else { throw VectorTileProblem(.malformedField, at: start, "expected a field number ≥ 1, found 0") }
        return (field, wireType)
    }

    /// Reads a length-delimited record's length and returns its byte range (the reader moves past it).
    mutating func readLengthDelimited() throws(VectorTileProblem) -> Range<Int> {
        let start = position
        let length = try readVarint()
        guard length <= UInt64(end - position) else {
            throw VectorTileProblem(.truncated, at: start, "expected \(length) bytes of a length-delimited field, found \(end - position)")
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// Reads a little-endian 32-bit value.
    mutating func readFixed32() throws(VectorTileProblem) -> UInt32 {
        guard end - position >= 4 else { throw truncation("4 bytes of a fixed32 field") }
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(bytes[position + k]) << (8 * k) }
        position += 4
        return value
    }

    /// Reads a little-endian 64-bit value.
    mutating func readFixed64() throws(VectorTileProblem) -> UInt64 {
        guard end - position >= 8 else { throw truncation("8 bytes of a fixed64 field") }
        var value: UInt64 = 0
        for k in 0..<8 { value |= UInt64(bytes[position + k]) << (8 * k) }
        position += 8
        return value
    }

    /// Skips the value of a field this decoder does not know (extensions, future fields).
    mutating func skip(_ wireType: WireType, field: UInt64) throws(VectorTileProblem) {
        try skip(wireType, field: field, depth: 0)
    }

    private mutating func skip(_ wireType: WireType, field: UInt64, depth: Int) throws(VectorTileProblem) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: _ = try readFixed64()
        case .fixed32: _ = try readFixed32()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .groupStart:
            let start = position
            guard depth < Self.maximumGroupDepth else {
                throw VectorTileProblem(.malformedField, at: start, "expected groups nested at most \(Self.maximumGroupDepth) deep, found deeper")
            }
            while true {
                guard !isAtEnd else { throw truncation("the end of group \(field)", at: start) }
                let inner = try readFieldKey()
                if inner.wireType == .groupEnd {
                    guard inner.field == field else {
                        throw VectorTileProblem(
                            .malformedField, at: position, "expected the end of group \(field), found the end of group \(inner.field)")
                    }
                    return
                }
                try skip(inner.wireType, field: inner.field, depth: depth + 1)
            }
        case .groupEnd:
            throw VectorTileProblem(.malformedField, at: position, "expected a field, found the end of group \(field) without its start")
        }
    }

    /// Requires `wireType` for `name`, else a `malformedField` problem at the current position.
    func expect(_ wireType: WireType, found: WireType, for name: String) throws(VectorTileProblem) {
        guard wireType == found else {
            throw VectorTileProblem(.malformedField, at: position, "expected wire type \(wireType.rawValue) for \(name), found \(found.rawValue)")
        }
    }

    private func truncation(_ what: String, at offset: Int? = nil) -> VectorTileProblem {
        VectorTileProblem(.truncated, at: offset ?? position, "expected \(what), found the end of the record at byte \(end)")
    }
}
