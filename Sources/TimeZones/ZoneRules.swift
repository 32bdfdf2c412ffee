/// The UTC offsets of one IANA zone through time, read from its TZif file (RFC 8536; the files
/// in /usr/share/zoneinfo). Pure: takes the file's bytes.
package struct ZoneRules: Sendable, Equatable {
    /// One local time type: offset east of UTC and whether it is daylight saving time.
    package struct LocalTimeType: Sendable, Equatable {
        /// Seconds east of UTC.
        package var utcOffsetSeconds: Int
        /// Whether this is daylight saving time.
        package var isDaylightSaving: Bool
    }

    /// Transition times, seconds since the epoch, ascending.
    package var transitionTimes: [Int64]
    /// The local time type from each transition on (index into `types`).
    package var transitionTypes: [UInt8]
    /// The local time types; `types[0]` applies before the first transition.
    package var types: [LocalTimeType]
    /// The rule after the last transition (the file's footer, a POSIX TZ string), if any.
    package var footer: PosixTimeZone?

    /// A TZif file that could not be read, with the byte offset where it went wrong.
    package struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What was expected there.
        package var message: String
        /// Byte offset in the file.
        package var offset: Int
        package var description: String { "TZif byte \(offset): \(message)" }
    }

    /// Reads a TZif file of version 1 to 4 (the 64-bit block when there is one).
    package init(tzif bytes: [UInt8]) throws(FormatError) {
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
        }
        func header(at offset: Int) throws(FormatError) -> (isutcnt: Int, isstdcnt: Int, leapcnt: Int, timecnt: Int, typecnt: Int, charcnt: Int) {
            guard offset + 44 <= bytes.count else {
                throw FormatError(message: "expected a 44-byte header, found \(bytes.count - offset) bytes", offset: offset)
            }
            guard bytes[offset] == 0x54, bytes[offset + 1] == 0x5A, bytes[offset + 2] == 0x69, bytes[offset + 3] == 0x66 else {
                throw FormatError(message: "expected the magic \"TZif\"", offset: offset)
            }
            let counts = (0..<6).map { Int(u32(offset + 20 + 4 * $0)) }
            return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
        }
        var h = try header(at: 0)
        var offset = 44
        var timeSize = 4
        if bytes[4] >= 0x32 {  // version '2' or later: skip the 32-bit block, read the 64-bit one
            offset += h.timecnt * 5 + h.typecnt * 6 + h.charcnt + h.leapcnt * 8 + h.isstdcnt + h.isutcnt
            h = try header(at: offset)
            offset += 44
            timeSize = 8
        }
        let dataSize = h.timecnt * (timeSize + 1) + h.typecnt * 6 + h.charcnt + h.leapcnt * (timeSize + 4) + h.isstdcnt + h.isutcnt
        guard h.typecnt > 0, offset + dataSize <= bytes.count else {
            throw FormatError(
                message: "expected \(dataSize) bytes of data with at least one time type, found \(bytes.count - offset) bytes and \(h.typecnt) types",
                offset: offset)
        }
        transitionTimes = (0..<h.timecnt).map { index in
            let at = offset + index * timeSize
            if timeSize == 4 { return Int64(Int32(bitPattern: u32(at))) }
            return Int64(bitPattern: UInt64(u32(at)) << 32 | UInt64(u32(at + 4)))
        }
        offset += h.timecnt * timeSize
        transitionTypes = Array(bytes[offset..<(offset + h.timecnt)])
        offset += h.timecnt
        types = (0..<h.typecnt).map { index in
            let at = offset + index * 6
            return LocalTimeType(utcOffsetSeconds: Int(Int32(bitPattern: u32(at))), isDaylightSaving: bytes[at + 4] != 0)
        }
        if let bad = transitionTypes.first(where: { Int($0) >= h.typecnt }) {
            throw FormatError(message: "expected transition types below \(h.typecnt), found \(bad)", offset: offset - h.timecnt)
        }
        offset += dataSize - h.timecnt * (timeSize + 1)
        footer = nil
        // Version 2+: "\n<POSIX TZ string>\n" after the 64-bit block.
        if timeSize == 8, offset < bytes.count, bytes[offset] == 0x0A,
            let end = bytes[(offset + 1)...].firstIndex(of: 0x0A), end > offset + 1
        {
            footer = PosixTimeZone(String(decoding: bytes[(offset + 1)..<end], as: UTF8.self))
        }
    }

    /// The offset of local time from UTC at a moment, seconds east.
    package func utcOffsetSeconds(at seconds: Int64) -> Int {
        guard let last = transitionTimes.last else {
            return footer?.utcOffsetSeconds(at: seconds) ?? types[0].utcOffsetSeconds
        }
        if seconds >= last, let footer { return footer.utcOffsetSeconds(at: seconds) }
        // The last transition at or before `seconds`.
        var low = 0, high = transitionTimes.count
        while low < high {
            let middle = (low + high) / 2
            if transitionTimes[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? types[0].utcOffsetSeconds : types[Int(transitionTypes[low - 1])].utcOffsetSeconds
    }
}
