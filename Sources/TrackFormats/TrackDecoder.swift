import TrackModel

/// The entry point of the reader family: sniffs the format and hands the bytes to its reader.
public enum TrackDecoder {
    /// The reader for a format, or nil when this version cannot read it.
    public static func reader(for format: TrackFormat) -> (any TrackReader.Type)? {
        switch format {
        case .gpx: return GPXReader.self
        case .csv: return CSVReader.self
        case .tcx, .fit, .kml, .kmz, .geojson, .gzip: return nil
        }
    }

    /// Decodes a track file held in memory. `fileName` is only a hint (see `FormatSniffer`).
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, fileName: String? = nil, limits: DecodingLimits = DecodingLimits()
    ) throws(TrackDecodingError) -> Track {
        guard bytes.count <= limits.maximumInputBytes else {
            throw TrackDecodingError(
                .limitExceeded, format: nil, position: nil,
                "the input is \(bytes.count) bytes, more than the limit of \(limits.maximumInputBytes)")
        }
        let format = try FormatSniffer.sniff(bytes, fileName: fileName)
        guard let reader = reader(for: format) else {
            throw TrackDecodingError(
                .unsupportedFormat, format: format, position: nil,
                "\(format.rawValue.uppercased()) is recognised but not read by this version (it reads \(supportedList))")
        }
        return try reader.read(bytes, limits: limits)
    }

    /// Decodes a track file from an array of bytes.
    public static func decode(
        _ bytes: [UInt8], fileName: String? = nil, limits: DecodingLimits = DecodingLimits()
    ) throws(TrackDecodingError) -> Track {
        try bytes.withUnsafeBufferPointer { buffer throws(TrackDecodingError) in
            try decode(buffer, fileName: fileName, limits: limits)
        }
    }

    private static var supportedList: String {
        TrackFormat.allCases.filter { reader(for: $0) != nil }.map { $0.rawValue.uppercased() }.joined(separator: " and ")
    }
}
