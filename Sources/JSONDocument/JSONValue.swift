/// A parsed JSON document (RFC 8259), for reading style documents with key paths in every error.
/// Parsed here, with the line and column of any error: Foundation's `JSONSerialization` would
/// link Foundation and ICU into the executable for this one small file, and `JSONDecoder` reports
/// only "The given data was not valid JSON.", with no position. (TrackFormats' `JSONScanner` is a
/// streaming reader for GeoJSON tracks whose errors are track-decoding errors; a style file wants
/// a tree and key paths.)
public enum JSONValue: Equatable, Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Parses a whole document (one value, surrounded by white space only).
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.offset == bytes.count else { throw parser.error("expected the end of the document") }
        return value
    }

    /// The members of an object.
    public var object: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
    /// The items of a list.
    public var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The text of a string.
    public var string: String? { if case .string(let text) = self { text } else { nil } }
    /// The value of a number.
    public var number: Double? { if case .number(let value) = self { value } else { nil } }

    /// How an error message shows the value: strings quoted, whole numbers without ".0".
    public var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        case .bool(let flag): return flag ? "true" : "false"
        case .array: return "a list"
        case .object: return "an object"
        case .null: return "null"
        }
    }
}

/// Why a document is not valid JSON, and where.
public struct JSONParseError: Error, Sendable {
    /// "line L, column C: what was expected, found what".
    public var message: String
}

/// A recursive-descent reader over the document's bytes.
private struct JSONParser {
    let bytes: [UInt8]
    var offset = 0
    /// Deeper documents are refused (a style file is three levels deep).
    static let maximumDepth = 64

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// An error at the current offset, with its line and column (1-based, in bytes).
    func error(_ expected: String) -> JSONParseError {
        var line = 1, column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        let found = offset < bytes.count ? "\"\(String(decoding: [bytes[offset]], as: UTF8.self))\"" : "the end of the file"
        return JSONParseError(message: "line \(line), column \(column): \(expected), found \(found)")
    }

    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        skipSpace()
        guard depth < JSONParser.maximumDepth else { throw error("at most \(JSONParser.maximumDepth) levels of nesting") }
        guard offset < bytes.count else { throw error("expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes.count - offset >= expected.count, Array(bytes[offset..<(offset + expected.count)]) == expected else {
            throw error("expected a value")
        }
        offset += expected.count
        return value
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        offset += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected \":\" after the key") }
            offset += 1
            // One hash of the key, not a lookup and then an insertion; a repeated key is
            // reported where its value starts, as before.
            let valueStart = offset
            if members.updateValue(try value(depth: depth + 1), forKey: key) != nil {
                offset = valueStart
                throw error("the key \"\(key)\" appears twice")
            }
            skipSpace()
            guard offset < bytes.count else { throw error("expected \",\" or \"}\"") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            guard bytes[offset] == UInt8(ascii: "}") else { throw error("expected \",\" or \"}\"") }
            offset += 1
            return .object(members)
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        offset += 1
        var items: [JSONValue] = []
        skipSpace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            return .array(items)
        }
        while true {
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard offset < bytes.count else { throw error("expected \",\" or \"]\"") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
            guard bytes[offset] == UInt8(ascii: "]") else { throw error("expected \",\" or \"]\"") }
            offset += 1
            return .array(items)
        }
    }

    /// A string starting at the opening quote; escapes decoded, UTF-8 checked.
    private mutating func string() throws(JSONParseError) -> String {
        offset += 1
        // Nearly every string (keys, paths, ids) has no escape: made from its bytes in place.
        var end = offset
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let start = offset
            offset = end + 1
            let text = bytes.withUnsafeBufferPointer { buffer -> String? in
                let slice = UnsafeBufferPointer(rebasing: buffer[start..<end])
                // ASCII is valid UTF-8 as it is (`String(validating:)` is generic and not
                // specialized: a metadata lookup a string).
                return slice.allSatisfy { $0 < 0x80 } ? String(decoding: slice, as: UTF8.self) : String(validating: slice, as: UTF8.self)
            }
            guard let text else { throw error("expected UTF-8 text in the string") }
            return text
        }
        var utf8: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                offset += 1
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("expected UTF-8 text in the string") }
                return text
            }
            guard byte >= 0x20 else { throw error("expected no control characters in a string") }
            if byte != UInt8(ascii: "\\") {
                utf8.append(byte)
                offset += 1
                continue
            }
            offset += 1
            guard offset < bytes.count else { break }
            let escape = bytes[offset]
            offset += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A surrogate pair: the low half must follow as another \u escape.
                    guard bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw error("expected the second half of a surrogate pair")
                    }
                    offset += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("expected the second half of a surrogate pair") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let character = Unicode.Scalar(scalar) else { throw error("expected a Unicode scalar") }
                utf8 += Array(String(Character(character)).utf8)
            default:
                offset -= 1
                throw error("expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)")
            }
        }
        throw error("expected the closing quote")
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw error("expected four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    /// A number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func number() throws(JSONParseError) -> Double {
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset - first
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        let integerDigits = digits()
        guard integerDigits > 0 else { offset = start; throw error("expected a value") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            offset = integerStart
            throw error("expected no leading zeros")
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw error("expected digits after the decimal point") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw error("expected exponent digits") }
        }
        if let value = exactValue(start..<offset) { return value }
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)) else { throw error("expected a number") }
        return value
    }

    /// The value of a number already checked against the grammar, without `strtod` when it has at
    /// most 15 significant digits, a fraction of at most 22 and no exponent (every number a
    /// record or a style writes): the digits as an integer, exact in a Double, divided by an
    /// exact power of ten rounds once, as `strtod` does (Clinger's fast path). Nil otherwise.
    private func exactValue(_ range: Range<Int>) -> Double? {
        var digits: UInt64 = 0, fractionDigits = 0, inFraction = false
        for index in range {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "-"): continue
            case UInt8(ascii: "."): inFraction = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits = digits &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                // 10^15 is past 15 significant digits (and well inside 2^53).
                guard digits < 1_000_000_000_000_000 else { return nil }
                if inFraction { fractionDigits += 1 }
            default: return nil
            }
        }
        guard fractionDigits <= 22 else { return nil }
        var scale = 1.0
        for _ in 0..<fractionDigits { scale *= 10 }
        let magnitude = Double(digits) / scale
        return bytes[range.lowerBound] == UInt8(ascii: "-") ? -magnitude : magnitude
    }
}
