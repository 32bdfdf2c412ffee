import Foundation
import JSONDocument
import Testing

/// `JSONValue.parse`'s quick paths (numbers without `strtod`, strings without escapes made in
/// place) give what the general ones give.
struct JSONValueParsingTests {
    /// Numbers of every shape (up to 17 significant digits, long fractions, exponents, signs,
    /// zeros) read as `strtod` reads them, bit for bit.
    @Test func numbersReadAsStrtodReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "0.0", "1", "-1", "123456789012345", "1234567890123456", "0.1", "0.000000000000000000000001", "1e22", "1E-5", "-2.5e+3",
        ]
        for _ in 0..<5_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let value = Double.random(in: -1e6...1e6, using: &generator)
            texts.append(String(format: "%.\(digits)g", value))
            texts.append(String(format: "%.\(Int.random(in: 0...24, using: &generator))f", value / 1e6))
        }
        for text in texts {
            let parsed = try JSONValue.parse(Array("[\(text)]".utf8))
            guard case .array(let items) = parsed, case .number(let number)? = items.first else {
                Issue.record("\(text) did not parse as a number")
                continue
            }
            #expect(number.bitPattern == strtod(text, nil).bitPattern, "\(text)")
        }
    }

    @Test func stringsWithAndWithoutEscapesOrNonASCII() throws {
        let document = #"{"plain":"run 12","accents":"Zürich","escaped":"a\"b\\c\u00e9\n","pair":"\ud83c\udfc3"}"#
        let members = try #require(try JSONValue.parse(Array(document.utf8)).object)
        #expect(members["plain"] == .string("run 12"))
        #expect(members["accents"] == .string("Zürich"))
        #expect(members["escaped"] == .string("a\"b\\cé\n"))
        #expect(members["pair"] == .string("🏃"))
    }

    @Test func invalidUTF8InAStringIsRefusedWhereTheStringEnds() {
        let bytes: [UInt8] = Array(#"{"name":"ab"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
        #expect(error?.message.hasPrefix("line 1, column 14: expected UTF-8 text in the string") == true)
    }

    @Test func aRepeatedKeyIsReportedWhereItsValueStarts() {
        let error = #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(#"{"a": 1, "a":2}"#.utf8)) }
        #expect(error?.message == #"line 1, column 14: the key "a" appears twice, found "2""#)
    }
}
