extension JSONValue {
    /// `text` as a JSON string literal, quotes included: `"`, `\` and the control characters
    /// escaped (RFC 8259 §7), and U+2028 and U+2029 too (so the text is also a JavaScript string
    /// literal); `/` and everything else as it is. The one JSON string writer: the site's
    /// `index.json` and records, PMTiles metadata and the test tracks' GeoJSON all use it.
    public static func quoted(_ text: String) -> String {
        // Most text (ids, names, an overview route's letters) has nothing to escape: one pass over
        // its bytes instead of a scalar-by-scalar copy. 0xE2 leads U+2028 and U+2029 in UTF-8.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
