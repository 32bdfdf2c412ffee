import Decompression
import Testing
import TrackModel
import TrackSynthesis
@testable import TrackFormats

/// The per-job memory ceiling (issue 13 item 1): a track is refused by what the readers would
/// hold (input, expanded text, fixes), not only by its file size.
@Suite struct MemoryCeilingTests {
    /// A GPX of `count` identical points (about 30 bytes each; gzip takes it to ~1/500).
    private func identicalPoints(_ count: Int, name: String = "t") -> [UInt8] {
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><name>\(name)</name><trkseg>\n"
        text += String(repeating: "<trkpt lat=\"47.1\" lon=\"8.1\"/>\n", count: count)
        text += "</trkseg></trk></gpx>\n"
        return Array(text.utf8)
    }

    private func limits(mebibytes: Int) -> DecodingLimits {
        var limits = DecodingLimits()
        limits.maximumMemoryBytes = mebibytes << 20
        limits.decompression.maximumRatio = 100_000  // the ratio is another test's subject
        return limits
    }

    private func expectLimit(_ bytes: [UInt8], _ limits: DecodingLimits, mentioning words: [String]) {
        do {
            _ = try TrackDecoder.decode(bytes, fileName: "many.gpx.gz", limits: limits)
            Issue.record("expected the memory limit to refuse the track")
        } catch {
            #expect(error.kind == .limitExceeded, "\(error)")
            for word in words { #expect(error.description.contains(word), "\(error)") }
        }
    }

    @Test func manyIdenticalFixesInASmallGzipPassTheCeilingByTheirCount() {
        // 300,000 fixes: 9 MB of text, 30 MB of fixes at 100 bytes each; 48 MiB leaves 16 MiB
        // beside the 32 MiB renderer reserve. Without the ceiling this decoded.
        let gzip = Compression.deflate(identicalPoints(300_000), gzip: true, level: 9)
        #expect(gzip.count < 100_000)
        expectLimit(gzip, limits(mebibytes: 48), mentioning: ["fixes", "48 MiB per-job memory limit"])
    }

    @Test func textThatExpandsPastTheRoomLeftIsStoppedWhileInflating() {
        // 40 MB of text cannot fit beside the reserve of a 64 MiB ceiling: the inflater stops.
        let gzip = Compression.deflate(identicalPoints(1_400_000), gzip: true, level: 9)
        expectLimit(gzip, limits(mebibytes: 64), mentioning: ["expands past", "64 MiB per-job memory limit"])
    }

    @Test func theInputAloneCanPassTheCeiling() {
        let plain = identicalPoints(1_200_000)  // 36 MB > 64 MiB - 32 MiB reserve
        expectLimit(plain, limits(mebibytes: 64), mentioning: ["input alone", "64 MiB per-job memory limit"])
    }

    @Test func aMillionFixesOfAnEightyMegabyteGPXFitTheDefaultCeiling() {
        // The documented promise: the 1,000,000-fix GPX renders at the defaults.
        let counter = FixCounter(DecodingLimits(), inputBytes: 80_000_000)
        #expect(counter.maximum >= 1_000_000 && counter.maximum < DecodingLimits().maximumFixes, "\(counter.maximum)")
    }

    @Test func fixesUnderTheCeilingDecodeAsBefore() throws {
        let gzip = Compression.deflate(identicalPoints(50_000), gzip: true, level: 9)
        let track = try TrackDecoder.decode(gzip, fileName: "ok.gpx.gz", limits: limits(mebibytes: 48))
        #expect(track.fixCount == 50_000)
    }

    @Test func aHugeNameIsNotDecodedPastFourKiB() throws {
        // An undefined entity 8 KiB into a 1 MiB name: never looked at, so no error; the name
        // is cut as before. (Before, the whole name was decoded: 200 MB of <name> cost 600 MB.)
        let name = String(repeating: "A", count: 8192) + "&bogus;" + String(repeating: "B", count: 1 << 20)
        let track = try TrackDecoder.decode(identicalPoints(3, name: name), fileName: "n.gpx")
        #expect(track.name?.hasPrefix("AAAA") == true && track.name!.count <= TrackDecoder.maximumNameCharacters)
    }

    @Test func aNameCutAtAnEntityKeepsTheEntityWhole() throws {
        var collectorBytes = Array(String(repeating: "x", count: DecodingLimits.maximumTextBytes - 3).utf8)
        collectorBytes += Array("&amp;tail".utf8)
        let document =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><name>" + String(decoding: collectorBytes, as: UTF8.self)
            + "</name><trkseg><trkpt lat=\"1\" lon=\"2\"/><trkpt lat=\"1.1\" lon=\"2\"/></trkseg></trk></gpx>"
        // The cut falls inside "&amp;": it moves to the '&', so nothing fails to decode.
        let track = try TrackDecoder.decode(Array(document.utf8), fileName: "e.gpx")
        #expect(track.name?.hasPrefix("xxx") == true)
    }

    @Test func aGeoJSONNameCutInsideAnEscapeDecodes() throws {
        let cut = DecodingLimits.maximumTextBytes
        let longName = String(repeating: "a", count: cut - 2) + "\\u00e9" + String(repeating: "b", count: 100)
        let document =
            "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(longName)\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[8,47],[8.1,47.1]]}}"
        let track = try TrackDecoder.decode(Array(document.utf8), fileName: "n.geojson")
        #expect(track.name?.hasPrefix("aaa") == true && track.name?.contains("\\") == false)
    }
}
