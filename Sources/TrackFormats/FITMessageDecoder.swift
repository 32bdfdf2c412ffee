import TrackModel

/// The state of a FIT read across chained files: local message definitions, the last timestamp
/// (for compressed-timestamp headers) and the fixes so far. Split from `FITReader` so the hot
/// loop over records stays in one place.
struct FITMessageDecoder {
    /// A definition message, reduced to what is read: where the few needed fields sit in the data
    /// messages of one local type. Plain values only (no arrays), so looking one up per record
    /// costs no reference counting.
    struct Definition {
        var globalNumber: UInt16
        var bigEndian: Bool
        /// Size of a data message's content (fields plus developer fields), without its header.
        var size: Int
        // Offsets of the fields a record/event/session needs; -1 when absent or of the wrong size.
        var timestamp = -1, latitude = -1, longitude = -1, altitude = -1, enhancedAltitude = -1
        var event = -1, eventType = -1, sport = -1
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var definitions = [Definition?](repeating: nil, count: 16)
    private var lastTimestamp: UInt32?
    private var segments: [TrackSegment] = []
    private var fixes: [Fix] = []
    private var counter: FixCounter
    private(set) var sportName: String?
    private(set) var notes: [String] = []

    init(bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) {
        self.bytes = bytes
        counter = FixCounter(limits, inputBytes: bytes.count)
        fixes.reserveCapacity(min(bytes.count / 16, counter.maximum))
    }

    private func error(at offset: Int, _ message: String) -> TrackDecodingError {
        TrackDecodingError(.malformed, format: .fit, position: SourcePosition(byteOffset: offset), message)
    }

    /// Reads one FIT file starting at `start` (a header); returns the offset after its CRC.
    mutating func readFile(at start: Int, index: Int) throws(TrackDecodingError) -> Int {
        let which = index == 0 ? "" : " of chained file \(index + 1)"
        guard bytes.count - start >= 12 else {
            throw error(at: start, "expected a 12- or 14-byte FIT header\(which), found \(bytes.count - start) bytes")
        }
        let headerSize = Int(bytes[start])
        guard headerSize == 12 || headerSize == 14, bytes.count - start >= headerSize else {
            throw error(at: start, "expected a FIT header size of 12 or 14\(which), found \(headerSize)")
        }
        guard bytes[start + 8] == UInt8(ascii: "."), bytes[start + 9] == UInt8(ascii: "F"), bytes[start + 10] == UInt8(ascii: "I"),
            bytes[start + 11] == UInt8(ascii: "T")
        else {
            throw error(at: start + 8, "expected \".FIT\" in the header\(which)")
        }
        let protocolMajor = bytes[start + 1] >> 4
        guard protocolMajor <= 2 else {
            throw TrackDecodingError(
                .unsupportedFormat, format: .fit, position: SourcePosition(byteOffset: start + 1),
                "FIT protocol version \(protocolMajor).\(bytes[start + 1] & 0xF) is newer than 2.x")
        }
        if headerSize == 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            if stored != 0, stored != FITChecksum.crc(bytes, start, start + 12) {
                notes.append("the FIT header CRC\(which) does not match; read anyway")
            }
        }
        let dataSize = Int(UInt32(bytes[start + 4]) | UInt32(bytes[start + 5]) << 8 | UInt32(bytes[start + 6]) << 16 | UInt32(bytes[start + 7]) << 24)
        let dataStart = start + headerSize
        guard dataSize <= bytes.count - dataStart else {
            throw error(
                at: start + 4,
                "the header\(which) announces \(dataSize) bytes of records but only \(bytes.count - dataStart) follow: the file is truncated")
        }
        let dataEnd = dataStart + dataSize
        // Definitions do not carry over between chained files.
        definitions = [Definition?](repeating: nil, count: 16)
        try readRecords(from: dataStart, to: dataEnd)
        guard bytes.count - dataEnd >= 2 else {
            notes.append("the file CRC\(which) is missing; read anyway")
            return bytes.count
        }
        let stored = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
        let computed = FITChecksum.crc(bytes, start, dataEnd)
        if stored != computed {
            notes.append("the file CRC\(which) does not match (stored \(stored), computed \(computed)); every record parsed, read anyway")
        }
        return dataEnd + 2
    }

    private mutating func readRecords(from start: Int, to end: Int) throws(TrackDecodingError) {
        var p = start
        while p < end {
            let header = bytes[p]
            if header & 0x80 != 0 {
                // Compressed timestamp header: local type in bits 5–6, time offset in bits 0–4.
                let local = Int((header >> 5) & 0x3)
                guard let definition = definitions[local] else {
                    throw error(at: p, "a compressed-timestamp data message uses local message type \(local), which has no definition")
                }
                guard var timestamp = lastTimestamp else {
                    throw error(at: p, "a compressed-timestamp message comes before any full timestamp")
                }
                let offset = UInt32(header & 0x1F)
                let previous = timestamp & 0x1F
                timestamp = (timestamp & ~0x1F) &+ offset &+ (offset >= previous ? 0 : 0x20)
                lastTimestamp = timestamp
                guard definition.size <= end - (p + 1) else {
                    throw error(at: p, "a data message of \(definition.size) bytes runs past the end of the records")
                }
                try dataMessage(definition, at: p + 1, compressedTimestamp: timestamp)
                p += 1 + definition.size
            } else if header & 0x40 != 0 {
                p = try definitionMessage(at: p, end: end)
            } else {
                let local = Int(header & 0x0F)
                guard let definition = definitions[local] else {
                    throw error(at: p, "a data message uses local message type \(local), which has no definition")
                }
                guard definition.size <= end - (p + 1) else {
                    throw error(at: p, "a data message of \(definition.size) bytes runs past the end of the records")
                }
                try dataMessage(definition, at: p + 1, compressedTimestamp: nil)
                p += 1 + definition.size
            }
        }
    }

    private mutating func definitionMessage(at start: Int, end: Int) throws(TrackDecodingError) -> Int {
        let header = bytes[start]
        let hasDeveloperFields = header & 0x20 != 0
        let local = Int(header & 0x0F)
        var p = start + 1
        guard end - p >= 5 else { throw error(at: start, "a definition message is truncated") }
        let architecture = bytes[p + 1]
        guard architecture <= 1 else { throw error(at: p + 1, "expected architecture 0 or 1 in a definition message, found \(architecture)") }
        let bigEndian = architecture == 1
        let globalNumber = bigEndian ? UInt16(bytes[p + 2]) << 8 | UInt16(bytes[p + 3]) : UInt16(bytes[p + 2]) | UInt16(bytes[p + 3]) << 8
        let fieldCount = Int(bytes[p + 4])
        p += 5
        guard end - p >= fieldCount * 3 else { throw error(at: start, "a definition message of \(fieldCount) fields is truncated") }
        var definition = Definition(globalNumber: globalNumber, bigEndian: bigEndian, size: 0)
        var offset = 0
        for _ in 0..<fieldCount {
            // The base type (third byte) is not needed: each read field is checked by its size.
            let number = bytes[p], size = Int(bytes[p + 1])
            p += 3
            let fits4 = size == 4, fits2 = size == 2, fits1 = size == 1
            switch (globalNumber, number) {
            case (_, 253) where fits4: definition.timestamp = offset
            case (20, 0) where fits4: definition.latitude = offset
            case (20, 1) where fits4: definition.longitude = offset
            case (20, 2) where fits2: definition.altitude = offset
            case (20, 78) where fits4: definition.enhancedAltitude = offset
            case (21, 0) where fits1: definition.event = offset
            case (21, 1) where fits1: definition.eventType = offset
            case (18, 5) where fits1, (12, 0) where fits1: definition.sport = offset
            default: break
            }
            offset += size
        }
        if hasDeveloperFields {
            guard end - p >= 1 else { throw error(at: start, "a definition message's developer field count is missing") }
            let developerCount = Int(bytes[p])
            p += 1
            guard end - p >= developerCount * 3 else {
                throw error(at: start, "a definition message of \(developerCount) developer fields is truncated")
            }
            for _ in 0..<developerCount {
                offset += Int(bytes[p + 1])
                p += 3
            }
        }
        definition.size = offset
        definitions[local] = definition
        return p
    }

    private mutating func dataMessage(_ definition: Definition, at p: Int, compressedTimestamp: UInt32?) throws(TrackDecodingError) {
        var timestamp = compressedTimestamp
        if definition.timestamp >= 0 {
            let value = read32(p + definition.timestamp, definition.bigEndian)
            if value != 0xFFFF_FFFF {
                timestamp = value
                lastTimestamp = value
            }
        }
        switch definition.globalNumber {
        case 20:
            guard definition.latitude >= 0, definition.longitude >= 0 else { return }
            let latitude = Int32(bitPattern: read32(p + definition.latitude, definition.bigEndian))
            let longitude = Int32(bitPattern: read32(p + definition.longitude, definition.bigEndian))
            guard latitude != Int32.max, longitude != Int32.max else { return }  // 0x7FFFFFFF: no position
            var elevation = Double.nan
            if definition.enhancedAltitude >= 0, case let raw = read32(p + definition.enhancedAltitude, definition.bigEndian), raw != 0xFFFF_FFFF {
                elevation = Double(raw) / 5 - 500
            } else if definition.altitude >= 0, case let raw = read16(p + definition.altitude, definition.bigEndian), raw != 0xFFFF {
                elevation = Double(raw) / 5 - 500
            }
            try counter.add(.fit, at: SourcePosition(byteOffset: p))
            let degreesPerSemicircle = 180.0 / 2_147_483_648.0
            fixes.append(
                Fix(
                    latitudeDegrees: Double(latitude) * degreesPerSemicircle, longitudeDegrees: Double(longitude) * degreesPerSemicircle,
                    elevationMeters: elevation, timeSeconds: timestamp.map { Double($0) + FITReader.epochOffsetSeconds } ?? .nan))
        case 21:
            // event 0 = timer; type 1 = stop, 4 = stop all: the recording pauses, a new segment follows.
            guard definition.event >= 0, definition.eventType >= 0, bytes[p + definition.event] == 0 else { return }
            let type = bytes[p + definition.eventType]
            if type == 1 || type == 4, !fixes.isEmpty {
                segments.append(TrackSegment(fixes: fixes))
                fixes = []
            }
        case 18, 12:
            guard definition.sport >= 0, sportName == nil else { return }
            let code = bytes[p + definition.sport]
            if code != 0xFF { sportName = FITSport.name(code) }
        default:
            return
        }
    }

    /// The segments read, the last one closed.
    mutating func finishSegments() -> [TrackSegment] {
        if !fixes.isEmpty { segments.append(TrackSegment(fixes: fixes)) }
        fixes = []
        return segments
    }

    @inline(__always)
    private func read32(_ offset: Int, _ bigEndian: Bool) -> UInt32 {
        let raw = UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    @inline(__always)
    private func read16(_ offset: Int, _ bigEndian: Bool) -> UInt16 {
        let raw = UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw)
    }
}

/// Names of the FIT profile's `sport` enum values that tracks commonly carry.
enum FITSport {
    static func name(_ code: UInt8) -> String {
        switch code {
        case 0: return "generic"
        case 1: return "running"
        case 2: return "cycling"
        case 3: return "transition"
        case 4: return "fitness_equipment"
        case 5: return "swimming"
        case 10: return "training"
        case 11: return "walking"
        case 12: return "cross_country_skiing"
        case 13: return "alpine_skiing"
        case 14: return "snowboarding"
        case 15: return "rowing"
        case 16: return "mountaineering"
        case 17: return "hiking"
        case 19: return "paddling"
        case 21: return "e_biking"
        case 37: return "stand_up_paddleboarding"
        case 41: return "kayaking"
        default: return "sport \(code)"
        }
    }
}
