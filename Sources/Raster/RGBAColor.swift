/// An 8-bit sRGB colour with straight (not premultiplied) alpha. Written as `#RRGGBB` or
/// `#RRGGBBAA` in style files.
public struct RGBAColor: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Red 0...255.
    public var red: UInt8
    /// Green 0...255.
    public var green: UInt8
    /// Blue 0...255.
    public var blue: UInt8
    /// Opacity 0 (transparent) ... 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA`; nil otherwise.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let full = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(full >> 24), green: UInt8((full >> 16) & 0xFF), blue: UInt8((full >> 8) & 0xFF), alpha: UInt8(full & 0xFF))
    }

    /// `#RRGGBBAA`.
    public var description: String {
        "#"
            + [red, green, blue, alpha].map { byte in
                let text = String(byte, radix: 16, uppercase: true)
                return byte < 16 ? "0" + text : text
            }.joined()
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let color = RGBAColor(hex: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected #RRGGBB or #RRGGBBAA, found \"\(text)\""))
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
