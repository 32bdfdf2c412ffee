import TrackModel

/// Splits CSV bytes into records and fields (RFC 4180 quoting; CRLF or LF; a UTF-8 BOM skipped).
/// Fields are byte ranges; a quoted field's range excludes its quotes (doubled quotes inside are
/// left for the caller, which only needs them for header names).
struct CSVLines {
    /// One record: the byte range of its line(s).
    struct Record {
        var start: Int
        var end: Int
    }

    /// One field of a record.
    struct Field {
        var start: Int
        var end: Int
        var quoted: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        position = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The next non-blank, non-comment record; a quoted field may span lines.
    mutating func nextRecord() throws(TrackDecodingError) -> Record? {
        while position < bytes.count {
            let start = position
            var inQuotes = false
            var i = position
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if byte == UInt8(ascii: "\n"), !inQuotes {
                    break
                } else if byte == 0 {
                    throw TrackDecodingError(.malformed, format: .csv, position: .text(bytes, offset: i), "expected text, found a NUL byte")
                }
                i += 1
            }
            if inQuotes {
                throw TrackDecodingError(
                    .malformed, format: .csv, position: .text(bytes, offset: start), "unexpected end of file inside a quoted field")
            }
            position = i + 1
            var end = i
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            if first == end || bytes[first] == UInt8(ascii: "#") { continue }
            return Record(start: start, end: end)
        }
        return nil
    }

    /// The fields of a record.
    func split(_ record: Record, delimiter: UInt8) throws(TrackDecodingError) -> [Field] {
        var fields: [Field] = []
        var i = record.start
        while true {
            while i < record.end, bytes[i] == UInt8(ascii: " ") { i += 1 }
            if i < record.end, bytes[i] == UInt8(ascii: "\"") {
                let start = i + 1
                var j = start
                while j < record.end {
                    if bytes[j] == UInt8(ascii: "\"") {
                        if j + 1 < record.end, bytes[j + 1] == UInt8(ascii: "\"") {
                            j += 2
                            continue
                        }
                        break
                    }
                    j += 1
                }
                fields.append(Field(start: start, end: j, quoted: true))
                i = j + 1
                while i < record.end, bytes[i] != delimiter { i += 1 }
            } else {
                let start = i
                while i < record.end, bytes[i] != delimiter { i += 1 }
                var end = i
                while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
                fields.append(Field(start: start, end: end, quoted: false))
            }
            if i >= record.end { break }
            i += 1
        }
        return fields
    }
}
