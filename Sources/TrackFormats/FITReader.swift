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
        var decoder = FITMessageDecoder(bytes: bytes, maximumFixes: limits.maximumFixes)
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

/// The FIT CRC-16 (polynomial 0xA001, reflected, as in the protocol's reference code).
enum FITChecksum {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    /// The CRC of `bytes[start..<end]`.
    static func crc(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt16 {
        var crc: UInt16 = 0
        for index in start..<end {
            let byte = bytes[index]
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte >> 4)]
        }
        return crc
    }
}
