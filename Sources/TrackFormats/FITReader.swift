import TrackModel

/// Reads Garmin FIT activity files from the protocol's public description: the 12- or 14-byte
/// header and its CRC, definition and data messages with 16 local message types, little- and
/// big-endian definitions, compressed-timestamp headers, developer data fields (skipped by size),
/// and chained FIT files one after another. `record` messages (global 20) give the fixes:
/// position in semicircles, `enhanced_altitude` or `altitude`, `timestamp`. A timer stop
/// `event` (global 21) ends a segment. `sport` comes from `session` (18) or `sport` (12).
///
/// A file whose CRC does not match is still read when every record parses (the damage is most
/// often in the CRC itself or in trailing bytes), with a note; a record that does not parse is an
/// error naming its byte offset.
public enum FITReader: TrackReader {
    public static let format = TrackFormat.fit

    /// Seconds from the Unix epoch to the FIT epoch, 1989-12-31T00:00:00Z.
    public static let epochOffsetSeconds = 631_065_600.0

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        var decoder = FITMessageDecoder(bytes: bytes, limits: limits)
        var offset = 0
        var fileIndex = 0
        while offset < bytes.count {
            // Padding after the last chained file (some tools round files up) is not another file.
            if fileIndex > 0, bytes[offset...].allSatisfy({ $0 == 0 }) { break }
            offset = try decoder.readFile(at: offset, index: fileIndex)
            fileIndex += 1
        }
        var track = Track(format: .fit, segments: decoder.finishSegments(), activity: decoder.sportName)
        track.notes = decoder.notes
        return track
    }
}

/// The FIT CRC-16 (CRC-16/ARC: polynomial 0xA001 reflected, initial 0), as the protocol's
/// reference code computes it nibble by nibble; here eight bytes per step ("slicing by 8"), since
/// the check runs over every byte of the file and was a quarter of the read time byte by byte.
enum FITChecksum {
    /// tables[k][b]: the CRC contribution of byte b followed by k zero bytes.
    private static let tables: [UInt16] = {
        var table = [UInt16](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
            table[byte] = crc
        }
        for k in 1..<8 {
            for byte in 0..<256 {
                let previous = table[(k - 1) * 256 + byte]
                table[k * 256 + byte] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    /// The CRC of `bytes[start..<end]`.
    static func crc(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt16 {
        tables.withUnsafeBufferPointer { t in
            var crc: UInt16 = 0
            var i = start
            while i + 8 <= end {
                let low = UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8
                let mixed = crc ^ low
                crc =
                    t[7 * 256 + Int(mixed & 0xFF)] ^ t[6 * 256 + Int(mixed >> 8)] ^ t[5 * 256 + Int(bytes[i + 2])]
                    ^ t[4 * 256 + Int(bytes[i + 3])] ^ t[3 * 256 + Int(bytes[i + 4])] ^ t[2 * 256 + Int(bytes[i + 5])]
                    ^ t[256 + Int(bytes[i + 6])] ^ t[Int(bytes[i + 7])]
                i += 8
            }
            while i < end {
                crc = (crc >> 8) ^ t[Int((crc ^ UInt16(bytes[i])) & 0xFF)]
                i += 1
            }
            return crc
        }
    }
}
