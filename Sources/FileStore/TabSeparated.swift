/// The tab-separated line format of TrackSnap's stat indexes: one record per line, fields
/// separated by tabs; backslash, tab and newline inside a field (file names may hold them) are
/// written `\\`, `\t` and `\n`.
public enum TabSeparated {
    /// Reads the records of a file's bytes, each a list of unescaped fields.
    public static func records(_ bytes: [UInt8]) -> [[String]] {
        bytes.split(separator: 0x0A).map { line in
            line.split(separator: 0x09, omittingEmptySubsequences: false).map { unescape(String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// One line (with its newline) from fields.
    public static func line(_ fields: [String]) -> String {
        fields.map(escape).joined(separator: "\t") + "\n"
    }

    /// Escapes one field.
    public static func escape(_ text: String) -> String {
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
    public static func unescape(_ text: String) -> String {
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
