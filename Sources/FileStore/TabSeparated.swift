#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tab-separated line format of TrackSnap's stat indexes: one record per line, fields
/// separated by tabs; backslash, tab and newline inside a field (file names may hold them) are
/// written `\\`, `\t` and `\n`.
package enum TabSeparated {
    /// Reads the records of a file's bytes, each a list of unescaped fields.
    package static func records(_ bytes: [UInt8]) -> [[String]] {
        var records: [[String]] = []
        forEachRecord(in: bytes) { fields in
            records.append(fields.map { unescape(String(decoding: bytes[$0], as: UTF8.self)) })
        }
        return records
    }

    /// Calls `body` with the byte ranges of each non-empty line's fields (still escaped), from
    /// `start` on. With `maximumFields`, the last field runs to the end of its line, tabs and all.
    /// Finds separators with `memchr`, without copying or decoding: the stat indexes and the
    /// listing's caches hold 100,000 lines, where `Collection.split` costs a large part of a second.
    package static func forEachRecord(in bytes: [UInt8], from start: Int = 0, maximumFields: Int = .max, _ body: ([Range<Int>]) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            func find(_ byte: UInt8, from: Int, to end: Int) -> Int? {
                memchr(base + from, Int32(byte), end - from).map { UnsafePointer<UInt8>($0.assumingMemoryBound(to: UInt8.self)) - base }
            }
            var fields: [Range<Int>] = []
            var position = start
            while position < buffer.count {
                let lineEnd = find(0x0A, from: position, to: buffer.count) ?? buffer.count
                defer { position = lineEnd + 1 }
                guard lineEnd > position else { continue }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = position
                while fields.count < maximumFields - 1, let tab = find(0x09, from: fieldStart, to: lineEnd) {
                    fields.append(fieldStart..<tab)
                    fieldStart = tab + 1
                }
                fields.append(fieldStart..<lineEnd)
                body(fields)
            }
        }
    }

    /// One line (with its newline) from fields.
    package static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: "\t") + "\n"
    }

    /// Escapes one field.
    package static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x5C }) else { return text }
        // By scalar: "\r\n" is one Character, and its newline must be escaped too.
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": escaped.append(contentsOf: "\\t".unicodeScalars)
            case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Reverses `escape`.
    package static func unescape(_ text: String) -> String {
        guard text.utf8.contains(0x5C) else { return text }
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                result.append(scalar == "t" ? "\t" : scalar == "n" ? "\n" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
