import TrackModel

/// Reads KML 2.2: every `LineString` (its `coordinates`) and `gx:Track` (`when` / `gx:coord`
/// pairs) anywhere under `Document`, `Folder`, `Placemark`, `MultiGeometry` and `gx:MultiTrack`,
/// each as a segment in file order. `Point`s and `Polygon`s are not routes: they are ignored and
/// counted in `notes`. The name is that of the first `Placemark` with a route, else the `Document`'s.
/// KML has no activity element; the first `ExtendedData/Data` named `activity`, `activityType`,
/// `sport` or `type` (as some exporters write) gives the activity.
public enum KMLReader: TrackReader {
    public static let format = TrackFormat.kml

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        var handler = KMLHandler(counter: FixCounter(limits, inputBytes: bytes.count))
        try XMLWalk.run(bytes, format: .kml, root: "kml", limits: limits, handler: &handler)
        var track = Track(format: .kml, name: handler.routeName ?? handler.documentName, segments: handler.segments, activity: handler.activity)
        if handler.ignoredGeometries > 0 {
            track.notes.append("\(handler.ignoredGeometries) Point or Polygon geometries ignored (only lines are routes)")
        }
        if handler.unpairedTimes > 0 {
            track.notes.append("\(handler.unpairedTimes) gx:Track time(s) without a matching gx:coord (or the reverse) ignored")
        }
        return track
    }
}

private struct KMLHandler: XMLElementHandler {
    enum Field { case coordinates, when, coord, placemarkName, documentName, activity }

    var counter: FixCounter
    var segments: [TrackSegment] = []
    var ignoredGeometries = 0
    var unpairedTimes = 0
    var documentName: String?, routeName: String?, placemarkName: String?
    var placemarkDepth = 0, lineDepth = 0, gxTrackDepth = 0, ignoredDepth = 0
    var activity: String?
    /// Depth of an `ExtendedData/Data` element naming the activity, while inside it.
    var activityDataDepth = 0
    var times: [Double] = []
    var coordinates: [Fix] = []
    var field: Field?

    init(counter: FixCounter) { self.counter = counter }

    mutating func start(_ token: XMLScanner.Token, depth: Int, _ scanner: XMLScanner) throws(TrackDecodingError) -> Bool {
        field = nil
        if ignoredDepth > 0 { return false }
        if lineDepth > 0 {
            if depth == lineDepth + 1, scanner.isNamed(token, "coordinates") { field = .coordinates }
        } else if gxTrackDepth > 0 {
            if depth == gxTrackDepth + 1 {
                if scanner.isNamed(token, "when") {
                    field = .when
                } else if scanner.isNamed(token, "coord") {
                    field = .coord
                }
            }
        } else if scanner.isNamed(token, "LineString") {
            lineDepth = depth
        } else if scanner.isNamed(token, "Track") {
            gxTrackDepth = depth
        } else if scanner.isNamed(token, "Point") || scanner.isNamed(token, "Polygon") || scanner.isNamed(token, "LinearRing") {
            ignoredGeometries += 1
            ignoredDepth = depth
        } else if activityDataDepth > 0 {
            if depth == activityDataDepth + 1, scanner.isNamed(token, "value") { field = .activity }
        } else if activity == nil, scanner.isNamed(token, "Data"), !token.selfClosing, let range = try scanner.attribute(token, "name") {
            let name = scanner.string(range.start, range.end).lowercased()
            if ["activity", "activitytype", "sport", "type"].contains(name) { activityDataDepth = depth }
        } else if scanner.isNamed(token, "Placemark") {
            placemarkDepth = depth
            placemarkName = nil
        } else if scanner.isNamed(token, "name") {
            if placemarkDepth > 0, depth == placemarkDepth + 1 {
                field = .placemarkName
            } else if documentName == nil, depth <= 3 {
                field = .documentName
            }
        }
        return field != nil
    }

    mutating func end(_ token: XMLScanner.Token, depth: Int, text: XMLTextCollector?, _ scanner: XMLScanner) throws(TrackDecodingError) {
        if let text, let field {
            self.field = nil
            switch field {
            case .coordinates: try readCoordinates(text, scanner, token)
            case .when: times.append(text.time(in: scanner))
            case .coord: try readGXCoord(text, scanner, token)
            case .placemarkName: placemarkName = try text.string(in: scanner)
            case .documentName: documentName = try text.string(in: scanner)
            case .activity: if activity == nil { activity = try text.string(in: scanner) }
            }
            return
        }
        if depth == activityDataDepth {
            activityDataDepth = 0
        } else if depth == ignoredDepth {
            ignoredDepth = 0
        } else if depth == lineDepth {
            lineDepth = 0
            closeSegment()
        } else if depth == gxTrackDepth {
            gxTrackDepth = 0
            if !times.isEmpty {
                if times.count != coordinates.count { unpairedTimes += abs(times.count - coordinates.count) }
                for index in 0..<min(times.count, coordinates.count) { coordinates[index].timeSeconds = times[index] }
            }
            times = []
            closeSegment()
        } else if depth == placemarkDepth {
            placemarkDepth = 0
        }
    }

    private mutating func closeSegment() {
        if !coordinates.isEmpty {
            segments.append(TrackSegment(fixes: coordinates))
            if routeName == nil { routeName = placemarkName }
        }
        coordinates = []
    }

    private mutating func append(_ fix: Fix, _ scanner: XMLScanner, _ offset: Int) throws(TrackDecodingError) {
        try counter.add(.kml, at: .text(scanner.bytes, offset: offset))
        coordinates.append(fix)
    }

    /// `lon,lat[,alt]` tuples separated by whitespace (spaces after commas are tolerated).
    private mutating func readCoordinates(_ text: XMLTextCollector, _ scanner: XMLScanner, _ token: XMLScanner.Token) throws(TrackDecodingError) {
        if let range = text.plainRange(in: scanner) {
            try readTuples(scanner.bytes, range.start, range.end, scanner, separator: UInt8(ascii: ","))
        } else {
            let decoded = try text.decoded(in: scanner)
            try decoded.withUnsafeBufferPointer { buffer throws(TrackDecodingError) in
                do throws(TrackDecodingError) {
                    try readTuples(buffer, 0, buffer.count, scanner, separator: UInt8(ascii: ","))
                } catch {
                    throw scanner.error(at: token.offset, error.message + " (in entity-decoded <coordinates>)")
                }
            }
        }
    }

    /// `lon lat [alt]`, one fix; read in place when the text has no entities or CDATA pieces.
    private mutating func readGXCoord(_ text: XMLTextCollector, _ scanner: XMLScanner, _ token: XMLScanner.Token) throws(TrackDecodingError) {
        if let range = text.plainRange(in: scanner) {
            let buffer = UnsafeBufferPointer(rebasing: scanner.bytes[range.start..<range.end])
            if let fix = try Self.gxCoord(buffer, scanner, token) { try append(fix, scanner, token.offset) }
            return
        }
        let decoded = try text.decoded(in: scanner)
        let fix = try decoded.withUnsafeBufferPointer { buffer throws(TrackDecodingError) in try Self.gxCoord(buffer, scanner, token) }
        if let fix { try append(fix, scanner, token.offset) }
    }

    private static func gxCoord(_ buffer: UnsafeBufferPointer<UInt8>, _ scanner: XMLScanner, _ token: XMLScanner.Token) throws(TrackDecodingError)
        -> Fix?
    {
        var values = (Double.nan, Double.nan, Double.nan)
        var count = 0
        var i = 0
        while true {
            while i < buffer.count, NumberParsing.isSpace(buffer[i]) { i += 1 }
            if i == buffer.count { break }
            let start = i
            while i < buffer.count, !NumberParsing.isSpace(buffer[i]) { i += 1 }
            guard count < 3, let value = NumberParsing.parseDouble(buffer, start, i) else {
                throw scanner.error(
                    at: token.offset,
                    "expected \"longitude latitude [altitude]\" in <gx:coord>, found \"\(String(decoding: buffer, as: UTF8.self))\"")
            }
            switch count {
            case 0: values.0 = value
            case 1: values.1 = value
            default: values.2 = value
            }
            count += 1
        }
        if count == 0 { return nil }
        guard count >= 2 else {
            throw scanner.error(at: token.offset, "expected \"longitude latitude [altitude]\" in <gx:coord>, found one number")
        }
        return Fix(latitudeDegrees: values.1, longitudeDegrees: values.0, elevationMeters: values.2)
    }

    private mutating func readTuples(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ scanner: XMLScanner, separator: UInt8
    ) throws(TrackDecodingError) {
        var i = start
        @inline(__always) func skipSpace() { while i < end, NumberParsing.isSpace(bytes[i]) { i += 1 } }
        func fail(_ offset: Int, _ expected: String) -> TrackDecodingError {
            var stop = offset
            while stop < end, stop - offset < 24, !NumberParsing.isSpace(bytes[stop]) { stop += 1 }
            let found = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<stop]), as: UTF8.self)
            return scanner.error(at: offset, "expected \(expected) in <coordinates>, found \"\(found)\"")
        }
        while true {
            skipSpace()
            if i >= end { return }
            let tupleStart = i
            var values = (Double.nan, Double.nan, Double.nan)
            var component = 0
            while true {
                let numberStart = i
                while i < end, bytes[i] != separator, !NumberParsing.isSpace(bytes[i]) { i += 1 }
                guard let value = NumberParsing.parseDouble(bytes, numberStart, i) else {
                    throw fail(numberStart, component == 0 ? "a longitude" : component == 1 ? "a latitude" : "an altitude")
                }
                switch component {
                case 0: values.0 = value
                case 1: values.1 = value
                default: values.2 = value
                }
                component += 1
                var look = i
                while look < end, NumberParsing.isSpace(bytes[look]) { look += 1 }
                guard look < end, bytes[look] == separator else { break }
                guard component < 3 else { throw fail(look, "at most three numbers per coordinate") }
                i = look + 1
                while i < end, NumberParsing.isSpace(bytes[i]) { i += 1 }
            }
            guard component >= 2 else { throw fail(tupleStart, "\"longitude,latitude\" pairs") }
            try append(Fix(latitudeDegrees: values.1, longitudeDegrees: values.0, elevationMeters: values.2), scanner, i)
        }
    }
}
