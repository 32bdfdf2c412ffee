import MapGeometry

/// A route's Mercator segments as short JSON-safe text, for a track's record: every coordinate
/// rounded to a decimetre (far below a pixel of any overview: 4 m at @2x by default), each point
/// the difference from the one before, zigzag-signed, in groups of 5 bits with a continuation
/// bit, one character of `A–Z a–z 0–9 - _` per group; segments are separated by `.`. A street
/// route costs about 3 characters a point.
package enum RouteCoding {
    /// Decimetres per metre: coordinates are stored as whole decimetres.
    static let unitsPerMeter = 10.0

    /// The text of `segments` (Mercator metres).
    package static func encode(_ segments: [[MercatorPoint]]) -> String {
        var bytes: [UInt8] = []
        var previousX: Int64 = 0, previousY: Int64 = 0
        for (index, segment) in segments.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ".")) }
            for point in segment {
                let x = Int64((point.xMeters * unitsPerMeter).rounded()), y = Int64((point.yMeters * unitsPerMeter).rounded())
                append(x &- previousX, to: &bytes)
                append(y &- previousY, to: &bytes)
                previousX = x
                previousY = y
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The segments of `text` in Mercator metres (as rounded when encoded); nil when it is not
    /// such text (a character outside the alphabet, a number cut off, an odd count of numbers, a
    /// number past 2⁶³).
    package static func decode(_ text: String) -> [[MercatorPoint]]? {
        var segments: [[MercatorPoint]] = [[]]
        var x: Int64 = 0, y: Int64 = 0
        var pending: Int64? = nil
        var value: UInt64 = 0, shift: UInt64 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard shift == 0, pending == nil else { return nil }
                segments.append([])
                continue
            }
            guard let group = sixBits(byte), shift < 64 else { return nil }
            value |= UInt64(group & 0x1F) << shift
            if group & 0x20 != 0 {
                shift += 5
                continue
            }
            let number = Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
            value = 0
            shift = 0
            if let dx = pending {
                x &+= dx
                y &+= number
                pending = nil
                segments[segments.count - 1].append(MercatorPoint(xMeters: Double(x) / unitsPerMeter, yMeters: Double(y) / unitsPerMeter))
            } else {
                pending = number
            }
        }
        guard shift == 0, pending == nil else { return nil }
        return segments
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func append(_ number: Int64, to bytes: inout [UInt8]) {
        var zigzag = UInt64(bitPattern: (number << 1) ^ (number >> 63))
        while zigzag >= 0x20 {
            bytes.append(alphabet[Int(zigzag & 0x1F | 0x20)])
            zigzag >>= 5
        }
        bytes.append(alphabet[Int(zigzag)])
    }

    private static func sixBits(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
