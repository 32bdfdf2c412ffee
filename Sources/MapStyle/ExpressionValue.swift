/// A value while a style expression is evaluated (the spec's types: null, boolean, number, string,
/// color, array).
enum ExpressionValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(StyleColor)
    case array([ExpressionValue])

    /// A feature's property as an expression value.
    init(_ value: FeatureValue?) {
        switch value {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .bool(let flag): self = .bool(flag)
        case nil: self = .null
        }
    }

    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var string: String? { if case .string(let value) = self { value } else { nil } }

    /// The name the `typeof` operator gives the value's type.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .color: "color"
        case .array(let items):
            if let first = items.first, items.allSatisfy({ $0.typeName == first.typeName }) {
                "array<\(first.typeName), \(items.count)>"
            } else {
                "array"
            }
        }
    }

    /// The value as the `to-string` operator writes it (numbers as JavaScript does for whole numbers).
    var text: String {
        switch self {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let value): ExpressionValue.format(value)
        case .string(let text): text
        case .color(let color): color.description
        case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
        }
    }

    /// A number without ".0" when it is whole ("3", not "3.0").
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
