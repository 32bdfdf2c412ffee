/// A track's key (its cache key, 32 bytes) as four big-endian words: compared as numbers, keys
/// sort as their hex ids do, and hash and move as plain values.
struct TrackKey: Hashable, Comparable {
    /// The bytes, eight at a time, most significant first.
    let words: (UInt64, UInt64, UInt64, UInt64)

    /// The key read at `offset` of `raw` (32 bytes).
    init(_ raw: UnsafeRawBufferPointer, at offset: Int) {
        func word(_ index: Int) -> UInt64 { UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset + index * 8, as: UInt64.self)) }
        words = (word(0), word(1), word(2), word(3))
    }

    /// The key of an id of 64 lowercase hex digits; nil for anything else.
    init?(hex: String) {
        var text = hex
        guard
            let parsed = text.withUTF8({ digits -> (UInt64, UInt64, UInt64, UInt64)? in
                guard digits.count == 64 else { return nil }
                func word(_ index: Int) -> UInt64? {
                    var value: UInt64 = 0
                    for byte in digits[(index * 16)..<(index * 16 + 16)] {
                        switch byte {
                        case 0x30...0x39: value = value << 4 | UInt64(byte - 0x30)
                        case 0x61...0x66: value = value << 4 | UInt64(byte - 0x61 + 10)
                        default: return nil
                        }
                    }
                    return value
                }
                guard let first = word(0), let second = word(1), let third = word(2), let fourth = word(3) else { return nil }
                return (first, second, third, fourth)
            })
        else { return nil }
        words = parsed
    }

    /// The id: 64 lowercase hex digits.
    var hex: String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            withUnsafeBytes(of: (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)) { bytes in
                for (index, byte) in bytes.enumerated() {
                    buffer[index * 2] = Self.digits[Int(byte >> 4)]
                    buffer[index * 2 + 1] = Self.digits[Int(byte & 15)]
                }
            }
            return 64
        }
    }

    /// Appends the 32 bytes.
    func append(to out: inout [UInt8]) {
        withUnsafeBytes(of: (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)) { out += $0 }
    }

    static func == (left: TrackKey, right: TrackKey) -> Bool { left.words == right.words }

    static func < (left: TrackKey, right: TrackKey) -> Bool { left.words < right.words }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    private static let digits = Array("0123456789abcdef".utf8)
}
