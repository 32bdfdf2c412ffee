import JSONDocument
import Testing

/// `JSONValue.quoted`: text with nothing to escape takes the one-pass path, the rest the
/// scalar-by-scalar one; both must give a literal that parses back to the text.
struct JSONValueQuotingTests {
    @Test(arguments: [
        "", "Morning run 12", "Zürich – Üetliberg", "日本語のトラック", "a/b", "emoji 🏃‍♀️",
        "quote \" inside", "back\\slash", "tab\tnew\nline\rreturn", "bell \u{07} and nul \u{00}",
        "line separator \u{2028} paragraph \u{2029}", "\u{2027}\u{202A} next to them", "€ starts with E2 too",
    ])
    func quotedTextParsesBackToItself(text: String) throws {
        let literal = JSONValue.quoted(text)
        #expect(try JSONValue.parse(Array(literal.utf8)) == .string(text))
        #expect(literal.hasPrefix("\"") && literal.hasSuffix("\""))
    }

    @Test func whatMustBeEscapedIsEscapedAndNothingElse() {
        #expect(JSONValue.quoted("plain / text é") == "\"plain / text é\"")
        #expect(JSONValue.quoted("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(JSONValue.quoted("\u{01}\n") == "\"\\u0001\\n\"")
        #expect(JSONValue.quoted("x\u{2028}y\u{2029}") == "\"x\\u2028y\\u2029\"")
        #expect(JSONValue.quoted("€") == "\"€\"")
    }
}
