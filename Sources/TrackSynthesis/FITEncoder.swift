import TrackModel

/// Writes FIT activity files from the protocol's public description, for tests, fuzzing seeds and
/// benchmarks. Exercises what a reader must handle: both architectures, compressed-timestamp
/// headers, developer data fields, 12- and 14-byte headers, timer stop/start events between segments.
package struct FITEncoder {
    /// How the file is laid out.
    package struct Options: Sendable {
        /// Big-endian definition messages (architecture 1) instead of little-endian.
        package var bigEndian = false
        /// Records carry their time in a compressed-timestamp header (and no timestamp field) while
        /// it is less than 32 s after the last full timestamp of a record, and that one is a multiple
        /// of 32 s; otherwise a full one is written. (gpsbabel 1.8 adds the 5-bit offset to the last
        /// full timestamp, which the protocol's rule agrees with only in that case; the conformance
        /// corpus uses this layout so both readers must agree.)
        package var compressedTimestamps = false
        /// With `compressedTimestamps`: every record after the first is compressed as long as each
        /// step is under 32 s, each relative to the previous record's time. The protocol allows
        /// this (the 5-bit offset rolls over); gpsbabel 1.8 decodes it wrongly after 32 s.
        package var chainedCompressedTimestamps = false
        /// Records carry a developer data field (a 2-byte "power" from developer index 0), with
        /// the `developer_data_id` and `field_description` messages that declare it.
        package var developerFields = false
        /// A 14-byte header with its CRC (else the 12-byte header of protocol 1.0).
        package var longHeader = true
        /// `altitude` (uint16) instead of `enhanced_altitude` (uint32).
        package var legacyAltitude = false
        /// The `sport` enum value in the session message (1 running, 2 cycling).
        package var sport: UInt8 = 1

        /// Plain little-endian records with timestamps and enhanced altitude.
        package init() {}
    }

    /// Seconds from the Unix epoch to the FIT epoch.
    package static let epochOffsetSeconds = 631_065_600.0

    /// The FIT file for `track`. Fixes without a time get none; missing elevations are the invalid value.
    package static func encode(_ track: Track, options: Options = Options()) -> [UInt8] {
        var writer = Writer(bigEndian: options.bigEndian)
        let firstTime = track.segments.first?.fixes.first.flatMap { $0.hasTime ? fitTime($0.timeSeconds) : nil } ?? 1_000_000_000
        // file_id (global 0): type (0, enum) = 4 activity, manufacturer (1, uint16) = 255 development, time_created (4).
        writer.define(local: 0, global: 0, fields: [(0, 1, 0x00), (1, 2, 0x84), (4, 4, 0x86)])
        writer.data(local: 0) {
            $0.u8(4); $0.u16(255); $0.u32(firstTime)
        }
        if options.developerFields {
            // developer_data_id (207): developer_data_index (3, uint8) = 0.
            writer.define(local: 1, global: 207, fields: [(3, 1, 0x02)])
            writer.data(local: 1) { $0.u8(0) }
            // field_description (206): developer_data_index (0), field_definition_number (1), fit_base_type_id (2), field_name (3, string 8).
            writer.define(local: 1, global: 206, fields: [(0, 1, 0x02), (1, 1, 0x02), (2, 1, 0x02), (3, 8, 0x07)])
            writer.data(local: 1) {
                $0.u8(0); $0.u8(0); $0.u8(0x84); $0.bytes(Array("power\0\0\0".utf8))
            }
        }
        let altitudeField: (UInt8, UInt8, UInt8) = options.legacyAltitude ? (2, 2, 0x84) : (78, 4, 0x86)
        let developer: [(UInt8, UInt8, UInt8)] = options.developerFields ? [(0, 2, 0)] : []
        // record (20), full: timestamp, position_lat, position_long, altitude.
        writer.define(local: 2, global: 20, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), altitudeField], developer: developer)
        if options.compressedTimestamps {
            writer.define(local: 3, global: 20, fields: [(0, 4, 0x85), (1, 4, 0x85), altitudeField], developer: developer)
        }
        // event (21): timestamp, event (0, enum), event_type (1, enum).
        writer.define(local: 4, global: 21, fields: [(253, 4, 0x86), (0, 1, 0x00), (1, 1, 0x00)])
        var lastTime: UInt32? = nil
        var lastFullTime: UInt32? = nil
        var power: UInt16 = 200
        for segment in track.segments {
            let startTime = segment.fixes.first.flatMap { $0.hasTime ? fitTime($0.timeSeconds) : nil } ?? lastTime ?? firstTime
            writer.data(local: 4) {
                $0.u32(startTime); $0.u8(0); $0.u8(0)
            }  // timer start
            lastTime = startTime
            // Devices start each segment with a full timestamp in a record; gpsbabel 1.8 also
            // needs that, as it ignores the timestamps of other messages for compressed headers.
            lastFullTime = nil
            for fix in segment.fixes {
                let time = fix.hasTime ? fitTime(fix.timeSeconds) : nil
                func body(_ w: inout Writer) {
                    w.u32(UInt32(bitPattern: semicircles(fix.latitudeDegrees)))
                    w.u32(UInt32(bitPattern: semicircles(fix.longitudeDegrees)))
                    let raw = fix.hasElevation ? ((fix.elevationMeters + 500) * 5).rounded() : -1
                    if options.legacyAltitude {
                        w.u16(raw < 0 || raw > 65534 ? 0xFFFF : UInt16(raw))
                    } else {
                        w.u32(raw < 0 ? 0xFFFF_FFFF : UInt32(raw))
                    }
                    if options.developerFields {
                        power = power &+ 7
                        w.u16(power)
                    }
                }
                let reference = options.chainedCompressedTimestamps ? lastTime : lastFullTime
                let aligned = options.chainedCompressedTimestamps || (reference ?? 1) & 0x1F == 0
                if options.compressedTimestamps, aligned, let time, let last = lastTime, let reference, time >= last, time - reference < 32 {
                    writer.compressedData(local: 3, timeOffset: UInt8(time & 0x1F)) { body(&$0) }
                    lastTime = time
                } else {
                    writer.data(local: 2) { w in
                        w.u32(time ?? 0xFFFF_FFFF)
                        body(&w)
                    }
                    if let time {
                        lastTime = time
                        lastFullTime = time
                    }
                }
            }
            writer.data(local: 4) {
                $0.u32(lastTime ?? firstTime); $0.u8(0); $0.u8(4)
            }  // timer stop all
        }
        // session (18): timestamp, sport (5, enum).
        writer.define(local: 5, global: 18, fields: [(253, 4, 0x86), (5, 1, 0x00)])
        writer.data(local: 5) {
            $0.u32(lastTime ?? firstTime); $0.u8(options.sport)
        }
        return writer.file(longHeader: options.longHeader)
    }

    /// Degrees to FIT semicircles (2³¹ per 180°).
    package static func semicircles(_ degrees: Double) -> Int32 {
        Int32(clamping: Int64((degrees * 2_147_483_648.0 / 180.0).rounded()))
    }

    /// Unix seconds to FIT seconds.
    package static func fitTime(_ unixSeconds: Double) -> UInt32 {
        UInt32(clamping: Int64((unixSeconds - epochOffsetSeconds).rounded()))
    }

    /// The FIT CRC-16 of `bytes`.
    package static func crc(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        let table: [UInt16] = [
            0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
            0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
        ]
        var crc: UInt16 = 0
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte >> 4)]
        }
        return crc
    }

    /// Builds the record section and wraps it in a header and CRC.
    struct Writer {
        let bigEndian: Bool
        var records: [UInt8] = []

        init(bigEndian: Bool) { self.bigEndian = bigEndian }

        mutating func u8(_ value: UInt8) { records.append(value) }
        mutating func bytes(_ values: [UInt8]) { records += values }
        mutating func u16(_ value: UInt16) {
            let ordered = bigEndian ? value.bigEndian : value.littleEndian
            withUnsafeBytes(of: ordered) { records += $0 }
        }
        mutating func u32(_ value: UInt32) {
            let ordered = bigEndian ? value.bigEndian : value.littleEndian
            withUnsafeBytes(of: ordered) { records += $0 }
        }

        /// A definition message for local type `local`.
        mutating func define(local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)], developer: [(UInt8, UInt8, UInt8)] = []) {
            records.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
            records.append(0)
            records.append(bigEndian ? 1 : 0)
            u16(global)
            records.append(UInt8(fields.count))
            for field in fields { records += [field.0, field.1, field.2] }
            if !developer.isEmpty {
                records.append(UInt8(developer.count))
                for field in developer { records += [field.0, field.1, field.2] }
            }
        }

        mutating func data(local: UInt8, _ body: (inout Writer) -> Void) {
            records.append(local)
            body(&self)
        }

        mutating func compressedData(local: UInt8, timeOffset: UInt8, _ body: (inout Writer) -> Void) {
            records.append(0x80 | (local & 0x3) << 5 | (timeOffset & 0x1F))
            body(&self)
        }

        func file(longHeader: Bool) -> [UInt8] {
            var header: [UInt8] = [longHeader ? 14 : 12, 0x20, 0x08, 0x08]  // protocol 2.0, profile 20.56
            let size = UInt32(records.count)
            header += [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            header += Array(".FIT".utf8)
            if longHeader {
                let headerCRC = FITEncoder.crc(header[...])
                header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
            }
            var file = header + records
            let crc = FITEncoder.crc(file[...])
            file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
            return file
        }
    }
}
