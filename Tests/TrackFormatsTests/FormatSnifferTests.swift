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
        #expect(error?.description.contains("found binary data") == true)
    }

    /// A file that is not a track is never quoted: it may be a password file (issue 12, item 13).
    @Test func contentThatIsNoTrackIsNotQuotedInTheError() throws {
        let shadow = Array("root:*:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n".utf8)
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(shadow, fileName: "planted.gpx") }
        #expect(error?.kind == .unknownFormat)
        let text = error?.description ?? ""
        #expect(!text.contains("root") && !text.contains("20228") && text.contains("text in none of these formats"), "\(text)")
    }

    /// UTF-32 is named, not reported as truncated UTF-16 (issue 13, item 10).
    @Test func utf32IsNamed() throws {
        var text: [UInt8] = [0xFF, 0xFE, 0, 0]
        for scalar in "<gpx/>".unicodeScalars { text += [UInt8(scalar.value), 0, 0, 0] }
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(text, fileName: "wide.gpx") }
        #expect(error?.description.contains("UTF-32") == true, "\(error?.description ?? "")")
    }

    /// A FIT signature with a bad header-size byte is a FIT error, not an unknown format.
    @Test func aBadFITHeaderSizeIsNamedAsSuch() throws {
        var bytes: [UInt8] = [13, 0x10, 0, 0, 0, 0, 0, 0] + Array(".FIT".utf8)
        bytes += [UInt8](repeating: 0, count: 20)
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(bytes, fileName: "ride.fit") }
        #expect(
            error?.format == .fit && error?.description.contains("header size of 12 or 14") == true
                && error?.description.contains("found 13") == true,
            "\(error?.description ?? "")")
    }

    @Test func otherXMLIsUnknownFormatNamingTheRoot() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("not-a-track.xml")) }
        #expect(error?.kind == .unknownFormat)
        #expect(error?.description.contains("found <html>") == true)
    }

    @Test func tcxWithNoActivitiesIsAnEmptyTrackNotAnError() throws {
        let track = try TrackDecoder.decode(try fixture("tcx-no-activities.tcx"))
        #expect(track.format == .tcx && track.segments.isEmpty)
    }

    @Test func invalidUTF8IsAnErrorWithLineAndColumn() throws {
        let error = #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(try fixture("invalid-utf8-latin1-name.gpx")) }
        #expect(error?.format == .gpx)
        #expect(error?.position?.line == 2)
        #expect(error?.position?.column == 20)
        #expect(error?.message.contains("invalid UTF-8 (byte 0xe9)") == true)
    }

    @Test func validUTF8OfEveryLengthPasses() {
        let text = Array("aé€😀 plain ascii run of more than eight bytes ✓".utf8)
        #expect(text.withUnsafeBufferPointer { TextEncoding.firstInvalidUTF8($0) } == nil)
        for bad: [UInt8] in [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            #expect((Array("0123456789".utf8) + bad).withUnsafeBufferPointer { TextEncoding.firstInvalidUTF8($0) } == 10)
        }
    }

    @Test func aBadByteIsFoundWhereverItFallsInTheWideAsciiSteps() {
        // ASCII is passed 32 and 8 bytes at a time: a stray byte at every offset of a long run,
        // and valid two-byte characters before it, must still be found exactly where it is.
        let ascii = Array(String(repeating: "<trkpt lat=\"1\"/>", count: 8).utf8)
        for position in 0..<ascii.count {
            var bytes = ascii
            bytes[position] = 0xFF
            #expect(bytes.withUnsafeBufferPointer { TextEncoding.firstInvalidUTF8($0) } == position, "at \(position)")
            let accented = Array("é".utf8) + bytes
            #expect(accented.withUnsafeBufferPointer { TextEncoding.firstInvalidUTF8($0) } == position + 2, "after é, at \(position)")
        }
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
