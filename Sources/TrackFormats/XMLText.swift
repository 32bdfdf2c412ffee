/// Attribute lookup and character-data decoding for `XMLScanner` tokens.
extension XMLScanner {
    /// The raw value range of the attribute with local name `name` in a start tag, or nil.
    /// Attribute order and quote style do not matter; a `prefix:` on the attribute is ignored.
    func attribute(_ token: Token, _ name: StaticString) throws(TrackDecodingError) -> (start: Int, end: Int)? {
        var i = token.contentStart
        let end = token.contentEnd
        while i < end {
            while i < end, NumberParsing.isSpace(bytes[i]) { i += 1 }
            if i >= end { break }
            let qualifiedStart = i
            let (localStart, nameEnd) = qualifiedName(from: i, end: end, stop: UInt8(ascii: "="))
            i = nameEnd
            while i < end, NumberParsing.isSpace(bytes[i]) { i += 1 }
            guard i < end, bytes[i] == UInt8(ascii: "="), nameEnd > qualifiedStart else {
                throw error(at: qualifiedStart, "expected name=\"value\" in the attributes of <\(string(token.nameStart, token.nameEnd))>")
            }
            i += 1
            while i < end, NumberParsing.isSpace(bytes[i]) { i += 1 }
            guard i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error(at: i, "expected a quoted attribute value in <\(string(token.nameStart, token.nameEnd))>")
            }
            let quote = bytes[i]
            let valueStart = i + 1
            i = valueStart
            while i < end, bytes[i] != quote { i += 1 }
            if equals(localStart, nameEnd, name) { return (valueStart, i) }
            i += 1
        }
        return nil
    }

    /// Appends the decoded characters of a text range (entities resolved) to `output`.
    /// Only the five predefined entities and numeric references exist here; anything else is an
    /// error, so a DOCTYPE can never make the reader expand a declared entity.
    func appendDecodedText(_ start: Int, _ end: Int, to output: inout [UInt8]) throws(TrackDecodingError) {
        var i = start
        while i < end {
            let byte = bytes[i]
            if byte != UInt8(ascii: "&") {
                output.append(byte)
                i += 1
                continue
            }
            var semicolon = i + 1
            while semicolon < end, semicolon - i <= 12, bytes[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
            guard semicolon < end, bytes[semicolon] == UInt8(ascii: ";") else {
                throw error(at: i, "expected an entity such as &amp; after '&'")
            }
            let nameStart = i + 1
            if equals(nameStart, semicolon, "amp") {
                output.append(UInt8(ascii: "&"))
            } else if equals(nameStart, semicolon, "lt") {
                output.append(UInt8(ascii: "<"))
            } else if equals(nameStart, semicolon, "gt") {
                output.append(UInt8(ascii: ">"))
            } else if equals(nameStart, semicolon, "quot") {
                output.append(UInt8(ascii: "\""))
            } else if equals(nameStart, semicolon, "apos") {
                output.append(UInt8(ascii: "'"))
            } else if bytes[nameStart] == UInt8(ascii: "#") {
                guard let scalar = numericReference(nameStart + 1, semicolon) else {
                    throw error(at: i, "invalid character reference &\(string(nameStart, semicolon));")
                }
                output.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                throw error(
                    at: i,
                    "undefined entity &\(string(nameStart, semicolon)); (only the five predefined XML entities and character references are expanded)"
                )
            }
            i = semicolon + 1
        }
    }

    /// `end`, moved back to the '&' of a character reference that would straddle it (none is
    /// longer than 12 bytes), so that text cut at `end` decodes without a broken entity.
    func referenceBoundary(before end: Int, from start: Int, limit: Int) -> Int {
        guard end < limit else { return end }
        var k = end - 1
        while k >= start, end - k <= 12 {
            if bytes[k] == UInt8(ascii: ";") { return end }
            if bytes[k] == UInt8(ascii: "&") { return k }
            k -= 1
        }
        return end
    }

    private func numericReference(_ start: Int, _ end: Int) -> Unicode.Scalar? {
        guard start < end else { return nil }
        var value: UInt32 = 0
        var i = start
        let hex = bytes[i] | 0x20 == UInt8(ascii: "x")
        if hex { i += 1 }
        guard i < end else { return nil }
        while i < end {
            let byte = bytes[i]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - 55)
            default: return nil
            }
            value = value * (hex ? 16 : 10) + digit
            if value > 0x10FFFF { return nil }
            i += 1
        }
        return Unicode.Scalar(value)
    }
}

/// Collects the character data of one element (text and CDATA pieces) as raw ranges, so the common
/// case of a single plain piece is parsed in place without copying.
struct XMLTextCollector {
    private var pieces: [(start: Int, end: Int, isCDATA: Bool)] = []

    /// Forgets collected pieces.
    mutating func reset() { pieces.removeAll(keepingCapacity: true) }

    /// Adds a text or CDATA token.
    mutating func add(_ token: XMLScanner.Token) {
        pieces.append((token.contentStart, token.contentEnd, token.kind == .cdata))
    }

    /// The single raw range when the content needs no decoding (one plain piece with no '&').
    func plainRange(in scanner: XMLScanner) -> (start: Int, end: Int)? {
        if pieces.isEmpty { return (0, 0) }
        guard pieces.count == 1 else { return nil }
        let piece = pieces[0]
        if piece.isCDATA { return (piece.start, piece.end) }
        for k in piece.start..<piece.end where scanner.bytes[k] == UInt8(ascii: "&") { return nil }
        return (piece.start, piece.end)
    }

    /// The decoded content as UTF-8 bytes, at most about `maximumBytes` of it (a piece is cut
    /// at a character reference, never inside one; the text past the cut is not looked at).
    func decoded(in scanner: XMLScanner, maximumBytes: Int = .max) throws(TrackDecodingError) -> [UInt8] {
        var output: [UInt8] = []
        for piece in pieces where output.count < maximumBytes {
            let end = piece.end - piece.start > maximumBytes - output.count ? piece.start + (maximumBytes - output.count) : piece.end
            if piece.isCDATA {
                output.append(contentsOf: scanner.bytes[piece.start..<end])
            } else {
                try scanner.appendDecodedText(piece.start, scanner.referenceBoundary(before: end, from: piece.start, limit: piece.end), to: &output)
            }
        }
        return output
    }

    /// The decoded content as a String with surrounding whitespace trimmed; nil when empty. Only
    /// the first `DecodingLimits.maximumTextBytes` are decoded: a 200 MB `<name>` costs nothing.
    func string(in scanner: XMLScanner) throws(TrackDecodingError) -> String? {
        let bytes = try decoded(in: scanner, maximumBytes: DecodingLimits.maximumTextBytes)
        var lo = 0
        var hi = bytes.count
        while lo < hi, NumberParsing.isSpace(bytes[lo]) { lo += 1 }
        while hi > lo, NumberParsing.isSpace(bytes[hi - 1]) { hi -= 1 }
        if lo == hi { return nil }
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }
}
