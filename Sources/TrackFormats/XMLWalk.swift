import TrackModel

/// What a reader built on `XMLWalk` does with the elements: the TCX and KML readers are
/// state machines over start and end tags plus the text of a few leaf elements.
protocol XMLElementHandler {
    /// A start tag at `depth` (1 = the root). Returns true to collect the element's text, which
    /// is handed to `end` for the matching end tag. Not called while text is being collected.
    mutating func start(_ token: XMLScanner.Token, depth: Int, _ scanner: XMLScanner) throws(TrackDecodingError) -> Bool
    /// The end of an element at `depth`; `text` holds its collected text when `start` asked for it
    /// (self-closing elements get an end call with empty text too).
    mutating func end(_ token: XMLScanner.Token, depth: Int, text: XMLTextCollector?, _ scanner: XMLScanner) throws(TrackDecodingError)
}

/// Drives `XMLScanner` for an `XMLElementHandler`, checking the root element's name first.
enum XMLWalk {
    static func run<Handler: XMLElementHandler>(
        _ bytes: UnsafeBufferPointer<UInt8>, format: TrackFormat, root rootName: StaticString,
        limits: DecodingLimits, handler: inout Handler
    ) throws(TrackDecodingError) {
        var scanner = XMLScanner(bytes: bytes, format: format, maximumDepth: limits.maximumNestingDepth)
        var collector = XMLTextCollector()
        var captureDepth = 0
        var first = true
        while let token = try scanner.next(wantText: captureDepth != 0) {
            switch token.kind {
            case .text, .cdata:
                collector.add(token)
            case .startTag:
                if first {
                    guard scanner.isNamed(token, rootName) else {
                        throw scanner.error(
                            at: token.offset, "expected the root element <\(rootName)>, found <\(scanner.string(token.nameStart, token.nameEnd))>")
                    }
                }
                first = false
                guard captureDepth == 0 else { continue }
                let depth = token.selfClosing ? scanner.depth + 1 : scanner.depth
                let wantsText = try handler.start(token, depth: depth, scanner)
                if token.selfClosing {
                    try handler.end(token, depth: depth, text: wantsText ? XMLTextCollector() : nil, scanner)
                } else if wantsText {
                    collector.reset()
                    captureDepth = depth
                }
            case .endTag:
                let depth = scanner.depth + 1
                if captureDepth != 0 {
                    guard depth == captureDepth else { continue }
                    captureDepth = 0
                    try handler.end(token, depth: depth, text: collector, scanner)
                } else {
                    try handler.end(token, depth: depth, text: nil, scanner)
                }
            }
        }
    }
}

extension XMLTextCollector {
    /// The element's text as a number (surrounding whitespace allowed); nil when the element is
    /// empty (`<ele></ele>`: not recorded). `what` names the element in errors.
    func number(in scanner: XMLScanner, at token: XMLScanner.Token, what: String) throws(TrackDecodingError) -> Double? {
        if let range = plainRange(in: scanner) {
            if range.start == range.end { return nil }
            if let value = NumberParsing.parseDouble(scanner.bytes, range.start, range.end) { return value }
            throw scanner.error(at: range.start, "expected a number in <\(what)>, found \"\(scanner.string(range.start, range.end))\"")
        }
        let decoded = try decoded(in: scanner)
        guard let value = decoded.withUnsafeBufferPointer({ NumberParsing.parseDouble($0, 0, $0.count) }) else {
            throw scanner.error(at: token.offset, "expected a number in <\(what)>, found \"\(String(decoding: decoded, as: UTF8.self))\"")
        }
        return value
    }

    /// The element's text as an ISO 8601 time in Unix seconds; NaN when empty or unreadable: the
    /// fix is kept without a time rather than failing the track (the route can still be drawn,
    /// only duration and pace are lost).
    func time(in scanner: XMLScanner) -> Double {
        if let range = plainRange(in: scanner) {
            return NumberParsing.parseISO8601(scanner.bytes, range.start, range.end) ?? .nan
        }
        guard let decoded = try? decoded(in: scanner) else { return .nan }
        return decoded.withUnsafeBufferPointer { NumberParsing.parseISO8601($0, 0, $0.count) } ?? .nan
    }
}
