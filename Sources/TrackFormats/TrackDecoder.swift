import Decompression
import TrackModel

/// The entry point of the reader family: undoes gzip and UTF-16, checks UTF-8, sniffs the format
/// and hands the bytes to its reader.
public enum TrackDecoder {
    /// The reader for a format, or nil for gzip (a wrapper, undone by `decode`).
    public static func reader(for format: TrackFormat) -> (any TrackReader.Type)? {
        switch format {
        case .gpx: return GPXReader.self
        case .csv: return CSVReader.self
        case .tcx: return TCXReader.self
        case .fit: return FITReader.self
        case .kml: return KMLReader.self
        case .kmz: return KMZReader.self
        case .geojson: return GeoJSONReader.self
        case .gzip: return nil
        }
    }

    /// Decodes a track file held in memory. `fileName` is only a hint (see `FormatSniffer`).
    /// `consumed`, when given, is called now and then with an offset below which `bytes` is no
    /// longer needed (GPX reads it; a caller holding a mapped file releases those pages).
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, fileName: String? = nil, limits: DecodingLimits = DecodingLimits(),
        consumed: ((Int) -> Void)? = nil
    ) throws(TrackDecodingError) -> Track {
        guard bytes.count <= limits.maximumInputBytes else {
            throw TrackDecodingError(
                .limitExceeded, format: nil, position: nil,
                "the input is \(bytes.count) bytes, more than the limit of \(limits.maximumInputBytes)")
        }
        guard limits.memoryLeft(inputBytes: bytes.count) > 0 else {
            throw TrackDecodingError(
                .limitExceeded, format: nil, position: nil,
                "the input alone (\(DecodingLimits.mebibytes(bytes.count))) passes \(limits.memoryLimitText)")
        }
        guard Gzip.hasMagic(bytes) else { return bounded(try decodeUncompressed(bytes, fileName: fileName, limits: limits, consumed: consumed)) }
        let inflated = try expand(bytes, format: .gzip, limits: limits) { budget throws(DecompressionError) in
            try Gzip.decompress(bytes, limits: budget)
        }
        var limits = limits
        limits.bytesHeldBeside += bytes.count
        var innerName = fileName
        if let name = fileName, name.lowercased().hasSuffix(".gz") { innerName = String(name.dropLast(3)) }
        var track = try inflated.withUnsafeBufferPointer { inner throws(TrackDecodingError) in
            if Gzip.hasMagic(inner) {
                throw TrackDecodingError(.unsupportedFormat, format: .gzip, position: nil, "gzip inside gzip is not read; decompress the outer layer")
            }
            do throws(TrackDecodingError) {
                return try decodeUncompressed(inner, fileName: innerName, limits: limits)
            } catch {
                var wrapped = error
                wrapped.message += " (in the decompressed content of the gzip file)"
                throw wrapped
            }
        }
        track.wasCompressed = true
        return bounded(track)
    }

    /// Runs `decompress` with the decompression limits narrowed to the memory left beside
    /// `input`, and says which limit it passed when it fails on size.
    static func expand(
        _ input: UnsafeBufferPointer<UInt8>, format: TrackFormat, limits: DecodingLimits,
        _ decompress: (DecompressionLimits) throws(DecompressionError) -> [UInt8]
    ) throws(TrackDecodingError) -> [UInt8] {
        var budget = limits.decompression
        let memoryLeft = limits.memoryLeft(inputBytes: input.count)
        let memoryBinds = memoryLeft < budget.outputBudget(inputBytes: input.count)
        budget.maximumOutputBytes = min(budget.maximumOutputBytes, memoryLeft)
        do {
            return try decompress(budget)
        } catch {
            var wrapped = TrackDecodingError(error, format: format)
            if error.kind == .limitExceeded, memoryBinds {
                wrapped.message =
                    "the content expands past \(DecodingLimits.mebibytes(memoryLeft)), the room \(limits.memoryLimitText) leaves beside the \(DecodingLimits.mebibytes(input.count)) file"
            }
            throw wrapped
        }
    }

    /// The most characters of a track's name kept; a longer one ends in "…". Every text field a
    /// record stores is bounded like this, so a record always fits what the listing reads back (a
    /// 1 MiB `<name>` used to be rendered, counted done and never listed).
    public static let maximumNameCharacters = 200
    /// The most characters of the activity kept.
    public static let maximumActivityCharacters = 64
    /// The most reader notes kept, and their most characters each.
    public static let maximumNotes = (count: 20, characters: 200)

    private static func bounded(_ track: Track) -> Track {
        var track = track
        // O(limit), not O(text): a name may be hundreds of megabytes.
        func cut(_ text: String, _ limit: Int) -> String {
            guard text.prefix(limit).endIndex != text.endIndex else { return text }
            return String(text.prefix(limit - 1)) + "…"
        }
        track.name = track.name.map { cut($0, maximumNameCharacters) }
        track.activity = track.activity.map { cut($0, maximumActivityCharacters) }
        track.activityIdentifier = track.activityIdentifier.map { cut($0, maximumActivityCharacters) }
        if track.notes.count > maximumNotes.count {
            let dropped = track.notes.count - maximumNotes.count + 1
            track.notes = Array(track.notes.prefix(maximumNotes.count - 1)) + ["\(dropped) more notes not kept"]
        }
        track.notes = track.notes.map { cut($0, maximumNotes.characters) }
        return track
    }

    /// Decodes a track file from an array of bytes.
    public static func decode(
        _ bytes: [UInt8], fileName: String? = nil, limits: DecodingLimits = DecodingLimits()
    ) throws(TrackDecodingError) -> Track {
        try bytes.withUnsafeBufferPointer { buffer throws(TrackDecodingError) in
            try decode(buffer, fileName: fileName, limits: limits)
        }
    }

    private static func decodeUncompressed(
        _ bytes: UnsafeBufferPointer<UInt8>, fileName: String?, limits: DecodingLimits, consumed: ((Int) -> Void)? = nil
    ) throws(TrackDecodingError) -> Track {
        if TextEncoding.isUTF32(bytes) {
            throw TrackDecodingError(
                .unsupportedFormat, format: nil, position: SourcePosition(byteOffset: 0),
                "UTF-32 text (a UTF-32 byte-order mark) is not read; save the file as UTF-8 or UTF-16")
        }
        if let order = TextEncoding.utf16Order(bytes) {
            let utf8 = try TextEncoding.transcodeUTF16(bytes, order: order)
            var limits = limits
            limits.bytesHeldBeside += bytes.count
            return try utf8.withUnsafeBufferPointer { text throws(TrackDecodingError) in
                try decodeUncompressed(text, fileName: fileName, limits: limits)
            }
        }
        let format = try FormatSniffer.sniff(bytes, fileName: fileName)
        guard let reader = reader(for: format) else {
            throw TrackDecodingError(.unsupportedFormat, format: format, position: nil, "\(format.rawValue) content is not a track")
        }
        // Before the reader: a caller's `consumed` may release the file's first pages.
        let recordedOffset = format.isText ? NumberParsing.firstRecordedUTCOffset(bytes) : nil
        if format.isText { try checkUTF8(bytes, format: format, consumed: consumed) }
        var track: Track
        if format == .gpx, let consumed {
            track = try GPXReader.read(bytes, limits: limits, consumed: consumed)
        } else {
            track = try reader.read(bytes, limits: limits)
        }
        if track.recordedUTCOffsetSeconds == nil { track.recordedUTCOffsetSeconds = recordedOffset }
        return track
    }

    /// Fails on the first byte of `bytes` that is not well-formed UTF-8, naming its line and column.
    static func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, format: TrackFormat, consumed: ((Int) -> Void)? = nil) throws(TrackDecodingError) {
        guard let offset = firstInvalidUTF8(bytes, consumed: consumed) else { return }
        throw TrackDecodingError(
            .malformed, format: format, position: .text(bytes, offset: offset),
            "invalid UTF-8 (byte \(hexByte(bytes[offset]))); save the file as UTF-8 or UTF-16")
    }

    /// The UTF-8 check, in chunks when the caller releases consumed input: the check touches
    /// every page, and the reader will fault them back in one chunk at a time.
    private static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, consumed: ((Int) -> Void)?) -> Int? {
        guard let consumed else { return TextEncoding.firstInvalidUTF8(bytes) }
        var start = 0
        while start < bytes.count {
            var end = min(bytes.count, start + GPXReader.consumedInterval)
            // Never split a character: back up over continuation bytes.
            while end < bytes.count, end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if let offset = TextEncoding.firstInvalidUTF8(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return start + offset }
            consumed(end)
            start = end
        }
        return nil
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return "0x" + (digits.count == 1 ? "0" + digits : digits)
    }
}

extension TrackFormat {
    /// Whether the format is text (UTF-8 or UTF-16), as opposed to a binary container.
    var isText: Bool {
        switch self {
        case .gpx, .csv, .tcx, .kml, .geojson: return true
        case .fit, .kmz, .gzip: return false
        }
    }
}

extension TrackDecodingError {
    /// Wraps a decompression failure of a `format` container.
    init(_ error: DecompressionError, format: TrackFormat) {
        let kind: Kind
        switch error.kind {
        case .malformed: kind = .malformed
        case .limitExceeded: kind = .limitExceeded
        case .unsupported: kind = .unsupportedFormat
        }
        self.init(kind, format: format, position: SourcePosition(byteOffset: error.byteOffset), error.message)
    }
}
