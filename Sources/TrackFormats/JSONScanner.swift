import TrackModel

/// A pull scanner over JSON (RFC 8259) bytes for `GeoJSONReader`: values are read or skipped in
/// place, strings are byte ranges decoded only when wanted, and nesting is bounded. Every
/// deviation from the grammar is an error with line and column.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    let maximumDepth: Int

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// A malformed-input error at `offset`.
    func error(at offset: Int, _ message: String) -> TrackDecodingError {
        TrackDecodingError(.malformed, format: .geojson, position: .text(bytes, offset: offset), message)
    }

    /// Skips whitespace and returns the next byte without consuming it (nil at the end).
    @inline(__always)
    mutating func peek() -> UInt8? {
        while position < bytes.count, NumberParsing.isSpace(bytes[position]) { position += 1 }
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes `byte` (after whitespace) or fails naming what was expected.
    mutating func expect(_ byte: UInt8, _ what: String) throws(TrackDecodingError) {
        guard peek() == byte else { throw error(at: position, "expected \(what), found \(found())") }
        position += 1
    }

    /// A short description of what is at the current position, for messages.
    func found() -> String {
        guard position < bytes.count else { return "the end of the file" }
        let end = min(bytes.count, position + 12)
        return "\"" + String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self) + "\""
    }

    /// Walks the members of an object: call after `{` is consumed; returns each key's raw range,
    /// leaving the position at the member's value; nil after the closing `}`.
    mutating func nextKey(first: inout Bool) throws(TrackDecodingError) -> (start: Int, end: Int)? {
        if first {
            first = false
            if peek() == UInt8(ascii: "}") {
                position += 1
                return nil
            }
        } else {
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return nil
            default: throw error(at: position, "expected ',' or '}' in an object, found \(found())")
            }
        }
        guard peek() == UInt8(ascii: "\"") else { throw error(at: position, "expected a quoted member name, found \(found())") }
        let key = try readStringRange()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return (key.start, key.end)
    }

    /// Walks the elements of an array: call after `[` is consumed; true while an element follows.
    mutating func nextElement(first: inout Bool) throws(TrackDecodingError) -> Bool {
        if first {
            first = false
            if peek() == UInt8(ascii: "]") {
                position += 1
                return false
            }
            return true
        }
        switch peek() {
        case UInt8(ascii: ","):
            position += 1
            return true
        case UInt8(ascii: "]"):
            position += 1
            return false
        default: throw error(at: position, "expected ',' or ']' in an array, found \(found())")
        }
    }

    /// Reads a string at the position; returns the raw content range (escapes not decoded).
    mutating func readStringRange() throws(TrackDecodingError) -> (start: Int, end: Int, escaped: Bool) {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return (start, position - 1, escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position += 2
                continue
            }
            if byte < 0x20 { throw error(at: position, "expected a printable character in a string, found control byte \(byte)") }
            position += 1
        }
        throw error(at: start - 1, "unexpected end of file inside a string")
    }

    /// Reads a string and decodes its escapes: at most about `maximumBytes` of it (cut before an
    /// escape, never inside one; the rest is skipped unread).
    mutating func readString(maximumBytes: Int = DecodingLimits.maximumTextBytes) throws(TrackDecodingError) -> String {
        var range = try readStringRange()
        if range.end - range.start > maximumBytes {
            var end = range.start + maximumBytes
            // Back up to the backslash of an escape that would straddle the cut (\uXXXX is 6 bytes).
            var k = end - 1
            while k >= range.start, end - k < 6 {
                if bytes[k] == UInt8(ascii: "\\") {
                    var run = 0
                    while k - run >= range.start, bytes[k - run] == UInt8(ascii: "\\") { run += 1 }
                    if run % 2 == 1 { end = k }
                    break
                }
                k -= 1
            }
            range.end = end
        }
        return try decode(range)
    }

    /// Whether a raw string range equals `literal` (member names are compared unescaped).
    func equals(_ range: (start: Int, end: Int), _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard range.end - range.start == count else { return false }
        for k in 0..<count where bytes[range.start + k] != literal.utf8Start[k] { return false }
        return true
    }

    // Two decoders on purpose: a track's text is lenient (lone surrogate, bad UTF-8 → U+FFFD), a style file's strict (JSONDocument).
    /// Decodes the escapes of a raw string range.
    func decode(_ range: (start: Int, end: Int, escaped: Bool)) throws(TrackDecodingError) -> String {
        if !range.escaped { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range.start..<range.end]), as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var i = range.start
        func flush() {
            if !utf8.isEmpty { scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars) }
            utf8.removeAll()
        }
        func hex4(_ at: Int) throws(TrackDecodingError) -> UInt32 {
            guard at + 4 <= range.end else { throw error(at: at, "expected four hex digits after \\u") }
            var value: UInt32 = 0
            for k in 0..<4 {
                let byte = bytes[at + k]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
                default: throw error(at: at, "expected four hex digits after \\u")
                }
                value = value << 4 | digit
            }
            return value
        }
        while i < range.end {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                i += 1
                continue
            }
            guard i + 1 < range.end else { throw error(at: i, "expected an escape after '\\'") }
            let escape = bytes[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(8)
            case UInt8(ascii: "f"): utf8.append(12)
            case UInt8(ascii: "n"): utf8.append(10)
            case UInt8(ascii: "r"): utf8.append(13)
            case UInt8(ascii: "t"): utf8.append(9)
            case UInt8(ascii: "u"):
                var value = try hex4(i)
                i += 4
                if value >= 0xD800, value < 0xDC00, i + 6 <= range.end, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                    let low = try hex4(i + 2)
                    if low >= 0xDC00, low < 0xE000 {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                flush()
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")  // a lone surrogate becomes U+FFFD
            default:
                throw error(at: i - 2, "expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u, found \\\(Character(Unicode.Scalar(escape)))")
            }
        }
        flush()
        return String(scalars)
    }

    /// Reads a number.
    mutating func readNumber(_ what: String) throws(TrackDecodingError) -> Double {
        guard let first = peek() else { throw error(at: position, "expected \(what), found the end of the file") }
        let start = position
        guard first == UInt8(ascii: "-") || first &- 48 < 10 else { throw error(at: start, "expected \(what), found \(found())") }
        while position < bytes.count {
            let byte = bytes[position]
            guard
                byte &- 48 < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                    || byte | 0x20 == UInt8(ascii: "e")
            else { break }
            position += 1
        }
        guard let value = NumberParsing.parseDouble(bytes, start, position) else {
            throw error(
                at: start, "expected \(what), found \"\(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))\"")
        }
        return value
    }

    /// Skips one value of any kind, checking its syntax. `depth` is the nesting of its container.
    mutating func skipValue(depth: Int) throws(TrackDecodingError) {
        guard let byte = peek() else { throw error(at: position, "expected a value, found the end of the file") }
        switch byte {
        case UInt8(ascii: "{"):
            try enter(depth)
            position += 1
            var first = true
            while try nextKey(first: &first) != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try enter(depth)
            position += 1
            var first = true
            while try nextElement(first: &first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            _ = try readStringRange()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try readNumber("a value")
        }
    }

    /// Consumes `null` if it is next.
    mutating func skipNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), position + 4 <= bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
            bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l")
        else { return false }
        position += 4
        return true
    }

    /// Fails when opening a container at `depth` would pass the nesting limit.
    func enter(_ depth: Int) throws(TrackDecodingError) {
        if depth >= maximumDepth {
            throw TrackDecodingError(
                .limitExceeded, format: .geojson, position: .text(bytes, offset: position),
                "arrays and objects nested deeper than \(maximumDepth) levels")
        }
    }

    private mutating func literal(_ word: StaticString) throws(TrackDecodingError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count, equals((position, position + count), word) else {
            throw error(at: position, "expected a value, found \(found())")
        }
        position += count
    }
}
