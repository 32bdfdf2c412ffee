import CTimeZoneData

/// The IANA time zone of a place, from the boundary polygons of timezone-boundary-builder
/// (ODbL; see `Sources/CTimeZoneData/LICENSE-ODbL.txt`), simplified and cut into 1° cells by
/// `scripts/build_timezone_data.py` (file layout described there). A cell inside one zone answers
/// from a table; a border cell tests the point against the few small rings of its other zones
/// (even-odd rule), so a lookup reads one table entry and at most a few hundred vertices.
package struct ZoneBoundaries: @unchecked Sendable {
    // @unchecked: `bytes` points at read-only data that lives as long as the program (the blob
    // linked into the binary) or that the caller keeps alive; it is never written.
    private let bytes: UnsafeRawBufferPointer
    /// The IANA names, indexed by the zone numbers in the file.
    package let zoneNames: [String]
    /// Where the data came from ("timezone-boundary-builder 2026c …, simplified to 0.001 degrees").
    package let source: String
    private let tableOffset: Int
    private let recordsOffset: Int

    static let columns = 360, rows = 180
    static let unknownZone = 0xFFFF
    static let cellScale = 65535.0

    /// The boundaries linked into this binary, parsed on first use (the data's pages are read from
    /// disk only then); nil if the linked data is damaged.
    package static let embedded: ZoneBoundaries? = {
        guard let base = tsnap_timezone_data() else { return nil }
        return try? ZoneBoundaries(UnsafeRawBufferPointer(start: base, count: tsnap_timezone_data_size()))
    }()

    /// A problem with the boundary file's layout, with the byte offset where it was found.
    package struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What was expected there.
        package var message: String
        /// Byte offset in the file.
        package var offset: Int
        package var description: String { "time-zone boundaries, byte \(offset): \(message)" }
    }

    /// Reads the header, names and table position of a boundary file; `bytes` must stay valid
    /// and unchanged while the value is used.
    package init(_ bytes: UnsafeRawBufferPointer) throws(FormatError) {
        self.bytes = bytes
        var offset = 0
        func need(_ count: Int) throws(FormatError) {
            guard offset + count <= bytes.count else {
                throw FormatError(message: "expected \(count) more bytes, found the end of the file (\(bytes.count) bytes)", offset: offset)
            }
        }
        try need(8)
        guard bytes[0] == 0x54, bytes[1] == 0x53, bytes[2] == 0x54, bytes[3] == 0x5A else {
            throw FormatError(message: "expected the magic \"TSTZ\"", offset: 0)
        }
        let version = Self.u16(bytes, 4)
        guard version == 1 else { throw FormatError(message: "expected version 1, found \(version)", offset: 4) }
        let count = Self.u16(bytes, 6)
        offset = 8
        var names: [String] = []
        names.reserveCapacity(count)
        for _ in 0...count {
            try need(1)
            let length = Int(bytes[offset])
            try need(1 + length)
            names.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + length)]), as: UTF8.self))
            offset += 1 + length
        }
        source = names.removeLast()
        zoneNames = names
        tableOffset = offset
        recordsOffset = offset + 4 * Self.columns * Self.rows
        try need(4 * Self.columns * Self.rows)
    }

    /// The IANA name of the zone containing the point ("Europe/Zurich"; the open sea has
    /// "Etc/GMT-1" and the like, its nautical zone), or nil where the data knows no zone.
    package func zoneName(latitudeDegrees latitude: Double, longitudeDegrees longitude: Double) -> String? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        var lon = longitude.truncatingRemainder(dividingBy: 360)
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let lat = min(max(latitude, -90), 90)
        let column = min(Self.columns - 1, max(0, Int((lon + 180).rounded(.down))))
        let row = min(Self.rows - 1, max(0, Int((lat + 90).rounded(.down))))
        let entry = bytes.loadUnaligned(fromByteOffset: tableOffset + 4 * (row * Self.columns + column), as: UInt32.self).littleEndian
        let zone: Int
        if entry & 0x8000_0000 != 0 {
            zone = Int(entry & 0xFFFF)
        } else {
            let x = (lon - Double(column - 180)) * Self.cellScale
            let y = (lat - Double(row - 90)) * Self.cellScale
            zone = zoneInBorderCell(at: recordsOffset + Int(entry), x: x, y: y)
        }
        return zone < zoneNames.count ? zoneNames[zone] : nil
    }

    /// The zone of a point (in cell units) in the border cell whose record starts at `start`: the
    /// first stored part containing it, else the cell's fallback zone.
    private func zoneInBorderCell(at start: Int, x: Double, y: Double) -> Int {
        let fallback = Self.u16(bytes, start)
        let partCount = Self.u16(bytes, start + 2)
        var offset = start + 4
        for _ in 0..<partCount {
            let zone = Self.u16(bytes, offset)
            let ringCount = Self.u16(bytes, offset + 2)
            offset += 4
            var inside = false
            for _ in 0..<ringCount {
                let vertexCount = Self.u16(bytes, offset)
                let vertices = offset + 2
                offset = vertices + 4 * vertexCount
                guard vertexCount >= 3 else { continue }
                // Even-odd rule: count crossings of the ray from the point towards +x.
                var previousX = Double(Self.u16(bytes, vertices + 4 * (vertexCount - 1)))
                var previousY = Double(Self.u16(bytes, vertices + 4 * (vertexCount - 1) + 2))
                for k in 0..<vertexCount {
                    let currentX = Double(Self.u16(bytes, vertices + 4 * k))
                    let currentY = Double(Self.u16(bytes, vertices + 4 * k + 2))
                    if (currentY > y) != (previousY > y) {
                        let crossingX = currentX + (y - currentY) * (previousX - currentX) / (previousY - currentY)
                        if x < crossingX { inside.toggle() }
                    }
                    previousX = currentX
                    previousY = currentY
                }
            }
            if inside { return zone }
        }
        return fallback
    }

    @inline(__always)
    private static func u16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int {
        Int(bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self).littleEndian)
    }
}
