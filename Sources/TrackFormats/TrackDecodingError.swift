import TrackModel

/// Where in the input a problem was found. Lines and columns are 1-based and count bytes;
/// the byte offset is 0-based from the start of the (decompressed) input.
public struct SourcePosition: Sendable, Equatable, CustomStringConvertible {
    /// 0-based byte offset.
    public var byteOffset: Int
    /// 1-based line, when the format is text.
    public var line: Int?
    /// 1-based column in bytes, when the format is text.
    public var column: Int?

    /// Creates a position.
    public init(byteOffset: Int, line: Int? = nil, column: Int? = nil) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
    }

    /// The line and column of `byteOffset` in a text buffer (computed only on the error path).
    public static func text(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int) -> SourcePosition {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return SourcePosition(byteOffset: offset, line: line, column: end - lineStart + 1)
    }

    /// "line 12, column 5" for text, "byte 345" otherwise.
    public var description: String {
        if let line, let column { return "line \(line), column \(column)" }
        return "byte \(byteOffset)"
    }
}

/// A track file could not be read. Carries the evidence a user needs to find the problem:
/// the format (when known), the position and what was expected versus found.
public struct TrackDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; decides the exit code and the quarantine class upstream.
    public enum Kind: String, Sendable, Equatable {
        /// The bytes are not a well-formed file of the format.
        case malformed
        /// The input is empty or holds only whitespace.
        case empty
        /// No known format matches the content.
        case unknownFormat
        /// The format was recognised, but this version cannot read it.
        case unsupportedFormat
        /// A configured limit (size, fixes, nesting) was exceeded.
        case limitExceeded
    }

    /// The failure class.
    public var kind: Kind
    /// The format being read, when it was recognised.
    public var format: TrackFormat?
    /// Where the problem is, when it has a place.
    public var position: SourcePosition?
    /// What went wrong, phrased as expected versus found where possible.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, format: TrackFormat?, position: SourcePosition?, _ message: String) {
        self.kind = kind
        self.format = format
        self.position = position
        self.message = TrackDecodingError.bounded(message)
    }

    /// Messages longer than this many characters keep their start and end around an ellipsis
    /// that says how long the whole was: an excerpt of a 50 MB token must not become a 50 MB line
    /// of cron mail and a 50 MB `.error` sidecar.
    public static let maximumMessageCharacters = 240

    static func bounded(_ message: String) -> String {
        guard message.utf8.count > maximumMessageCharacters, message.prefix(maximumMessageCharacters).endIndex != message.endIndex else {
            return message
        }
        return String(message.prefix(160)) + "…[\(message.utf8.count) bytes in all]…" + String(message.suffix(40))
    }

    /// One line: "GPX, line 12, column 5: expected </trkseg>, found </trk>".
    public var description: String {
        var parts: [String] = []
        parts.append(format.map { $0.rawValue.uppercased() } ?? "unknown format")
        if let position { parts.append(position.description) }
        return parts.joined(separator: ", ") + ": " + message
    }
}
