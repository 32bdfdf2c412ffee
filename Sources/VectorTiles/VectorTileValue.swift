/// A feature property value (MVT 2.1 §4.1, the `Value` message).
public enum VectorTileValue: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `string_value`.
    case string(String)
    /// `float_value`.
    case float(Float)
    /// `double_value`.
    case double(Double)
    /// `int_value` (int64) or `sint_value` (zigzag sint64): both are signed 64-bit integers.
    case int(Int64)
    /// `uint_value`.
    case uint(UInt64)
    /// `bool_value`.
    case bool(Bool)

    /// The value as a number (bools are not numbers), for numeric comparisons in style filters.
    public var number: Double? {
        switch self {
        case .float(let value): Double(value)
        case .double(let value): value
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .string, .bool: nil
        }
    }

    /// The value as a string, when it is one.
    public var string: String? { if case .string(let text) = self { text } else { nil } }

    /// The value as written in a style filter or a log line.
    public var description: String {
        switch self {
        case .string(let text): "\"\(text)\""
        case .float(let value): "\(value)"
        case .double(let value): "\(value)"
        case .int(let value): "\(value)"
        case .uint(let value): "\(value)"
        case .bool(let value): "\(value)"
        }
    }

    /// Decodes one `Value` message at `range`: its last value field wins (protobuf's rule for a
    /// repeated singular field); unknown fields are skipped; a message with no value field is refused.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) throws(VectorTileProblem) -> VectorTileValue {
        var reader = WireReader(bytes, range: range)
        var value: VectorTileValue?
        while !reader.isAtEnd {
            let (field, wireType) = try reader.readFieldKey()
            switch (field, wireType) {
            case (1, .lengthDelimited):
                let text = try reader.readLengthDelimited()
                value = .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self))
            case (2, .fixed32): value = .float(Float(bitPattern: try reader.readFixed32()))
            case (3, .fixed64): value = .double(Double(bitPattern: try reader.readFixed64()))
            case (4, .varint): value = .int(Int64(bitPattern: try reader.readVarint()))
            case (5, .varint): value = .uint(try reader.readVarint())
            case (6, .varint): value = .int(WireReader.zigzag(try reader.readVarint()))
            case (7, .varint): value = .bool(try reader.readVarint() != 0)
            case (1...7, _):
                throw VectorTileProblem(
                    .malformedField, at: reader.position, "expected the schema's wire type for value field \(field), found \(wireType.rawValue)")
            default: try reader.skip(wireType, field: field)
            }
        }
        guard let value else {
            throw VectorTileProblem(
                .invalidLayer, at: range.lowerBound, "expected a value field (string, float, double, int, uint, sint or bool), found none")
        }
        return value
    }
}
