import TrackModel

/// Reads CSV tracks: a header naming latitude and longitude columns in any order (`lat`/`latitude`,
/// `lon`/`lng`/`long`/`longitude`, optional `ele`/`elevation`/`alt`/`altitude`, `time`/`timestamp`,
/// and `segment` to split segments), or bare rows of `lat,lon[,ele]`. The delimiter is sniffed
/// (comma, semicolon or tab); fields may be double-quoted; `#` starts a comment line; blank lines
/// are ignored. Times are ISO 8601 or Unix seconds (milliseconds when > 10¹²).
public enum CSVReader: TrackReader {
    public static let format = TrackFormat.csv

    /// Column indexes of the fields TrackSnap reads.
    struct Columns: Equatable {
        var latitude: Int
        var longitude: Int
        var elevation: Int?
        var time: Int?
        var segment: Int?
    }

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        var lines = CSVLines(bytes: bytes)
        guard let first = try lines.nextRecord() else {
            throw TrackDecodingError(.empty, format: .csv, position: nil, "no rows")
        }
        let delimiter = sniffDelimiter(bytes, first)
        var fields = try lines.split(first, delimiter: delimiter)
        var columns: Columns
        if let header = headerColumns(fields, bytes) {
            columns = header
            fields = []
        } else if fields.count >= 2, fields.count <= 3 {
            columns = Columns(latitude: 0, longitude: 1, elevation: fields.count == 3 ? 2 : nil)
        } else {
            throw TrackDecodingError(
                .malformed, format: .csv, position: .text(bytes, offset: first.start),
                "expected a header naming lat and lon columns, or rows of lat,lon, found \(fields.count) field(s)")
        }
        var segments: [TrackSegment] = []
        var fixes: [Fix] = []
        var segmentKey: [UInt8]? = nil
        var counter = FixCounter(limits, inputBytes: bytes.count)
        var record: CSVLines.Record? = fields.isEmpty ? try lines.nextRecord() : first
        while let current = record {
            let row = fields.isEmpty ? try lines.split(current, delimiter: delimiter) : fields
            fields = []
            let needed = max(columns.latitude, columns.longitude, columns.elevation ?? 0, columns.time ?? 0, columns.segment ?? 0)
            guard row.count > needed else {
                throw TrackDecodingError(
                    .malformed, format: .csv, position: .text(bytes, offset: current.start),
                    "expected at least \(needed + 1) fields, found \(row.count)")
            }
            func number(_ column: Int, _ what: String) throws(TrackDecodingError) -> Double {
                let field = row[column]
                guard let value = NumberParsing.parseDouble(bytes, field.start, field.end) else {
                    throw TrackDecodingError(
                        .malformed, format: .csv, position: .text(bytes, offset: field.start),
                        "expected a number for \(what) in field \(column + 1), found \"\(text(bytes, field))\"")
                }
                return value
            }
            var fix = Fix(latitudeDegrees: try number(columns.latitude, "latitude"), longitudeDegrees: try number(columns.longitude, "longitude"))
            if let column = columns.elevation, row[column].start < row[column].end {
                fix.elevationMeters = try number(column, "elevation")
            }
            if let column = columns.time {
                fix.timeSeconds = parseTime(bytes, row[column])
            }
            if let column = columns.segment {
                let key = Array(bytes[row[column].start..<row[column].end])
                if let segmentKey, key != segmentKey, !fixes.isEmpty {
                    segments.append(TrackSegment(fixes: fixes))
                    fixes.removeAll()
                }
                segmentKey = key
            }
            fixes.append(fix)
            try counter.add(.csv, at: .text(bytes, offset: current.start))
            record = try lines.nextRecord()
        }
        if !fixes.isEmpty { segments.append(TrackSegment(fixes: fixes)) }
        return Track(format: .csv, name: nil, segments: segments)
    }

    /// The columns named by a header row, or nil when the row is data (or names no lat/lon).
    static func headerColumns(_ fields: [CSVLines.Field], _ bytes: UnsafeBufferPointer<UInt8>) -> Columns? {
        var latitude: Int?, longitude: Int?, elevation: Int?, time: Int?, segment: Int?
        for (index, field) in fields.enumerated() {
            switch text(bytes, field).lowercased() {
            case "lat", "latitude", "lat_deg", "latitude_deg": latitude = latitude ?? index
            case "lon", "lng", "long", "longitude", "lon_deg", "longitude_deg": longitude = longitude ?? index
            case "ele", "elevation", "alt", "altitude", "elevation_m", "altitude_m": elevation = elevation ?? index
            case "time", "timestamp", "datetime", "date_time", "utc", "time_utc": time = time ?? index
            case "segment", "seg", "segment_id", "trkseg": segment = segment ?? index
            default: continue
            }
        }
        guard let latitude, let longitude else { return nil }
        return Columns(latitude: latitude, longitude: longitude, elevation: elevation, time: time, segment: segment)
    }

    private static func sniffDelimiter(_ bytes: UnsafeBufferPointer<UInt8>, _ record: CSVLines.Record) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        for k in record.start..<record.end where counts[bytes[k]] != nil { counts[bytes[k], default: 0] += 1 }
        let best = counts.max { a, b in a.value < b.value || (a.value == b.value && a.key != UInt8(ascii: ",")) }
        return (best?.value ?? 0) > 0 ? best!.key : UInt8(ascii: ",")
    }

    private static func parseTime(_ bytes: UnsafeBufferPointer<UInt8>, _ field: CSVLines.Field) -> Double {
        if field.start == field.end { return .nan }
        if let iso = NumberParsing.parseISO8601(bytes, field.start, field.end) { return iso }
        guard let number = NumberParsing.parseDouble(bytes, field.start, field.end), number.isFinite else { return .nan }
        return number > 1e12 ? number / 1000 : number
    }

    static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ field: CSVLines.Field) -> String {
        var value = String(decoding: UnsafeBufferPointer(rebasing: bytes[field.start..<field.end]), as: UTF8.self)
        if field.quoted { value = value.replacingOccurrences(of: "\"\"", with: "\"") }
        return value.trimmingCharacters(in: " \t")
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }

    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
