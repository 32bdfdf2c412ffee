import TrackModel

/// Recognises a track format from the first bytes of the content. The file name's extension is
/// only a tie-breaker for text that could be CSV; content always wins, so a GPX saved as `.txt`
/// or a FIT file named `.gpx` is read correctly.
public enum FormatSniffer {
    /// How much of the start of the file is looked at. Enough for an XML declaration, comments and
    /// a DOCTYPE before the root element.
    static let sniffWindow = 64 * 1024

    /// The format of `bytes`, or a decoding error saying why none matched.
    public static func sniff(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String? = nil) throws(TrackDecodingError) -> TrackFormat {
        let count = bytes.count
        if count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B { return .gzip }
        if count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x03, bytes[3] == 0x04 { return .kmz }
        // The ".FIT" signature decides, whatever the header-size byte says: a bad size is then
        // reported by the FIT reader ("expected a FIT header size of 12 or 14, found 13"), not as
        // an unknown format.
        if count >= 12, bytes[8] == UInt8(ascii: "."), bytes[9] == UInt8(ascii: "F"),
            bytes[10] == UInt8(ascii: "I"), bytes[11] == UInt8(ascii: "T")
        {
            return .fit
        }
        var i = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        while i < count, NumberParsing.isSpace(bytes[i]) { i += 1 }
        if i == count {
            throw TrackDecodingError(.empty, format: nil, position: nil, "the file is empty")
        }
        switch bytes[i] {
        case UInt8(ascii: "<"): return try xmlFormat(bytes, from: i)
        case UInt8(ascii: "{"): return .geojson
        default: break
        }
        if looksLikeCSV(bytes, from: i) { return .csv }
        if let fileName, fileName.lowercased().hasSuffix(".csv") { return .csv }
        throw TrackDecodingError(
            .unknownFormat, format: nil, position: SourcePosition(byteOffset: i),
            "expected GPX, TCX, KML, GeoJSON, FIT, CSV or gzip content, found \(describe(bytes, from: i))")
    }

    /// The root element decides among the XML formats.
    private static func xmlFormat(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(TrackDecodingError) -> TrackFormat {
        let window = UnsafeBufferPointer(rebasing: bytes[0..<min(bytes.count, start + sniffWindow)])
        var scanner = XMLScanner(bytes: window, format: .gpx)
        let root: XMLScanner.Token?
        do {
            root = try scanner.next(wantText: false)
        } catch {
            throw TrackDecodingError(.unknownFormat, format: nil, position: error.position, "expected an XML track file: \(error.message)")
        }
        guard let root, root.kind == .startTag else {
            throw TrackDecodingError(.unknownFormat, format: nil, position: nil, "expected an XML root element")
        }
        switch scanner.string(root.nameStart, root.nameEnd) {
        case "gpx": return .gpx
        case "TrainingCenterDatabase": return .tcx
        case "kml": return .kml
        case let name:
            throw TrackDecodingError(
                .unknownFormat, format: nil, position: .text(bytes, offset: root.offset),
                "expected a <gpx>, <TrainingCenterDatabase> or <kml> root element, found <\(name)>")
        }
    }

    /// Text whose first record has a lat/lon header, or starts with two numbers.
    private static func looksLikeCSV(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let window = UnsafeBufferPointer(rebasing: bytes[0..<min(bytes.count, start + sniffWindow)])
        var lines = CSVLines(bytes: window)
        guard let record = try? lines.nextRecord() else { return false }
        for delimiter in [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")] {
            guard let fields = try? lines.split(record, delimiter: delimiter), fields.count >= 2 else { continue }
            if CSVReader.headerColumns(fields, window) != nil { return true }
            if NumberParsing.parseDouble(window, fields[0].start, fields[0].end) != nil,
                NumberParsing.parseDouble(window, fields[1].start, fields[1].end) != nil
            {
                return true
            }
        }
        return false
    }

    /// What the content is, without quoting it: a file that is not a track may be anything (a
    /// password file, a key), and error messages go to logs, cron mail and `.error` sidecars.
    private static func describe(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> String {
        let end = min(bytes.count, start + 64)
        let isText = bytes[start..<end].allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 >= 0x80 }
        return isText ? "text in none of these formats (not quoted: it is not a track)" : "binary data in none of these formats"
    }
}
