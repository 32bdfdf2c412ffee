import Testing
import TrackModel
@testable import TrackFormats

@Suite struct GPXReaderTests {
    private func decode(_ name: String) throws -> Track {
        try TrackDecoder.decode(try fixture(name), fileName: name)
    }

    @Test func readsPointsElevationTimeAndTrackName() throws {
        let track = try decode("gpx11-basic.gpx")
        #expect(track.format == .gpx)
        #expect(track.name == "Morning run")
        #expect(track.segments.count == 1)
        let fixes = track.segments[0].fixes
        #expect(fixes.count == 3)
        #expect(fixes[0] == Fix(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417, elevationMeters: 408.5, timeSeconds: 1_714_546_800))
        // The <time> inside <extensions> is not the point's time.
        #expect(fixes[1].timeSeconds == 1_714_546_830)
        #expect(fixes[2].timeSeconds == 1_714_546_860.5)
        #expect(fixes[2].elevationMeters == 415.25)
    }

    /// Issue 21 item 12: Strava and Garmin Connect write the sport as `trk/type`; it was ignored,
    /// so a run was listed in km/h instead of pace.
    @Test func readsTrackTypeAsTheActivity() throws {
        let track = try decode("gpx-trk-type-running-bern-summer.gpx")
        #expect(track.activity == "running")
        #expect(track.name == "Morning Run along the Aare" && track.fixCount == 61)
        // A route's type when there is no track; a point's <type> is not the activity.
        let route = #"<gpx><rte><type>hiking</type><rtept lat="46.6" lon="8.0"><type>summit</type></rtept></rte></gpx>"#
        #expect(try TrackDecoder.decode(Array(route.utf8), fileName: "route.gpx").activity == "hiking")
        let untyped = #"<gpx><trk><trkseg><trkpt lat="46.6" lon="8.0"><type>x</type></trkpt></trkseg></trk></gpx>"#
        #expect(try TrackDecoder.decode(Array(untyped.utf8), fileName: "plain.gpx").activity == nil)
    }

    /// Issue 21 item 11: the offset written with the file's first time is kept for the listing's
    /// local time; UTC (`Z`, `+00:00`) and no offset are not an offset.
    @Test func keepsTheUTCOffsetTheFileRecords() throws {
        let track = try decode("gpx-times-with-local-offset-at-sea.gpx")
        #expect(track.recordedUTCOffsetSeconds == -3600)
        #expect(track.segments[0].fixes[0].timeSeconds == 1_717_243_800)  // 12:10 UTC
        #expect(try decode("gpx11-basic.gpx").recordedUTCOffsetSeconds == nil)
        for (time, offset) in [
            ("2024-06-15T08:30:00+02:00", 7200), ("2024-06-15 08:30:00.5+0530", 19800), ("2024-06-15T08:30:00+00:00", nil),
            ("2024-06-15T08:30:00", nil),
        ] as [(String, Int?)] {
            let csv = "lat,lon,time\n46.9,7.4,\(time)\n46.91,7.41,\(time)\n"
            #expect(try TrackDecoder.decode(Array(csv.utf8), fileName: "offset.csv").recordedUTCOffsetSeconds == offset, "\(time)")
        }
    }

    @Test func readsGPX10WithNamespacePrefixesAndTimeZoneOffset() throws {
        let track = try decode("gpx10-namespace-prefixes.gpx")
        #expect(track.name == "Prefixed")
        let fixes = track.segments[0].fixes
        #expect(fixes.count == 2)
        #expect(fixes[0].latitudeDegrees == -33.8688 && fixes[0].longitudeDegrees == 151.2093)
        // 03:04:05+02:00 is 01:04:05Z.
        #expect(fixes[0].timeSeconds == 1_704_157_445)
        #expect(!fixes[1].hasElevation && !fixes[1].hasTime)
    }

    @Test func skipsBOMAndHandlesCRLF() throws {
        let track = try decode("bom-and-crlf.gpx")
        #expect(track.segments[0].fixes.map(\.latitudeDegrees) == [1.5, 1.6])
    }

    @Test func decodesCDATAAndEntitiesInName() throws {
        let track = try decode("cdata-and-entities-in-name.gpx")
        #expect(track.name == "Run <fast> & \u{201C}easy\u{201D} <3")
    }

    @Test func ignoresPointsInsideComments() throws {
        let track = try decode("comment-containing-trkpt.gpx")
        #expect(track.segments[0].fixes.map(\.latitudeDegrees) == [10, 10.001])
    }

    @Test func acceptsSingleQuotesAndLonBeforeLat() throws {
        let fixes = try decode("single-quoted-lon-before-lat.gpx").segments[0].fixes
        #expect(fixes[0] == Fix(latitudeDegrees: 47.25, longitudeDegrees: 8.5, elevationMeters: 12.5))
        #expect(fixes[1].latitudeDegrees == 47.26 && fixes[1].longitudeDegrees == 8.51)
    }

    @Test func readsRouteWhenThereIsNoTrack() throws {
        let track = try decode("route-without-track.gpx")
        #expect(track.name == "Planned")
        #expect(track.segments.count == 1 && track.segments[0].fixes.count == 3)
    }

    @Test func keepsSegmentsSeparate() throws {
        let track = try decode("two-segments-gap.gpx")
        #expect(track.segments.map(\.fixes.count) == [2, 3])
    }

    @Test func parsesScientificNotationAndSigns() throws {
        let fixes = try decode("scientific-notation-and-signs.gpx").segments[0].fixes
        #expect(fixes[0].latitudeDegrees == 47.25 && fixes[0].longitudeDegrees == 8.5 && fixes[0].elevationMeters == 120)
        #expect(fixes[1].latitudeDegrees == -0.000001)
        #expect(fixes[1].longitudeDegrees == -179.99999999999999)
    }

    @Test func keepsNaNAndOutOfRangeForCleaning() throws {
        // Reading is not judging: the cleaner drops these and counts them.
        let fixes = try decode("nan-and-out-of-range.gpx").segments[0].fixes
        #expect(fixes.count == 4)
        #expect(fixes[0].latitudeDegrees.isNaN)
        #expect(fixes[2].longitudeDegrees == 1e308)
    }

    @Test(arguments: [
        ("truncated.gpx", "line 3", "unexpected end of file"),
        ("mismatched-end-tag.gpx", "line 3, column 1", "expected </trkseg>, found </trk>"),
        ("undefined-entity.gpx", "line 3", "undefined entity &boom;"),
        ("latitude-not-a-number.gpx", "line 3, column 13", "expected a number for lat on <trkpt>, found \"north\""),
        ("missing-lon-attribute.gpx", "line 2", "expected attribute lon on <trkpt>"),
    ])
    func reportsMalformedInputWithPosition(name: String, position: String, message: String) throws {
        let error = #expect(throws: TrackDecodingError.self) { try decode(name) }
        #expect(error?.kind == .malformed)
        #expect(error?.format == .gpx)
        let text = error?.description ?? ""
        #expect(text.hasPrefix("GPX, \(position)"), "\(text)")
        #expect(text.contains(message), "\(text)")
    }

    @Test func refusesTooManyFixes() throws {
        var limits = DecodingLimits()
        limits.maximumFixes = 2
        let error = #expect(throws: TrackDecodingError.self) {
            try TrackDecoder.decode(try fixture("two-segments-gap.gpx"), limits: limits)
        }
        #expect(error?.kind == .limitExceeded)
    }

    @Test func refusesDeepNesting() throws {
        let deep = "<gpx>" + String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300) + "</gpx>"
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(Array(deep.utf8)) }
        #expect(error?.kind == .limitExceeded)
    }
}
