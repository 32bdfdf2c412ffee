import Testing
import TrackModel
@testable import TrackFormats

/// TCX, KML and GPX structure cases, from fixtures named after the problem.
@Suite struct XMLFormatReaderTests {
    private func decode(_ name: String) throws -> Track { try TrackDecoder.decode(try fixture(name), fileName: name) }

    @Test func tcxPrefixesCoursesAndTrackpointsWithoutPosition() throws {
        let track = try decode("tcx-prefixed-course-and-positionless-points.tcx")
        #expect(track.name == "Loop & back")
        #expect(track.segments.map(\.fixes.count) == [2, 1])
        #expect(track.segments[0].fixes[0] == Fix(latitudeDegrees: 47.25, longitudeDegrees: 8.5, elevationMeters: 410, timeSeconds: 1_714_546_801))
        #expect(track.segments[0].fixes[1].latitudeDegrees == 47.26 && !track.segments[0].fixes[1].hasElevation)
        #expect(track.notes == ["1 trackpoint(s) without a position skipped"])
    }

    @Test func tcxBadLatitudeNamesLineAndExpectation() throws {
        let error = #expect(throws: TrackDecodingError.self) { try decode("tcx-latitude-not-a-number.tcx") }
        #expect(error?.description == "TCX, line 3, column 40: expected a number in <LatitudeDegrees>, found \"north\"")
    }

    @Test func kmlNestedFoldersMultiGeometryAndCRLF() throws {
        let track = try decode("kml-nested-folders-multigeometry-crlf.kml")
        #expect(track.name == "Ride <one>")
        #expect(track.segments.map(\.fixes.count) == [3, 3])
        #expect(track.segments[0].fixes[1] == Fix(latitudeDegrees: 47.01, longitudeDegrees: 8.51, elevationMeters: 401))
        #expect(track.segments[1].fixes[2].latitudeDegrees == 48.2)
        #expect(track.notes == ["2 Point or Polygon geometries ignored (only lines are routes)"])
    }

    @Test func kmlGxMultiTrackPairsWhenWithCoord() throws {
        let track = try decode("kml-gx-multitrack.kml")
        #expect(track.segments.map(\.fixes.count) == [2, 1])
        #expect(track.segments[0].fixes[1] == Fix(latitudeDegrees: 47.001, longitudeDegrees: 8.501, elevationMeters: 401, timeSeconds: 1_714_546_805))
        #expect(track.segments[1].fixes[0].timeSeconds == 1_714_546_800)
    }

    /// Issue 21 item 12: KML has no activity element; an `ExtendedData` field named like one is read.
    @Test func kmlExtendedDataActivityType() throws {
        let track = try decode("kml-extendeddata-activity-type.kml")
        #expect(track.activity == "hiking" && track.name == "Eiger trail" && track.fixCount == 3)
        #expect(try decode("kml-gx-multitrack.kml").activity == nil)
    }

    @Test func kmlMissingLatitudeIsAnError() throws {
        let error = #expect(throws: TrackDecodingError.self) { try decode("kml-coordinates-missing-latitude.kml") }
        #expect(error?.description == "KML, line 2, column 10: expected \"longitude,latitude\" pairs in <coordinates>, found \"8.6\"")
    }

    @Test func gpxWaypointsOnlyBecomeARoute() throws {
        let track = try decode("gpx-waypoints-only.gpx")
        #expect(track.name == "Summits")
        #expect(track.segments.count == 1)
        #expect(track.segments[0].fixes.map(\.latitudeDegrees) == [46.1, 46.2, 46.3])
        #expect(track.segments[0].fixes[0].elevationMeters == 3000 && track.segments[0].fixes[1].timeSeconds == 1_714_546_800)
    }

    @Test func gpxSeveralTracksAreAllKeptAndWaypointsAndRoutesIgnoredBesideThem() throws {
        let track = try decode("gpx-two-tracks.gpx")
        #expect(track.name == "Morning")
        #expect(track.segments.map(\.fixes.count) == [2, 1, 1])
    }
}

/// GeoJSON structure cases.
@Suite struct GeoJSONReaderTests {
    private func decode(_ name: String) throws -> Track { try TrackDecoder.decode(try fixture(name), fileName: name) }

    @Test func memberOrderCollectionsTimesAndIgnoredGeometries() throws {
        let track = try decode("geojson-type-after-coordinates-and-points.geojson")
        #expect(track.name == "Café run \"A\"")
        #expect(track.segments.map(\.fixes.count) == [3, 2, 2])
        #expect(track.segments[0].fixes[0] == Fix(latitudeDegrees: 47, longitudeDegrees: 8.5, elevationMeters: 400.5, timeSeconds: 1_714_546_800))
        #expect(!track.segments[0].fixes[1].hasElevation)
        #expect(track.segments[0].fixes[2].latitudeDegrees == 47.02 && track.segments[0].fixes[2].timeSeconds == 1_714_546_802)
        #expect(track.segments[2].fixes[1].timeSeconds == 1_714_551_001)
        #expect(track.notes == ["1 points not drawn (the lines are the route)", "1 Polygon ignored (only lines and points are routes)"])
    }

    /// A GeoJSON of points only is drawn from them in file order, as a GPX of waypoints is
    /// (issue 13, item 12); before, it was "no valid fixes".
    @Test func pointsOnlyAreDrawnLikeWaypoints() throws {
        let json =
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.5, 47.0, 410]}, "properties": null}, {"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": [[8.51, 47.01], [8.52, 47.02]]}, "properties": {}}]}"#
        let track = try TrackDecoder.decode(Array(json.utf8), fileName: "stops.geojson")
        #expect(track.segments.map(\.fixes.count) == [3])
        #expect(track.segments[0].fixes[0] == Fix(latitudeDegrees: 47.0, longitudeDegrees: 8.5, elevationMeters: 410))
        #expect(track.segments[0].fixes[2].longitudeDegrees == 8.52)
        #expect(track.notes == ["drawn from 3 points in file order (the file has no lines)"])
    }

    /// Issue 21 item 12: `properties.activity` (or `sport`, `activityType`, `type`) is the activity.
    @Test func readsTheActivityFromProperties() throws {
        let track = try decode("geojson-properties-activity-running.geojson")
        #expect(track.activity == "running" && track.name == "Lunch run")
        let sport = #"{"type":"Feature","properties":{"sport":7,"type":"Hike"},"geometry":{"type":"LineString","coordinates":[[8,46],[8.1,46]]}}"#
        #expect(try TrackDecoder.decode(Array(sport.utf8), fileName: "hike.geojson").activity == "Hike")
    }

    @Test func shortPositionIsAnErrorWithPosition() throws {
        let error = #expect(throws: TrackDecodingError.self) { try decode("geojson-position-with-one-number.geojson") }
        #expect(error?.description == "GEOJSON, line 2, column 35: expected ',' and a latitude after the longitude, found \"]]}\n\"")
    }

    @Test func trailingContentIsAnError() throws {
        let error = #expect(throws: TrackDecodingError.self) { try decode("geojson-two-documents.geojson") }
        #expect(error?.position?.line == 2)
    }

    @Test(arguments: [
        "", "{", "{\"type\":", "{\"type\":\"LineString\",\"coordinates\":[[1,2],", "{\"type\":\"Nope\"}", "{\"coordinates\":[]}",
        "{\"type\":\"LineString\",\"coordinates\":[[1,\"2\"]]}", "{\"type\":\"LineString\",\"coordinates\":[[1e999999,2]]}x",
        "{\"type\":\"Feature\",\"properties\":{\"name\":\"\\q\"}}", "{\"type\":\"LineString\",\"coordinates\":[[1,2]],}",
        String(repeating: "[", count: 100_000),
    ])
    func malformedInputIsOneError(_ text: String) {
        #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(Array(text.utf8), fileName: "x.geojson") }
    }

    @Test func deepNestingHitsTheLimitNotTheStack() throws {
        let text = "{\"type\":\"FeatureCollection\",\"x\":" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(Array(text.utf8)) }
        #expect(error?.kind == .limitExceeded)
    }
}
