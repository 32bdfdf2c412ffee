extension Expression {
    /// Whether the value depends on the zoom and whether it depends on the feature.
    var dependencies: (zoom: Bool, feature: Bool) {
        switch self {
        case .constant: return (false, false)
        case .zoom: return (true, false)
        case .property, .hasProperty, .featureID, .geometryType: return (false, true)
        default:
            var zoom = false, feature = false
            for child in children {
                let (childZoom, childFeature) = child.dependencies
                zoom = zoom || childZoom
                feature = feature || childFeature
            }
            return (zoom, feature)
        }
    }

    /// The value when it is a constant.
    var constantValue: ExpressionValue? { if case .constant(let value) = self { value } else { nil } }

    /// The expression with its constant parts evaluated: a node whose children are all constants
    /// becomes a constant, and a `match`, `case`, `step` or `interpolate` whose input is constant
    /// becomes the branch it picks. Called bottom-up as the compiler builds each node.
    func folded() -> Expression {
        let (zoom, feature) = dependencies
        if !zoom && !feature {
            if case .constant = self { return self }
            return .constant(evaluate(NoFeature(), zoom: 0))  // no feature read: `dependencies` says so
        }
        switch self {
        case .all(let operands):
            // A constant operand decides (false) or drops out (true): zoom tests in a filter vanish per image.
            if operands.contains(where: { $0.constantValue.map { $0 != .bool(true) } ?? false }) { return .constant(.bool(false)) }
            let rest = operands.filter { $0.constantValue == nil }
            return rest.isEmpty ? .constant(.bool(true)) : .all(rest)
        case .any(let operands):
            if operands.contains(where: { $0.constantValue == .bool(true) }) { return .constant(.bool(true)) }
            let rest = operands.filter { $0.constantValue == nil }
            return rest.isEmpty ? .constant(.bool(false)) : .any(rest)
        case .match(let input, let branches, let outputs, let fallback):
            guard let value = input.constantValue else { return self }
            return branches[value].map { outputs[$0] } ?? fallback
        case .conditions(let tests, let outputs, let fallback):
            guard let first = tests.first, let value = first.constantValue else { return self }
            if value == .bool(true) { return outputs[0] }
            return tests.count == 1
                ? fallback : Expression.conditions(Array(tests.dropFirst()), outputs: Array(outputs.dropFirst()), fallback: fallback).folded()
        case .step(let input, let first, let stops, let outputs):
            guard let value = input.constantValue else { return self }
            guard let x = value.number else { return .constant(.null) }
            return stops.lastIndex { $0 <= x }.map { outputs[$0] } ?? first
        case .interpolate(let curve, let input, let stops, let outputs):
            guard let value = input.constantValue else { return self }
            guard let x = value.number else { return .constant(.null) }
            let (lower, fraction) = Expression.segment(of: x, in: stops, curve: curve)
            return fraction > 0 ? Expression.blend(fraction: fraction, lower: outputs[lower], upper: outputs[lower + 1]).folded() : outputs[lower]
        default:
            return self
        }
    }

    /// The expression for one style zoom: every `["zoom"]` replaced by `zoom` and folded, so an
    /// image evaluates its zoom functions once and each feature only what depends on the feature.
    func specialized(zoom: Double) -> Expression {
        guard dependencies.zoom else { return self }
        if case .zoom = self { return .constant(.number(zoom)) }
        return mappingChildren { $0.specialized(zoom: zoom) }.folded()
    }

    /// The direct sub-expressions.
    var children: [Expression] {
        switch self {
        case .constant, .zoom, .property, .hasProperty, .featureID, .geometryType: return []
        case .not(let operand), .typeOf(let operand), .toString(let operand), .member(let operand, _): return [operand]
        case .all(let operands), .any(let operands), .coalesce(let operands), .toNumber(let operands): return operands
        case .compare(_, let left, let right): return [left, right]
        case .contains(let needle, let haystack): return [needle, haystack]
        case .match(let input, _, let outputs, let fallback): return [input] + outputs + [fallback]
        case .conditions(let tests, let outputs, let fallback): return tests + outputs + [fallback]
        case .interpolate(_, let input, _, let outputs): return [input] + outputs
        case .step(let input, let first, _, let outputs): return [input, first] + outputs
        case .blend(_, let lower, let upper): return [lower, upper]
        }
    }

    /// The same node with each direct sub-expression replaced by `transform` of it.
    func mappingChildren(_ transform: (Expression) -> Expression) -> Expression {
        switch self {
        case .constant, .zoom, .property, .hasProperty, .featureID, .geometryType: return self
        case .not(let operand): return .not(transform(operand))
        case .typeOf(let operand): return .typeOf(transform(operand))
        case .toString(let operand): return .toString(transform(operand))
        case .member(let operand, let set): return .member(transform(operand), set)
        case .all(let operands): return .all(operands.map(transform))
        case .any(let operands): return .any(operands.map(transform))
        case .coalesce(let operands): return .coalesce(operands.map(transform))
        case .toNumber(let operands): return .toNumber(operands.map(transform))
        case .compare(let comparison, let left, let right): return .compare(comparison, transform(left), transform(right))
        case .contains(let needle, let haystack): return .contains(needle: transform(needle), haystack: transform(haystack))
        case .match(let input, let branches, let outputs, let fallback):
            return .match(transform(input), branches: branches, outputs: outputs.map(transform), fallback: transform(fallback))
        case .conditions(let tests, let outputs, let fallback):
            return .conditions(tests.map(transform), outputs: outputs.map(transform), fallback: transform(fallback))
        case .interpolate(let curve, let input, let stops, let outputs):
            return .interpolate(curve, input: transform(input), stops: stops, outputs: outputs.map(transform))
        case .step(let input, let first, let stops, let outputs):
            return .step(input: transform(input), first: transform(first), stops: stops, outputs: outputs.map(transform))
        case .blend(let fraction, let lower, let upper): return .blend(fraction: fraction, lower: transform(lower), upper: transform(upper))
        }
    }
}
