import Testing
import TrackModel
@testable import TrackFormats

@Suite struct FormatSnifferTests {
    @Test func contentWinsOverExtension() throws {
        let gpx = try fixture("gpx11-basic.gpx")
        #expect(try TrackDecoder.decode(gpx, fileName: "misnamed.csv").format == .gpx)
    }

    @Test func emptyInputIsAnEmptyError() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("empty.gpx")) }
        #expect(error?.kind == .empty)
    }

    @Test func binaryJunkIsUnknownFormat() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("binary-junk.bin")) }
        #expect(error?.kind == .unknownFormat)
        #expect(error?.description.contains("found bytes 00") == true)
    }

    @Test func otherXMLIsUnknownFormatNamingTheRoot() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("not-a-track.xml")) }
        #expect(error?.kind == .unknownFormat)
        #expect(error?.description.contains("found <html>") == true)
    }

    @Test func recognisedButUnreadFormatSaysSo() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("tcx-not-yet-supported.tcx")) }
        #expect(error?.kind == .unsupportedFormat)
        #expect(error?.format == .tcx)
    }

    @Test func recognisesBinaryMagic() throws {
        #expect(try sniff([0x1F, 0x8B, 8, 0]) == .gzip)
        #expect(try sniff([0x50, 0x4B, 3, 4, 0]) == .kmz)
        #expect(try sniff([14, 0x10, 0, 0, 0, 0, 0, 0] + Array(".FIT".utf8) + [0, 0]) == .fit)
        #expect(try sniff(Array("{\"type\":\"Feature\"}".utf8)) == .geojson)
    }

    private func sniff(_ bytes: [UInt8]) throws -> TrackFormat {
        try bytes.withUnsafeBufferPointer { try FormatSniffer.sniff($0) }
    }
}
