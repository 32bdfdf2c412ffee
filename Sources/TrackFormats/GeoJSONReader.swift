import TrackModel

/// Reads GeoJSON (RFC 7946): `LineString` and `MultiLineString` geometries, alone or inside
/// `Feature`, `FeatureCollection` and `GeometryCollection`, each line a segment in file order.
/// Positions are `[longitude, latitude, elevation?]` (further members ignored). A feature's
/// `properties.name` names the track; times come from `properties.coordTimes` (one time per
/// position, nested like the lines, as togeojson and gpsbabel write) or
/// `properties.coordinateProperties.times`; a lone `properties.time` dates the first fix. A string
/// `properties.activity`, `sport`, `activityType` or `type` is the activity.
/// Polygons are not routes: ignored and counted in `notes`. Points (Point, MultiPoint) are drawn
/// in file order when the file has no lines, as a GPX file of waypoints is; otherwise counted.
///
/// Members may come in any order; the common order (`type` first) is read in one pass, and a
/// geometry whose `type` comes after its `coordinates` is read in a second pass over that member.
public enum GeoJSONReader: TrackReader {
    public static let format = TrackFormat.geojson

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        var state = GeoJSONState(
            scanner: JSONScanner(bytes: bytes, maximumDepth: limits.maximumNestingDepth), limits: limits)
        guard state.scanner.peek() == UInt8(ascii: "{") else {
            throw state.scanner.error(at: state.scanner.position, "expected a GeoJSON object '{', found \(state.scanner.found())")
        }
        try state.readObject(depth: 0)
        if state.scanner.peek() != nil {
            throw state.scanner.error(
                at: state.scanner.position, "expected the end of the file after the GeoJSON object, found \(state.scanner.found())")
        }
        var track = Track(format: .geojson, name: state.name, segments: state.segments, activity: state.activity)
        // Like a GPX file of waypoints: points are the route only when there is no line.
        if state.segments.isEmpty, !state.points.isEmpty {
            track.segments = [TrackSegment(fixes: state.points)]
            track.notes.append("drawn from \(state.points.count) points in file order (the file has no lines)")
        } else if !state.points.isEmpty {
            track.notes.append("\(state.points.count) points not drawn (the lines are the route)")
        }
        let ignored = state.ignored.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        if !ignored.isEmpty { track.notes.append(ignored.joined(separator: ", ") + " ignored (only lines and points are routes)") }
        track.notes += state.notes
        return track
    }
}

private struct GeoJSONState {
    enum Kind: String {
        case lineString = "LineString", multiLineString = "MultiLineString", feature = "Feature"
        case featureCollection = "FeatureCollection", geometryCollection = "GeometryCollection"
        case point = "Point", multiPoint = "MultiPoint", polygon = "Polygon", multiPolygon = "MultiPolygon"
    }
    enum Member { case coordinates, geometry, geometries, features }

    var scanner: JSONScanner
    var counter: FixCounter
    var reservation: Int
    var segments: [TrackSegment] = []
    /// Point and MultiPoint positions, in file order: the route when the file has no lines.
    var points: [Fix] = []
    var name: String?
    var activity: String?
    var ignored: [String: Int] = [:]
    var notes: [String] = []

    init(scanner: JSONScanner, limits: DecodingLimits) {
        self.scanner = scanner
        counter = FixCounter(limits, inputBytes: scanner.bytes.count)
        reservation = min(scanner.bytes.count / 24, counter.maximum)
    }

    /// Reads the object at the position (a `{` is next).
    mutating func readObject(depth: Int) throws(TrackDecodingError) {
        let objectOffset = scanner.position
        try scanner.expect(UInt8(ascii: "{"), "an object")
        try scanner.enter(depth)
        var kind: Kind?
        var typeName: String?
        var deferred: [(member: Member, offset: Int)] = []
        var properties = Properties()
        let firstSegment = segments.count
        var first = true
        while let key = try scanner.nextKey(first: &first) {
            if scanner.equals(key, "type") {
                guard scanner.peek() == UInt8(ascii: "\"") else {
                    throw scanner.error(at: scanner.position, "expected a string for \"type\", found \(scanner.found())")
                }
                let text = try scanner.readString()
                typeName = text
                kind = Kind(rawValue: text)
                continue
            }
            let member: Member
            if scanner.equals(key, "coordinates") {
                member = .coordinates
            } else if scanner.equals(key, "geometry") {
                member = .geometry
            } else if scanner.equals(key, "geometries") {
                member = .geometries
            } else if scanner.equals(key, "features") {
                member = .features
            } else if scanner.equals(key, "properties") {
                properties = try readProperties(depth: depth + 1)
                continue
            } else {
                try scanner.skipValue(depth: depth + 1)
                continue
            }
            if typeName != nil {
                try read(member, of: kind, depth: depth + 1)
            } else {
                deferred.append((member, scanner.position))
                try scanner.skipValue(depth: depth + 1)
            }
        }
        let end = scanner.position
        guard let typeName else {
            throw scanner.error(at: objectOffset, "expected a \"type\" member in the GeoJSON object")
        }
        if kind == nil, depth == 0 {
            throw scanner.error(
                at: objectOffset,
                "expected a GeoJSON type (FeatureCollection, Feature, LineString, MultiLineString, GeometryCollection, …), found \"\(typeName)\"")
        }
        switch kind {
        case .polygon, .multiPolygon, nil: ignored[typeName, default: 0] += 1
        default: break
        }
        for item in deferred {
            scanner.position = item.offset
            try read(item.member, of: kind, depth: depth + 1)
        }
        scanner.position = end
        apply(properties, toSegmentsFrom: firstSegment)
    }

    /// Reads one member whose object's type is known; members foreign to the type are skipped.
    private mutating func read(_ member: Member, of kind: Kind?, depth: Int) throws(TrackDecodingError) {
        switch (member, kind) {
        case (.coordinates, .lineString?):
            segments.append(TrackSegment(fixes: try readPositions(depth: depth)))
        case (.coordinates, .point?):
            points.append(try readPosition(depth: depth - 1))
        case (.coordinates, .multiPoint?):
            points += try readPositions(depth: depth)
        case (.coordinates, .multiLineString?):
            try scanner.expect(UInt8(ascii: "["), "an array of lines for MultiLineString coordinates")
            try scanner.enter(depth)
            var first = true
            while try scanner.nextElement(first: &first) { segments.append(TrackSegment(fixes: try readPositions(depth: depth + 1))) }
        case (.geometry, .feature?):
            if scanner.skipNull() { return }
            try readObject(depth: depth)
        case (.geometries, .geometryCollection?), (.features, .featureCollection?):
            try scanner.expect(UInt8(ascii: "["), member == .features ? "an array of features" : "an array of geometries")
            try scanner.enter(depth)
            var first = true
            while try scanner.nextElement(first: &first) { try readObject(depth: depth + 1) }
        default:
            try scanner.skipValue(depth: depth)
        }
    }

    /// An array of positions.
    private mutating func readPositions(depth: Int) throws(TrackDecodingError) -> [Fix] {
        try scanner.expect(UInt8(ascii: "["), "an array of positions")
        try scanner.enter(depth)
        var fixes: [Fix] = []
        if reservation > 0 {
            fixes.reserveCapacity(reservation)
            reservation = 0
        }
        var first = true
        while try scanner.nextElement(first: &first) { fixes.append(try readPosition(depth: depth)) }
        return fixes
    }

    /// One position `[longitude, latitude, elevation?, …]`.
    private mutating func readPosition(depth: Int) throws(TrackDecodingError) -> Fix {
        let positionOffset = scanner.position
        try scanner.expect(UInt8(ascii: "["), "a position [longitude, latitude, elevation?]")
        try scanner.enter(depth + 1)
        let longitude = try scanner.readNumber("a longitude")
        try scanner.expect(UInt8(ascii: ","), "',' and a latitude after the longitude")
        let latitude = try scanner.readNumber("a latitude")
        var elevation = Double.nan
        if scanner.peek() == UInt8(ascii: ",") {
            scanner.position += 1
            elevation = scanner.skipNull() ? .nan : try scanner.readNumber("an elevation")
            while scanner.peek() == UInt8(ascii: ",") {
                scanner.position += 1
                try scanner.skipValue(depth: depth + 2)
            }
        }
        try scanner.expect(UInt8(ascii: "]"), "']' to close the position")
        try counter.add(.geojson, at: .text(scanner.bytes, offset: positionOffset))
        return Fix(latitudeDegrees: latitude, longitudeDegrees: longitude, elevationMeters: elevation)
    }

    /// What a feature's `properties` say about its track.
    struct Properties {
        var name: String?
        /// The first of `activity`, `sport`, `activityType`, `type` that is a non-blank string.
        var activity: String?
        var time = Double.nan
        /// One list of times per line (a LineString's single list is one entry).
        var times: [[Double]]?
    }

    private mutating func readProperties(depth: Int) throws(TrackDecodingError) -> Properties {
        var result = Properties()
        if scanner.skipNull() { return result }
        try scanner.expect(UInt8(ascii: "{"), "an object or null for \"properties\"")
        try scanner.enter(depth)
        var first = true
        while let key = try scanner.nextKey(first: &first) {
            if scanner.equals(key, "name"), scanner.peek() == UInt8(ascii: "\"") {
                result.name = try scanner.readString()
            } else if result.activity == nil, scanner.peek() == UInt8(ascii: "\""),
                scanner.equals(key, "activity") || scanner.equals(key, "sport") || scanner.equals(key, "activityType")
                    || scanner.equals(key, "type")
            {
                let text = try scanner.readString().trimmingSpaces
                result.activity = text.isEmpty ? nil : text
            } else if scanner.equals(key, "time") || scanner.equals(key, "startTime") {
                result.time = try readTime(depth: depth + 1)
            } else if scanner.equals(key, "coordTimes") {
                result.times = try readTimeLists(depth: depth + 1)
            } else if scanner.equals(key, "coordinateProperties"), scanner.peek() == UInt8(ascii: "{") {
                scanner.position += 1
                try scanner.enter(depth + 1)
                var innerFirst = true
                while let inner = try scanner.nextKey(first: &innerFirst) {
                    if scanner.equals(inner, "times") {
                        result.times = try readTimeLists(depth: depth + 2)
                    } else {
                        try scanner.skipValue(depth: depth + 2)
                    }
                }
            } else {
                try scanner.skipValue(depth: depth + 1)
            }
        }
        return result
    }

    /// `["t1", "t2"]` → one list; `[["t1"], ["t2", "t3"]]` → one list per line; other shapes are skipped.
    private mutating func readTimeLists(depth: Int) throws(TrackDecodingError) -> [[Double]]? {
        guard scanner.peek() == UInt8(ascii: "[") else {
            try scanner.skipValue(depth: depth)
            return nil
        }
        scanner.position += 1
        try scanner.enter(depth)
        var lists: [[Double]] = []
        var flat: [Double] = []
        var first = true
        while try scanner.nextElement(first: &first) {
            if scanner.peek() == UInt8(ascii: "[") {
                scanner.position += 1
                try scanner.enter(depth + 1)
                var list: [Double] = []
                var innerFirst = true
                while try scanner.nextElement(first: &innerFirst) { list.append(try readTime(depth: depth + 2)) }
                lists.append(list)
            } else {
                flat.append(try readTime(depth: depth + 1))
            }
        }
        if !lists.isEmpty, !flat.isEmpty { return nil }
        return lists.isEmpty ? [flat] : lists
    }

    /// An ISO 8601 string, or a number of Unix seconds (milliseconds when above 10¹²); NaN for anything else.
    private mutating func readTime(depth: Int) throws(TrackDecodingError) -> Double {
        switch scanner.peek() {
        case UInt8(ascii: "\"")?:
            let range = try scanner.readStringRange()
            if range.escaped {
                let text = Array(try scanner.decode(range).utf8)
                return text.withUnsafeBufferPointer { NumberParsing.parseISO8601($0, 0, $0.count) } ?? .nan
            }
            return NumberParsing.parseISO8601(scanner.bytes, range.start, range.end) ?? .nan
        case let byte? where byte == UInt8(ascii: "-") || byte &- 48 < 10:
            let value = try scanner.readNumber("a time")
            return abs(value) > 1e12 ? value / 1000 : value
        default:
            try scanner.skipValue(depth: depth)
            return .nan
        }
    }

    private mutating func apply(_ properties: Properties, toSegmentsFrom firstSegment: Int) {
        let produced = firstSegment..<segments.count
        guard !produced.isEmpty else { return }
        if name == nil { name = properties.name }
        if activity == nil { activity = properties.activity }
        if let times = properties.times {
            let counts = produced.map { segments[$0].fixes.count }
            if times.map(\.count) == counts {
                for (list, index) in zip(times, produced) {
                    for k in list.indices { segments[index].fixes[k].timeSeconds = list[k] }
                }
            } else {
                notes.append("coordTimes has \(times.map(\.count)) times where the lines have \(counts) positions; times ignored")
            }
        } else if !properties.time.isNaN, !segments[firstSegment].fixes.isEmpty, segments[firstSegment].fixes[0].timeSeconds.isNaN {
            segments[firstSegment].fixes[0].timeSeconds = properties.time
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !" \t\r\n".unicodeScalars.contains($0) }),
            let last = scalars.lastIndex(where: { !" \t\r\n".unicodeScalars.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
