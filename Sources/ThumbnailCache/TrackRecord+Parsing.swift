import JSONDocument

extension TrackRecord {
    /// Parses a record; nil when the bytes are not one: not JSON, a required field missing, or
    /// a field of the wrong type (as the synthesized `Decodable` conformance decides; unknown
    /// fields are ignored, a missing or null optional field is nil).
    ///
    /// Read with JSONDocument's parser and taken field by field: `JSONDecoder` was 1,363 of a
    /// cold listing's 8,275 samples at 100,000 records (`perf record` on `bench --section
    /// listing`), most of it in its coding-path machinery; this reads the same record about
    /// three times as fast.
    package static func parse(_ bytes: [UInt8]) -> TrackRecord? {
        guard case .object(let fields)? = try? JSONValue.parse(bytes) else { return nil }
        let field = RecordFields(fields)
        guard let id = field.string("id"), let format = field.string("format"), let bbox = field.numbers("bbox"),
            let startLonLat = field.numbers("start_lon_lat"), let segments = field.integer("segments"),
            let fixesDrawn = field.integer("fixes_drawn"), let distanceM = field.number("distance_m"),
            let fixes = field.integer("fixes"), let fixesKept = field.integer("fixes_kept"),
            case .array(let imageValues)? = fields["images"]
        else { return nil }
        var images: [Image] = []
        images.reserveCapacity(imageValues.count)
        for value in imageValues {
            guard case .object(let members) = value, let image = Image(RecordFields(members)) else { return nil }
            images.append(image)
        }
        var record = TrackRecord(
            id: id, format: format, bbox: bbox, startLonLat: startLonLat,
            segments: segments, fixesDrawn: fixesDrawn, distanceM: distanceM, fixes: fixes, fixesKept: fixesKept, images: images)
        do {
            record.name = try field.optional("name", \.string)
            record.activity = try field.optional("activity", \.string)
            record.utcOffsetRecordedS = try field.optional("utc_offset_recorded_s", RecordFields.integer)
            record.startTime = try field.optional("start_time", \.number)
            record.endTime = try field.optional("end_time", \.number)
            record.movingTimeS = try field.optional("moving_time_s", \.number)
            record.movingDistanceM = try field.optional("moving_distance_m", \.number)
            record.durationS = try field.optional("duration_s", \.number)
            record.elevationGainM = try field.optional("elevation_gain_m", \.number)
            record.incomplete = try field.optional("incomplete", \.string)
            record.overviewRoute = try field.optional("overview_route", \.string)
            record.basemap = try field.optional("basemap") { value in
                guard case .object(let members) = value else { return nil }
                return Basemap(RecordFields(members))
            }
        } catch {
            return nil
        }
        return record
    }
}

extension TrackRecord.Image {
    /// An image of a parsed record; nil when a field is missing or of the wrong type.
    fileprivate init?(_ field: RecordFields) {
        guard let path = field.string("path"), let width = field.integer("width"), let height = field.integer("height"),
            let scale = field.number("scale"), let role = field.string("role"), let viewport = field.numbers("viewport_epsg3857")
        else { return nil }
        self.init(path: path, width: width, height: height, scale: scale, role: role, viewportEpsg3857: viewport)
    }
}

extension TrackRecord.Basemap {
    /// The map part of a parsed record; nil when a field is missing or of the wrong type.
    fileprivate init?(_ field: RecordFields) {
        guard let tiles = field.integer("tiles"), let absent = field.integer("tiles_absent"), let failed = field.integer("tiles_failed")
        else { return nil }
        do {
            self.init(
                zoom: try field.optional("zoom", RecordFields.integer), tiles: tiles, tilesAbsent: absent, tilesFailed: failed,
                attribution: try field.optional("attribution", \.string),
                problems: try field.optional("problems") { value in
                    guard case .array(let items) = value else { return nil }
                    let texts = items.compactMap(\.string)
                    return texts.count == items.count ? texts : nil
                })
            kind = try field.optional("kind", \.string)
            featuresDrawn = try field.optional("features_drawn", RecordFields.integer)
            verticesDrawn = try field.optional("vertices_drawn", RecordFields.integer)
            labelLayersSkipped = try field.optional("label_layers_skipped", RecordFields.integer)
        } catch {
            return nil
        }
    }
}

/// The members of one object of a record, read by name with the types the record declares.
private struct RecordFields {
    /// A present, non-null field whose value is not of the declared type.
    struct WrongType: Error {}

    let members: [String: JSONValue]

    init(_ members: [String: JSONValue]) { self.members = members }

    func string(_ name: String) -> String? { members[name]?.string }
    func number(_ name: String) -> Double? { members[name]?.number }
    func integer(_ name: String) -> Int? { members[name].flatMap(Self.integer) }

    func numbers(_ name: String) -> [Double]? {
        guard case .array(let items)? = members[name] else { return nil }
        let values = items.compactMap(\.number)
        return values.count == items.count ? values : nil
    }

    /// A whole number that an `Int` holds exactly (a fraction or one out of range is no `Int`).
    static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, number.rounded(.towardZero) == number, abs(number) < 0x1p63 else { return nil }
        return Int(number)
    }

    /// An optional field: nil when absent or null, `read`'s value when it has one, and
    /// `WrongType` otherwise (the whole record is then not one, as for the decoder).
    func optional<Value>(_ name: String, _ read: (JSONValue) -> Value?) throws(WrongType) -> Value? {
        guard let value = members[name], value != .null else { return nil }
        guard let read = read(value) else { throw WrongType() }
        return read
    }
}
