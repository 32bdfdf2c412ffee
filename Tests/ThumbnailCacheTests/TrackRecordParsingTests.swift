import ContentHash
import FoundationEssentials
import Testing
import ThumbnailCache

/// `TrackRecord.parse` reads records with JSONDocument's parser; it must accept and refuse
/// exactly what the synthesized `Decodable` conformance (`JSONDecoder`) does, and give the same
/// record.
struct TrackRecordParsingTests {
    /// A record with every optional field set, as a render with a vector map writes it.
    static func fullRecord() -> TrackRecord {
        var record = TrackRecord(
            key: CacheKey(content: SHA256.hash("full"), settings: SHA256.hash("s")), format: "fit", bbox: [8.5, 47.3, 8.6, 47.4],
            startLonLat: [8.51, 47.31], segments: 2, fixesDrawn: 1_234, distanceM: 12_345.678, fixes: 7_200, fixesKept: 7_100,
            images: [
                .init(path: "thumbs/a.png", width: 320, height: 240, scale: 1, role: "thumbnail", viewportEpsg3857: [1.5, -2.25, 3e6, 4.125e6]),
                .init(path: "thumbs/a@2x.png", width: 640, height: 480, scale: 2, role: "detail", viewportEpsg3857: [0, 0, 1, 1]),
            ])
        record.name = "Morning \"run\" \\ über den Üetliberg \u{2028} 🏃"
        record.activity = "running"
        record.utcOffsetRecordedS = -25_200
        record.startTime = 1_700_000_000.125
        record.endTime = 1_700_003_600.5
        record.movingTimeS = 3_400
        record.movingDistanceM = 12_000.25
        record.durationS = 3_600.375
        record.elevationGainM = 412.5
        record.incomplete = "tiles failed"
        record.overviewRoute = "abc~DEF_123"
        var basemap = TrackRecord.Basemap(zoom: 14, tiles: 12, tilesAbsent: 1, tilesFailed: 2, attribution: "© OSM", problems: ["14/1/2: HTTP 503"])
        basemap.kind = "vector"
        basemap.featuresDrawn = 9_000
        basemap.verticesDrawn = 120_000
        basemap.labelLayersSkipped = 7
        record.basemap = basemap
        return record
    }

    static func decoded(_ text: String) -> TrackRecord? {
        try? JSONDecoder().decode(TrackRecord.self, from: Data(text.utf8))
    }

    @Test func aFullAndAMinimalRecordParseAsTheDecoderReadsThem() {
        var minimal = Self.fullRecord()
        (minimal.name, minimal.activity, minimal.utcOffsetRecordedS, minimal.startTime, minimal.endTime) = (nil, nil, nil, nil, nil)
        (minimal.movingTimeS, minimal.movingDistanceM, minimal.durationS, minimal.elevationGainM) = (nil, nil, nil, nil)
        (minimal.incomplete, minimal.overviewRoute, minimal.basemap, minimal.images) = (nil, nil, nil, [])
        for record in [Self.fullRecord(), minimal] {
            let bytes = record.jsonBytes()
            #expect(TrackRecord.parse(bytes) == record)
            #expect(TrackRecord.parse(bytes) == Self.decoded(String(decoding: bytes, as: UTF8.self)))
        }
    }

    /// Edits of a record's text, each either still a record or not one; the parser must agree
    /// with the decoder on every one.
    @Test(arguments: [
        (#""fixes":7200"#, #""fixes":7200.0"#, true),  // a whole number written with a fraction: still an Int
        (#""fixes":7200"#, #""fixes":7200.5"#, false),  // a fraction: no Int
        (#""fixes":7200"#, #""fixes":"7200""#, false),  // a string: no Int
        (#""fixes":7200,"#, "", false),  // a required field missing
        (#""activity":"running""#, #""activity":null"#, true),  // null optional: nil
        (#""activity":"running""#, #""activity":3"#, false),  // an optional of the wrong type: no record
        (#""utc_offset_recorded_s":-25200"#, #""utc_offset_recorded_s":-25200.25"#, false),
        (#""zoom":14"#, #""zoom":null"#, true),
        (#""problems":["14/1/2: HTTP 503"]"#, #""problems":["14/1/2: HTTP 503",5]"#, false),
        (#""bbox":[8.5"#, #""bbox":["8.5""#, false),
        (#""role":"thumbnail""#, #""role":1"#, false),
        (#""format":"fit""#, #""format":"fit","unknown":{"nested":[1,2,{"x":null}]}"#, true),  // unknown fields ignored
        (#""id":""#, #""id":7,"other_id":""#, false),
    ])
    func editsAreAcceptedOrRefusedAsTheDecoderDoes(edit: (String, String, isRecord: Bool)) {
        let text = String(decoding: Self.fullRecord().jsonBytes(), as: UTF8.self)
        #expect(text.contains(edit.0))
        let edited = text.replacing(edit.0, with: edit.1, maxReplacements: 1)
        #expect(TrackRecord.parse(Array(edited.utf8)) == Self.decoded(edited))
        #expect((TrackRecord.parse(Array(edited.utf8)) != nil) == edit.isRecord)
    }

    @Test func notARecordIsNil() {
        for text in ["", "[]", "{", "null", #"{"id":"x"}"#, String(decoding: Self.fullRecord().jsonBytes().dropLast(), as: UTF8.self)] {
            #expect(TrackRecord.parse(Array(text.utf8)) == nil)
        }
    }
}
