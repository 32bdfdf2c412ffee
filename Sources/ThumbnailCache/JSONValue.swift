import FoundationEssentials

/// A parsed JSON document, for reading the style file with key paths in every error. Read through
/// `JSONDecoder` (FoundationEssentials), which tells `true` from `1`; the executable no longer
/// links Foundation's `JSONSerialization` (and ICU with it) for this one file.
enum JSONValue: Decodable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONValue] = [:]
            for key in keyed.allKeys { members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let flag = try? single.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    /// Parses a document; the error's text names the position where the parser stopped.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError.map { "\($0)" } ?? ""
            throw JSONParseError(message: underlying.isEmpty ? context.debugDescription : "\(context.debugDescription) \(underlying)")
        } catch {
            throw JSONParseError(message: "\(error)")
        }
    }

    /// The members of an object.
    var object: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
    /// The items of a list.
    var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    /// The text of a string.
    var string: String? { if case .string(let text) = self { text } else { nil } }
    /// The value of a number.
    var number: Double? { if case .number(let value) = self { value } else { nil } }

    /// How an error message shows the value: strings quoted, whole numbers without ".0".
    var description: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        case .bool(let flag): return flag ? "true" : "false"
        case .array: return "a list"
        case .object: return "an object"
        case .null: return "null"
        }
    }
}

/// Why a document is not valid JSON.
struct JSONParseError: Error {
    /// The parser's own words, with the position.
    var message: String
}
