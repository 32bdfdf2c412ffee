import JSONDocument

/// What a compiled value must be: decides how constants are read (a string in a colour property is
/// a colour) and whether a `{stops}` function interpolates by default.
enum ValueKind: Sendable {
    case any, bool, number, color, numberArray
    case enumeration(Set<String>)

    /// Numbers and colours move smoothly between stops; the rest step.
    var isInterpolatable: Bool {
        switch self {
        case .number, .color: true
        default: false
        }
    }
}

/// Reads one layer's expressions, filters and `{stops}` functions (JSON) into `Expression` trees,
/// with the layer and key path in every error.
struct ExpressionCompiler {
    /// `layers[12] "road_major"`: the start of every error's location.
    let layerLocation: String
    /// Deeper expressions are refused, so evaluating one never recurses without bound.
    static let maximumDepth = 32

    /// An error at `path` (a key path inside the layer, like `paint.line-width[2]`).
    func error(_ path: String, _ problem: String) -> MapStyleError {
        MapStyleError(location: "\(layerLocation) \(path)", problem: problem)
    }

    /// A property value in any of its forms: a constant, an expression, or a `{stops}` function.
    func value(_ json: JSONValue, kind: ValueKind, path: String) throws(MapStyleError) -> Expression {
        switch json {
        case .object(let members): return try function(members, kind: kind, path: path)
        case .array(let items) where items.first?.string != nil: return try expression(json, kind: kind, path: path, depth: 0)
        default: return .constant(try constant(json, kind: kind, path: path))
        }
    }

    /// A constant read as `kind`.
    func constant(_ json: JSONValue, kind: ValueKind, path: String) throws(MapStyleError) -> ExpressionValue {
        switch (kind, json) {
        case (.color, .string(let text)):
            guard let color = StyleColor(css: text) else { throw error(path, "expected a colour, found \(json.description)") }
            return .color(color)
        case (.color, _): throw error(path, "expected a colour, found \(json.description)")
        case (.number, .number(let number)): return .number(number)
        case (.number, _): throw error(path, "expected a number, found \(json.description)")
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.bool, _): throw error(path, "expected true or false, found \(json.description)")
        case (.enumeration(let names), .string(let name)) where names.contains(name): return .string(name)
        case (.enumeration(let names), _): throw error(path, "expected one of \(names.sorted().joined(separator: ", ")), found \(json.description)")
        case (.numberArray, .array(let items)):
            var numbers: [ExpressionValue] = []
            for (index, item) in items.enumerated() {
                guard case .number(let number) = item, number >= 0 else {
                    throw error("\(path)[\(index)]", "expected a number ≥ 0, found \(item.description)")
                }
                numbers.append(.number(number))
            }
            return .array(numbers)
        case (.numberArray, _): throw error(path, "expected a list of numbers, found \(json.description)")
        case (.any, .string(let text)): return .string(text)
        case (.any, .number(let number)): return .number(number)
        case (.any, .bool(let flag)): return .bool(flag)
        case (.any, .null): return .null
        case (.any, _): throw error(path, "expected a value, found \(json.description) (wrap a list in [\"literal\", …])")
        }
    }

    /// An expression (`["operator", arguments…]`) or a constant in an expression's place.
    func expression(_ json: JSONValue, kind: ValueKind, path: String, depth: Int) throws(MapStyleError) -> Expression {
        guard depth < ExpressionCompiler.maximumDepth else {
            throw error(path, "expressions nested deeper than \(ExpressionCompiler.maximumDepth) levels")
        }
        guard case .array(let items) = json else { return .constant(try constant(json, kind: kind, path: path)) }
        guard let name = items.first?.string else {
            throw error(path, "expected an expression operator as the first item, found \(items.first?.description ?? "an empty list")")
        }
        let arguments = Array(items.dropFirst())
        let call = Call(compiler: self, name: name, arguments: arguments, path: path, depth: depth)
        return try call.compile(kind: kind).folded()
    }

    /// A `literal`'s value: lists and their items as given, strings as colours in a colour context.
    func literal(_ json: JSONValue, kind: ValueKind, path: String) throws(MapStyleError) -> ExpressionValue {
        switch json {
        case .array(let items):
            var values: [ExpressionValue] = []
            for (index, item) in items.enumerated() { values.append(try literal(item, kind: .any, path: "\(path)[\(index)]")) }
            return .array(values)
        case .object: throw error(path, "object literals are not supported")
        default: return try constant(json, kind: kind, path: path)
        }
    }
}
