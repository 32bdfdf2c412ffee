import JSONDocument

extension ExpressionCompiler {
    /// One operator application being compiled: its name, arguments and place in the document.
    struct Call {
        let compiler: ExpressionCompiler
        let name: String
        let arguments: [JSONValue]
        let path: String
        let depth: Int

        func error(_ problem: String) -> MapStyleError { compiler.error(path, problem) }

        /// Argument `index` (0-based after the operator) compiled as `kind`.
        func argument(_ index: Int, _ kind: ValueKind = .any) throws(MapStyleError) -> Expression {
            try compiler.expression(arguments[index], kind: kind, path: "\(path)[\(index + 1)]", depth: depth + 1)
        }

        func requireCount(_ range: ClosedRange<Int>) throws(MapStyleError) {
            guard range.contains(arguments.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw error("\"\(name)\" takes \(expected) arguments, found \(arguments.count)")
            }
        }

        /// A string argument written as a constant (a property name).
        func key(_ index: Int) throws(MapStyleError) -> String {
            guard let key = arguments[index].string else {
                throw compiler.error("\(path)[\(index + 1)]", "expected a property name in quotes, found \(arguments[index].description)")
            }
            return key
        }

        func compile(kind: ValueKind) throws(MapStyleError) -> Expression {
            switch name {
            case "literal":
                try requireCount(1...1)
                return .constant(try compiler.literal(arguments[0], kind: kind, path: "\(path)[1]"))
            case "zoom", "id", "geometry-type":
                try requireCount(0...0)
                return name == "zoom" ? .zoom : name == "id" ? .featureID : .geometryType
            case "get", "has":
                guard arguments.count == 1 else { throw error("\"\(name)\" takes 1 argument (a property name; an object argument is not supported)") }
                return name == "get" ? .property(try key(0)) : .hasProperty(try key(0))
            case "!":
                try requireCount(1...1)
                return .not(try argument(0, .bool))
            case "all", "any":
                var operands: [Expression] = []
                for index in arguments.indices { operands.append(try argument(index, .bool)) }
                return name == "all" ? .all(operands) : .any(operands)
            case "==", "!=", "<", "<=", ">", ">=":
                guard arguments.count == 2 else {
                    throw error("\"\(name)\" takes 2 arguments (a collator is not supported), found \(arguments.count)")
                }
                return .compare(Call.comparisons[name]!, try argument(0), try argument(1))
            case "in":
                try requireCount(2...2)
                let needle = try argument(0), haystack = try argument(1)
                if case .constant(.array(let items)) = haystack { return .member(needle, Set(items)) }
                return .contains(needle: needle, haystack: haystack)
            case "match": return try match(kind: kind)
            case "case":
                guard arguments.count >= 3, arguments.count % 2 == 1 else { throw error("\"case\" takes condition, output pairs and a fallback") }
                var tests: [Expression] = [], outputs: [Expression] = []
                for index in stride(from: 0, to: arguments.count - 1, by: 2) {
                    tests.append(try argument(index, .bool))
                    outputs.append(try argument(index + 1, kind))
                }
                return .conditions(tests, outputs: outputs, fallback: try argument(arguments.count - 1, kind))
            case "coalesce", "to-number":
                guard !arguments.isEmpty else { throw error("\"\(name)\" takes at least 1 argument") }
                var operands: [Expression] = []
                for index in arguments.indices { operands.append(try argument(index, name == "coalesce" ? kind : .any)) }
                return name == "coalesce" ? .coalesce(operands) : .toNumber(operands)
            case "typeof", "to-string":
                try requireCount(1...1)
                return name == "typeof" ? .typeOf(try argument(0)) : .toString(try argument(0))
            case "interpolate": return try interpolate(kind: kind)
            case "step": return try step(kind: kind)
            default:
                throw error("unknown expression operator \"\(name)\"")
            }
        }

        static let comparisons: [String: Expression.Comparison] = [
            "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
        ]

        /// `["match", input, label, output, …, fallback]`; a label is a string or number, or a list of them.
        private func match(kind: ValueKind) throws(MapStyleError) -> Expression {
            guard arguments.count >= 4, arguments.count % 2 == 0 else {
                throw error("\"match\" takes an input, label, output pairs and a fallback, found \(arguments.count) arguments")
            }
            var branches: [ExpressionValue: Int] = [:], outputs: [Expression] = []
            for index in stride(from: 1, to: arguments.count - 1, by: 2) {
                let labelPath = "\(path)[\(index + 1)]"
                let labels = arguments[index].array ?? [arguments[index]]
                guard !labels.isEmpty else { throw compiler.error(labelPath, "expected at least one label") }
                for label in labels {
                    let value: ExpressionValue
                    switch label {
                    case .string(let text): value = .string(text)
                    case .number(let number): value = .number(number)
                    default: throw compiler.error(labelPath, "expected a string or number label, found \(label.description)")
                    }
                    guard branches[value] == nil else { throw compiler.error(labelPath, "the label \(label.description) appears twice") }
                    branches[value] = outputs.count
                }
                outputs.append(try argument(index + 1, kind))
            }
            return .match(try argument(0), branches: branches, outputs: outputs, fallback: try argument(arguments.count - 1, kind))
        }

        /// Stop inputs: constant numbers, strictly ascending.
        private func stops(from start: Int) throws(MapStyleError) -> [Double] {
            var stops: [Double] = []
            for index in stride(from: start, to: arguments.count, by: 2) {
                guard let stop = arguments[index].number, stop > (stops.last ?? -.infinity) else {
                    throw compiler.error("\(path)[\(index + 1)]", "expected a number above the previous stop, found \(arguments[index].description)")
                }
                stops.append(stop)
            }
            return stops
        }

        /// `["interpolate", ["linear"] | ["exponential", base], input, stop, output, …]`.
        private func interpolate(kind: ValueKind) throws(MapStyleError) -> Expression {
            guard arguments.count >= 4, arguments.count % 2 == 0 else {
                throw error("\"interpolate\" takes a curve, an input and stop, output pairs, found \(arguments.count) arguments")
            }
            let curvePath = "\(path)[1]"
            guard let curveItems = arguments[0].array, let curveName = curveItems.first?.string else {
                throw compiler.error(curvePath, "expected [\"linear\"] or [\"exponential\", base], found \(arguments[0].description)")
            }
            let curve: Expression.Curve
            switch (curveName, curveItems.count) {
            case ("linear", _): curve = .linear  // ["linear", 1] is seen in OpenFreeMap's styles; MapLibre ignores the extra item
            case ("exponential", 2):
                guard let base = curveItems[1].number, base > 0 else { throw compiler.error(curvePath, "expected a base above 0") }
                curve = .exponential(base: base)
            default:
                throw compiler.error(curvePath, "unsupported interpolation \"\(curveName)\" (linear and exponential are)")
            }
            let stops = try stops(from: 2)
            var outputs: [Expression] = []
            for index in stride(from: 3, to: arguments.count, by: 2) { outputs.append(try argument(index, kind)) }
            return .interpolate(curve, input: try argument(1, .number), stops: stops, outputs: outputs)
        }

        /// `["step", input, output₀, stop, output, …]`.
        private func step(kind: ValueKind) throws(MapStyleError) -> Expression {
            guard arguments.count >= 2, arguments.count % 2 == 0 else {
                throw error("\"step\" takes an input, a first output and stop, output pairs, found \(arguments.count) arguments")
            }
            let stops = try stops(from: 2)
            var outputs: [Expression] = []
            for index in stride(from: 3, to: arguments.count, by: 2) { outputs.append(try argument(index, kind)) }
            return .step(input: try argument(0, .number), first: try argument(1, kind), stops: stops, outputs: outputs)
        }
    }
}
