import TrackModel

/// A pull tokenizer for the XML track formats (GPX now; TCX and KML share it).
///
/// Why not Foundation's `XMLParser`: it costs 10–28× a format-aware byte scanner on GPX (see
/// performance-notes.md). This scanner yields start/end tags and text as byte ranges of the input,
/// allocates nothing per token, and still checks what matters for correctness: end tags match their
/// start tags, nesting is bounded, and comments, processing instructions, DOCTYPE and CDATA are
/// understood (a `<trkpt` inside a comment is not a point). Entities are never expanded beyond the
/// five predefined ones and numeric references (see `XMLText`); a DOCTYPE's declarations are skipped,
/// so no external or recursive entity can be defined.
struct XMLScanner {
    /// What a token is.
    enum Kind {
        case startTag
        case endTag
        case text
        case cdata
    }

    /// One token. Ranges index the scanner's buffer.
    struct Token {
        var kind: Kind
        /// Local name (after any `prefix:`), for tags.
        var nameStart = 0
        var nameEnd = 0
        /// For tags, the attribute bytes; for text and CDATA, the content.
        var contentStart = 0
        var contentEnd = 0
        /// `<x/>`: a start tag with no separate end tag (no end token follows).
        var selfClosing = false
        /// Byte offset of the token, for error positions.
        var offset = 0
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let format: TrackFormat
    private(set) var position: Int
    /// Open elements as (qualified-name start, end, offset) for matching end tags.
    private var openElements: [(start: Int, end: Int, offset: Int)] = []
    /// Maximum element depth before the input is refused.
    let maximumDepth: Int
    /// Whether the root element has been closed.
    private var sawRoot = false

    /// Continues scanning at `offset`, after a balanced element read elsewhere (`GPXFastPath`).
    mutating func resume(at offset: Int) { position = offset }

    /// Current element depth (number of open elements).
    var depth: Int { openElements.count }

    /// Creates a scanner; a UTF-8 BOM is skipped.
    init(bytes: UnsafeBufferPointer<UInt8>, format: TrackFormat, maximumDepth: Int = 256) {
        self.bytes = bytes
        self.format = format
        self.maximumDepth = maximumDepth
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        self.position = start
    }

    /// A malformed-input error at `offset`, with line and column.
    func error(at offset: Int, _ message: String) -> TrackDecodingError {
        TrackDecodingError(.malformed, format: format, position: .text(bytes, offset: offset), message)
    }

    /// The local name of a tag token as a String (for messages).
    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Whether `bytes[start..<end]` equals `literal`.
    @inline(__always)
    func equals(_ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - start == count else { return false }
        let pointer = literal.utf8Start
        for k in 0..<count where bytes[start + k] != pointer[k] { return false }
        return true
    }

    /// Whether the token is a tag whose local name is `literal`.
    @inline(__always)
    func isNamed(_ token: Token, _ literal: StaticString) -> Bool {
        equals(token.nameStart, token.nameEnd, literal)
    }

    /// Returns the next token, or nil at a well-formed end of input.
    /// With `wantText == false`, character data between tags is skipped without a token.
    mutating func next(wantText: Bool) throws(TrackDecodingError) -> Token? {
        let count = bytes.count
        while true {
            if position >= count {
                if let open = openElements.last {
                    throw error(
                        at: count,
                        "unexpected end of file: expected </\(string(open.start, open.end))> for the element opened at \(SourcePosition.text(bytes, offset: open.offset))"
                    )
                }
                if !sawRoot { throw error(at: count, "unexpected end of file: expected a root element") }
                return nil
            }
            if bytes[position] != UInt8(ascii: "<") {
                let start = position
                position = findByte(UInt8(ascii: "<"), from: position)
                if wantText, !openElements.isEmpty {
                    return Token(kind: .text, contentStart: start, contentEnd: position, offset: start)
                }
                if openElements.isEmpty, !isAllSpace(start, position) {
                    throw error(at: start, "expected markup, found text outside the root element")
                }
                continue
            }
            let tagStart = position
            guard tagStart + 1 < count else { throw error(at: tagStart, "unexpected end of file in a tag") }
            let marker = bytes[tagStart + 1]
            if marker == UInt8(ascii: "!") {
                if let token = try skipDeclaration(at: tagStart) { return token }
                continue
            }
            if marker == UInt8(ascii: "?") {
                position = try findSequence("?>", from: tagStart + 2, what: "processing instruction") + 2
                continue
            }
            if marker == UInt8(ascii: "/") { return try endTag(at: tagStart) }
            return try startTag(at: tagStart)
        }
    }

    private mutating func startTag(at tagStart: Int) throws(TrackDecodingError) -> Token {
        if sawRoot, openElements.isEmpty { throw error(at: tagStart, "expected end of file, found a second root element") }
        let count = bytes.count
        var i = tagStart + 1
        let qualifiedStart = i
        var localStart = i
        while i < count {
            let byte = bytes[i]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || NumberParsing.isSpace(byte) { break }
            if byte == UInt8(ascii: ":") { localStart = i + 1 }
            i += 1
        }
        let nameEnd = i
        if nameEnd == qualifiedStart { throw error(at: tagStart, "expected an element name after '<'") }
        let attributesStart = i
        var quote: UInt8 = 0
        while i < count {
            let byte = bytes[i]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            } else if byte == UInt8(ascii: "<") {
                throw error(at: i, "expected '>' to close <\(string(qualifiedStart, nameEnd))>, found '<'")
            }
            i += 1
        }
        if i >= count {
            throw error(at: tagStart, "unexpected end of file inside the tag <\(string(qualifiedStart, nameEnd))>")
        }
        let selfClosing = bytes[i - 1] == UInt8(ascii: "/") && i - 1 >= attributesStart
        position = i + 1
        var token = Token(
            kind: .startTag, nameStart: localStart, nameEnd: nameEnd, contentStart: attributesStart,
            contentEnd: selfClosing ? i - 1 : i, selfClosing: selfClosing, offset: tagStart)
        token.selfClosing = selfClosing
        if selfClosing {
            if openElements.isEmpty { sawRoot = true }
        } else {
            if openElements.count >= maximumDepth {
                throw TrackDecodingError(
                    .limitExceeded, format: format, position: .text(bytes, offset: tagStart),
                    "elements nested deeper than \(maximumDepth) levels")
            }
            openElements.append((qualifiedStart, nameEnd, tagStart))
        }
        return token
    }

    private mutating func endTag(at tagStart: Int) throws(TrackDecodingError) -> Token {
        let count = bytes.count
        let qualifiedStart = tagStart + 2
        let (localStart, nameEnd) = qualifiedName(from: qualifiedStart, end: count, stop: UInt8(ascii: ">"))
        var i = nameEnd
        while i < count, NumberParsing.isSpace(bytes[i]) { i += 1 }
        guard i < count, bytes[i] == UInt8(ascii: ">") else {
            throw error(at: tagStart, "unexpected end of file inside the end tag </\(string(qualifiedStart, nameEnd))")
        }
        guard let open = openElements.popLast() else {
            throw error(at: tagStart, "found </\(string(qualifiedStart, nameEnd))> with no open element")
        }
        let length = nameEnd - qualifiedStart
        var matches = length == open.end - open.start
        if matches {
            for k in 0..<length where bytes[qualifiedStart + k] != bytes[open.start + k] {
                matches = false
                break
            }
        }
        if !matches {
            throw error(
                at: tagStart,
                "expected </\(string(open.start, open.end))>, found </\(string(qualifiedStart, nameEnd))>")
        }
        if openElements.isEmpty { sawRoot = true }
        position = i + 1
        return Token(kind: .endTag, nameStart: localStart, nameEnd: nameEnd, offset: tagStart)
    }

    /// `<!-- -->`, `<![CDATA[ ]]>` (returned as a token) or `<!DOCTYPE …>` (skipped, with its
    /// internal subset: declarations are never acted on).
    private mutating func skipDeclaration(at tagStart: Int) throws(TrackDecodingError) -> Token? {
        if startsWith("<!--", at: tagStart) {
            position = try findSequence("-->", from: tagStart + 4, what: "comment") + 3
            return nil
        }
        if startsWith("<![CDATA[", at: tagStart) {
            let contentStart = tagStart + 9
            let close = try findSequence("]]>", from: contentStart, what: "CDATA section")
            position = close + 3
            if openElements.isEmpty { throw error(at: tagStart, "found CDATA outside the root element") }
            return Token(kind: .cdata, contentStart: contentStart, contentEnd: close, offset: tagStart)
        }
        if startsWith("<!DOCTYPE", at: tagStart) {
            var i = tagStart + 9
            var bracketDepth = 0
            var quote: UInt8 = 0
            while i < bytes.count {
                let byte = bytes[i]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    bracketDepth += 1
                } else if byte == UInt8(ascii: "]") {
                    bracketDepth -= 1
                } else if byte == UInt8(ascii: ">"), bracketDepth <= 0 {
                    position = i + 1
                    return nil
                }
                i += 1
            }
            throw error(at: tagStart, "unexpected end of file inside <!DOCTYPE")
        }
        throw error(at: tagStart, "expected a comment, CDATA or DOCTYPE after '<!'")
    }

    /// Scans a possibly prefixed name from `start` to whitespace, `stop` or `end`; returns where
    /// the local part (after the last ':') starts and where the name ends.
    @inline(__always)
    func qualifiedName(from start: Int, end: Int, stop: UInt8) -> (localStart: Int, end: Int) {
        var i = start
        var localStart = start
        while i < end, bytes[i] != stop, !NumberParsing.isSpace(bytes[i]) {
            if bytes[i] == UInt8(ascii: ":") { localStart = i + 1 }
            i += 1
        }
        return (localStart, i)
    }

    private func startsWith(_ literal: StaticString, at offset: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return equals(offset, offset + count, literal)
    }

    private func isAllSpace(_ start: Int, _ end: Int) -> Bool {
        for k in start..<end where !NumberParsing.isSpace(bytes[k]) { return false }
        return true
    }

    /// The index of the next `byte` at or after `from`, or the end of input.
    @inline(__always)
    private func findByte(_ byte: UInt8, from: Int) -> Int {
        guard from < bytes.count, let base = bytes.baseAddress else { return bytes.count }
        guard let found = memchrPointer(base + from, byte, bytes.count - from) else { return bytes.count }
        return found - base
    }

    private func findSequence(_ literal: StaticString, from: Int, what: String) throws(TrackDecodingError) -> Int {
        let first = literal.utf8Start[0]
        var i = from
        while true {
            i = findByte(first, from: i)
            if i >= bytes.count { throw error(at: from, "unexpected end of file inside a \(what)") }
            if startsWith(literal, at: i) { return i }
            i += 1
        }
    }
}
