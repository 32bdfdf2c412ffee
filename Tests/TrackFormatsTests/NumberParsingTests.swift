import Foundation
import Testing
@testable import TrackFormats

@Suite struct NumberParsingTests {
    private func parse(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { NumberParsing.parseDouble($0, 0, $0.count) }
    }

    @Test(arguments: [
        "0", "-0", "47.3769", "8.5417", "-179.9999999", "0.1", "123456789012345", "1e-7", "4.725E1",
        "+8.5", " 12.5 ", "1234567890.1234567890123", "0.000000000000000000000000001", "1.7976931348623157e308",
        "2.2250738585072014e-308", "9007199254740993", "5e-324", ".5", "5.",
    ])
    func agreesWithTheStandardLibrary(text: String) {
        let expected = Double(text.trimmingCharacters(in: .whitespaces))
        #expect(parse(text) == expected, "\(text)")
    }

    @Test(arguments: ["", "abc", "1.2.3", "1e", "--1", "0x1p3", "1,5", "12a"])
    func rejectsNonNumbers(text: String) {
        #expect(parse(text) == nil, "\(text)")
    }

    @Test func readsNaNAndInfinityForTheCleanerToDrop() {
        #expect(parse("NaN")?.isNaN == true)
        #expect(parse("-inf") == -.infinity)
    }

    @Test func randomDecimalsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double.random(in: -180...180, using: &generator)
            let text = String(format: "%.\(Int.random(in: 0...9, using: &generator))f", value)
            #expect(parse(text) == Double(text), "\(text)")
        }
    }

    @Test(arguments: [
        "0\"", "-0<", "47.3769\"", "-179.9999999'", "53.4<", "5.<", ".5<", "123456789012345<", "0.0000000000000000000001<", "1 <",
        "12a",
    ])
    func plainDecimalsReadAsParseDoubleDoes(text: String) throws {
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer in
            let (numerator, divisor, end) = try #require(NumberParsing.parsePlainDecimal(buffer.baseAddress!, 0, buffer.count), "\(text)")
            let value = numerator / divisor
            #expect(!"-.0123456789".utf8.contains(bytes[end]), "\(text)")
            #expect(value.bitPattern == NumberParsing.parseDouble(buffer, 0, end)?.bitPattern, "\(text)")
        }
    }

    @Test(arguments: ["1e5<", "1E5<", "1234567890123456<", "0.00000000000000000000001<", "-<", "+1<", "<", ".<", "-.<", "12"])
    func plainDecimalsLeaveTheRestToTheGeneralReader(text: String) {
        let read = Array(text.utf8).withUnsafeBufferPointer { NumberParsing.parsePlainDecimal($0.baseAddress!, 0, $0.count) }
        #expect(read == nil, "\(text)")
    }

    @Test func randomPlainDecimalsReadAsParseDoubleDoes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double.random(in: -180...180, using: &generator)
            let bytes = Array(String(format: "%.\(Int.random(in: 0...9, using: &generator))f\"", value).utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let read = NumberParsing.parsePlainDecimal(buffer.baseAddress!, 0, buffer.count)
                #expect(read?.end == bytes.count - 1)
                #expect(read.map { ($0.numerator / $0.divisor).bitPattern } == NumberParsing.parseDouble(buffer, 0, bytes.count - 1)?.bitPattern)
            }
        }
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0), ("2024-05-01T07:30:00Z", 1_714_548_600), ("2024-05-01 07:30:00.25", 1_714_548_600.25),
        ("2024-05-01T09:30:00+02:00", 1_714_548_600), ("2024-05-01T02:30:00-0500", 1_714_548_600), ("2000-02-29", 951_782_400),
        ("2024-05-01T07:30", 1_714_548_600),
    ])
    func parsesISO8601(text: String, seconds: Double) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { NumberParsing.parseISO8601($0, 0, $0.count) }
        #expect(parsed == seconds, "\(text)")
    }

    @Test(arguments: ["yesterday", "2024-13-01T00:00:00Z", "2024-05-01T07:30:00Q", "2024-05-01T25:00:00Z", ""])
    func rejectsBadTimes(text: String) {
        let parsed = Array(text.utf8).withUnsafeBufferPointer { NumberParsing.parseISO8601($0, 0, $0.count) }
        #expect(parsed == nil, "\(text)")
    }

    /// Times read one after another through one cache (the minute and the date kept) give what a
    /// fresh cache gives each: the same seconds, or nil, whatever came before.
    @Test func canonicalTimesReadTheSameThroughTheCache() {
        // First, NUL bytes where a fresh cache's empty minute key is also zero bytes.
        let texts = [
            "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0:00Z", "2024-05-01T07:30:00Z", "2024-05-01T07:30:01Z", "2024-05-01T07:30:59Z", "2024-05-01T07:30:60Z",
            "2024-05-01T07:30:61Z",
            "2024-05-01T07:30:70Z", "2024-05-01T07:30:0aZ", "2024-05-01T07:30:/0Z", "2024-05-01T07:30-05Z", "2024-05-01T07:30:05Q",
            "2024-05-01T07:30:05Z", "2024-05-01T07:31:05Z", "2024-05-01T08:30:05Z", "2024-05-02T07:30:05Z", "2024-05-01T07:30:09Z",
            "2024-05-01T07:60:00Z", "2024-05-01T07:60:01Z", "2024-13-01T07:30:00Z", "2024-13-01T07:30:01Z",
            "2024-05-01T07:30:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:01Z",
        ]
        var cache = NumberParsing.DayCache()
        for text in texts {
            let bytes = Array(text.utf8)
            #expect(bytes.count == 20, "\(text)")
            let cached = bytes.withUnsafeBufferPointer { NumberParsing.parseCanonicalUTC($0, 0, $0.count, &cache) }
            let fresh = bytes.withUnsafeBufferPointer { NumberParsing.parseCanonicalUTC($0, 0, $0.count) }
            #expect(cached == fresh, "\(text)")
        }
        #expect(Array("2024-05-01T07:30:59Z".utf8).withUnsafeBufferPointer { NumberParsing.parseCanonicalUTC($0, 0, 20, &cache) } == 1_714_548_659)
    }
}
