import Testing
import TrackModel
@testable import TrackFormats

@Suite struct CSVReaderTests {
    @Test func readsHeaderColumnsInAnyOrder() throws {
        let track = try TrackDecoder.decode(try fixture("header-any-order.csv"))
        #expect(track.format == .csv)
        #expect(
            track.segments[0].fixes == [
                Fix(latitudeDegrees: 47.25, longitudeDegrees: 8.5, elevationMeters: 400, timeSeconds: 1_714_546_800),
                Fix(latitudeDegrees: 47.251, longitudeDegrees: 8.501, elevationMeters: 401.5, timeSeconds: 1_714_546_810),
            ])
    }

    @Test func readsBareLatLonRows() throws {
        let track = try TrackDecoder.decode(try fixture("bare-lat-lon.csv"))
        #expect(track.segments[0].fixes.map(\.longitudeDegrees) == [8.5, 8.501, 8.502])
    }

    @Test func readsSemicolonsQuotesCommentsCRLFAndSegments() throws {
        let track = try TrackDecoder.decode(try fixture("semicolon-quoted-segments.csv"))
        #expect(track.segments.map(\.fixes.count) == [2, 1])
        #expect(track.segments[0].fixes[1].latitudeDegrees == 1.6)
    }

    @Test func reportsBadNumberWithLineAndColumn() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("csv-bad-number.csv")) }
        #expect(error?.description == "CSV, line 3, column 5: expected a number for longitude in field 2, found \"abc\"")
    }
}
