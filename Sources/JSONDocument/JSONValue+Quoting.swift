extension JSONValue {
    /// `text` as a JSON string literal, quotes included: `"`, `\` and the control characters
    /// escaped (RFC 8259 §7), everything else as it is.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 15, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
