import JSONDocument

extension ExpressionCompiler {
    /// A layer's `filter`, in either form: told apart per filter as MapLibre does
    /// (`isExpressionFilter` in its style spec), and per operand of a legacy `all`/`any`/`none`,
    /// since Protomaps mixes the two forms inside one `all`.
    func filter(_ json: JSONValue, path: String) throws(MapStyleError) -> Expression {
        if ExpressionCompiler.isExpressionFilter(json) { return try expression(json, kind: .bool, path: path, depth: 0) }
        return try legacyFilter(json, path: path, depth: 0)
    }

    /// Whether a filter is in the expression form. Legacy filters name the property as a bare
    /// string (`["==", "class", "motorway"]`); expressions compute it (`["get", "class"]`).
    static func isExpressionFilter(_ json: JSONValue) -> Bool {
        guard case .array(let items) = json, let name = items.first?.string else { return json == .bool(true) || json == .bool(false) }
        switch name {
        case "has": return items.count >= 2 && items[1] != .string("$id") && items[1] != .string("$type")
        case "in": return items.count >= 3 && (items[1].string == nil || items[2].array != nil)
        case "!in", "!has", "none": return false
        case "==", "!=", ">", ">=", "<", "<=": return items.count != 3 || items[1].array != nil || items[2].array != nil
        case "any", "all":
            return items.dropFirst().allSatisfy { isExpressionFilter($0) }
        default: return true
        }
    }

    /// A filter in the legacy form: `["==", key, value]`, `["in", key, values…]`, `["has", key]`,
    /// their negations, and `all`/`any`/`none` of filters; `$type` and `$id` as keys.
    private func legacyFilter(_ json: JSONValue, path: String, depth: Int) throws(MapStyleError) -> Expression {
        guard depth < ExpressionCompiler.maximumDepth else {
            throw error(path, "filters nested deeper than \(ExpressionCompiler.maximumDepth) levels")
        }
        guard case .array(let items) = json, let name = items.first?.string else {
            throw error(path, "expected a filter [\"operator\", …], found \(json.description)")
        }
        let count = items.count - 1
        func operand(_ index: Int) throws(MapStyleError) -> Expression {
            let child = items[index]
            if ExpressionCompiler.isExpressionFilter(child) { return try expression(child, kind: .bool, path: "\(path)[\(index)]", depth: depth + 1) }
            return try legacyFilter(child, path: "\(path)[\(index)]", depth: depth + 1)
        }
        func value(_ index: Int) throws(MapStyleError) -> ExpressionValue {
            try constant(items[index], kind: .any, path: "\(path)[\(index)]")
        }
        func subject() throws(MapStyleError) -> Expression {
            guard count >= 1, let key = items[1].string else { throw error("\(path)[1]", "expected a property name in quotes") }
            return key == "$type" ? .geometryType : key == "$id" ? .featureID : .property(key)
        }
        switch name {
        case "all", "any", "none":
            var operands: [Expression] = []
            for index in items.indices.dropFirst() { operands.append(try operand(index)) }
            switch name {
            case "all": return Expression.all(operands).folded()
            case "any": return Expression.any(operands).folded()
            default: return Expression.not(Expression.any(operands).folded()).folded()
            }
        case "==", "!=", "<", "<=", ">", ">=":
            guard count == 2 else { throw error(path, "legacy \"\(name)\" takes a property name and a value, found \(count) arguments") }
            return .compare(Call.comparisons[name]!, try subject(), .constant(try value(2)))
        case "in", "!in":
            guard count >= 1 else { throw error(path, "legacy \"\(name)\" takes a property name and values") }
            var values: Set<ExpressionValue> = []
            for index in items.indices.dropFirst(2) { values.insert(try value(index)) }
            let member = Expression.member(try subject(), values)
            return name == "in" ? member : .not(member)
        case "has", "!has":
            guard count == 1 else { throw error(path, "legacy \"\(name)\" takes a property name") }
            let test: Expression
            switch try subject() {
            case .geometryType: test = .constant(.bool(true))
            case .featureID: test = .compare(.notEqual, .featureID, .constant(.null))
            default: test = .hasProperty(items[1].string ?? "")
            }
            return name == "has" ? test : Expression.not(test).folded()
        default:
            throw error(path, "unknown filter operator \"\(name)\"")
        }
    }

    /// A function in the old form, `{"stops": [[input, output], …], "base": b, "type": …,
    /// "property": …, "default": …}`: a zoom function without `property`, a property function with it.
    func function(_ members: [String: JSONValue], kind: ValueKind, path: String) throws(MapStyleError) -> Expression {
        for key in members.keys where !["stops", "base", "type", "property", "default", "colorSpace"].contains(key) {
            throw error("\(path).\(key)", "unknown function key (stops, base, type, property, default are read)")
        }
        let input: Expression
        if let property = members["property"] {
            guard let key = property.string else { throw error("\(path).property", "expected a property name in quotes") }
            input = .property(key)
        } else {
            input = .zoom
        }
        let type = members["type"]?.string ?? (kind.isInterpolatable ? "exponential" : "interval")
        if let colorSpace = members["colorSpace"], colorSpace != .string("rgb") {
            throw error("\(path).colorSpace", "only \"rgb\" is supported, found \(colorSpace.description)")
        }
        let fallback = try members["default"].map { json throws(MapStyleError) in try constant(json, kind: kind, path: "\(path).default") }
        let compiled: Expression
        if type == "identity" {
            compiled = input
        } else {
            compiled = try stopFunction(members, type: type, input: input, kind: kind, path: path)
        }
        return fallback.map { Expression.coalesce([compiled, .constant($0)]) } ?? compiled
    }

    private func stopFunction(
        _ members: [String: JSONValue], type: String, input: Expression, kind: ValueKind, path: String
    ) throws(MapStyleError) -> Expression {
        guard let stops = members["stops"]?.array, !stops.isEmpty else {
            throw error("\(path).stops", "expected a non-empty list of [input, output] stops")
        }
        var inputs: [ExpressionValue] = [], outputs: [Expression] = []
        for (index, stop) in stops.enumerated() {
            let stopPath = "\(path).stops[\(index)]"
            guard let pair = stop.array, pair.count == 2 else { throw error(stopPath, "expected [input, output], found \(stop.description)") }
            if case .object = pair[0] { throw error(stopPath, "zoom-and-property functions are not supported") }
            inputs.append(try constant(pair[0], kind: .any, path: "\(stopPath)[0]"))
            outputs.append(.constant(try constant(pair[1], kind: kind, path: "\(stopPath)[1]")))
        }
        if type == "categorical" {
            var branches: [ExpressionValue: Int] = [:]
            for (index, value) in inputs.enumerated() where branches[value] == nil { branches[value] = index }
            return Expression.match(input, branches: branches, outputs: outputs, fallback: .constant(.null)).folded()
        }
        var numbers: [Double] = []
        for (index, value) in inputs.enumerated() {
            guard let number = value.number, number > (numbers.last ?? -.infinity) else {
                throw error("\(path).stops[\(index)][0]", "expected a number above the previous stop, found \(value.text)")
            }
            numbers.append(number)
        }
        switch type {
        case "exponential":
            let base = members["base"]?.number ?? 1
            guard base > 0 else { throw error("\(path).base", "expected a base above 0") }
            return Expression.interpolate(base == 1 ? .linear : .exponential(base: base), input: input, stops: numbers, outputs: outputs).folded()
        case "interval":
            return Expression.step(input: input, first: outputs[0], stops: Array(numbers.dropFirst()), outputs: Array(outputs.dropFirst())).folded()
        default:
            throw error("\(path).type", "unknown function type \"\(type)\" (exponential, interval, categorical, identity)")
        }
    }
}
