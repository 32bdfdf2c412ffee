#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A compiled style expression: the JSON form read once into a tree, constants folded
/// (`Expression+Folding.swift`). Legacy filters and `{stops}` functions compile to the same tree.
indirect enum Expression: Sendable {
    case constant(ExpressionValue)
    /// `["zoom"]`: the style zoom (512-pixel tiles).
    case zoom
    /// `["get", key]`, and a legacy filter's key.
    case property(String)
    /// `["has", key]`.
    case hasProperty(String)
    /// `["id"]`, legacy `$id`.
    case featureID
    /// `["geometry-type"]` and legacy `$type`: "Point", "LineString" or "Polygon", a multi-part
    /// feature's too. MapLibre's style spec v23 went back to these singular forms after v21's
    /// "MultiLineString" and so on hid the merged roads of tilemaker and planetiler tiles from
    /// every style filtering on `["==", ["geometry-type"], "LineString"]`.
    case geometryType
    case not(Expression)
    case all([Expression])
    case any([Expression])
    case compare(Comparison, Expression, Expression)
    /// `in` with a constant list (and legacy `in`): a hash lookup however long the list.
    case member(Expression, Set<ExpressionValue>)
    /// `in` with a computed haystack: a list, or a string searched for a substring.
    case contains(needle: Expression, haystack: Expression)
    /// `match`: the input's branch by label (strings or numbers), else the fallback.
    case match(Expression, branches: [ExpressionValue: Int], outputs: [Expression], fallback: Expression)
    /// `case`: the output of the first condition that is true, else the fallback.
    case conditions([Expression], outputs: [Expression], fallback: Expression)
    case coalesce([Expression])
    case typeOf(Expression)
    case toNumber([Expression])
    case toString(Expression)
    /// `interpolate` over ascending `stops`; null when the input is not a number.
    case interpolate(Curve, input: Expression, stops: [Double], outputs: [Expression])
    /// `step`: `first` below the first stop, else the output of the last stop at or below the input.
    case step(input: Expression, first: Expression, stops: [Double], outputs: [Expression])
    /// An `interpolate` whose input was fixed (the zoom of one image): `fraction` of the way from
    /// `lower` to `upper`, each of which may still depend on the feature.
    case blend(fraction: Double, lower: Expression, upper: Expression)

    /// The six comparison operators.
    enum Comparison: Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    /// How `interpolate` moves between two stops.
    enum Curve: Sendable, Equatable {
        case linear
        case exponential(base: Double)

        /// The fraction of the way from `lower` to `upper` at `input` (the spec's exponential
        /// interpolation: base 1 is linear; a larger base moves faster near the upper stop).
        func fraction(at input: Double, lower: Double, upper: Double) -> Double {
            let span = upper - lower, progress = input - lower
            guard span > 0 else { return 0 }
            switch self {
            case .linear: return progress / span
            case .exponential(let base):
                return base == 1 ? progress / span : (pow(base, progress) - 1) / (pow(base, span) - 1)
            }
        }
    }

    /// The value for `feature` (`NoFeature` for a background layer) at the style zoom `zoom`.
    ///
    /// The feature is not optional: called from another module (the vector painter, with its
    /// tile features), this generic function is not specialized, and a `Feature?` parameter made
    /// every call, at every node of the expression, look up `Optional<Feature>`'s metadata in the
    /// runtime's cache (`perf`: 2% of the 24-track vector bench run, a third of preparing lines).
    func evaluate<Feature: StyleFeature>(_ feature: Feature, zoom: Double) -> ExpressionValue {
        switch self {
        case .constant(let value): return value
        case .zoom: return .number(zoom)
        case .property(let key): return ExpressionValue(feature.property(key))
        case .hasProperty(let key): return .bool(feature.property(key) != nil)
        case .featureID: return feature.identifier.map { .number(Double($0)) } ?? .null
        case .geometryType: return .string(feature.geometryType.styleName)
        case .not(let operand): return .bool(operand.evaluate(feature, zoom: zoom) != .bool(true))
        case .all(let operands): return .bool(operands.allSatisfy { $0.evaluate(feature, zoom: zoom) == .bool(true) })
        case .any(let operands): return .bool(operands.contains { $0.evaluate(feature, zoom: zoom) == .bool(true) })
        case .compare(let comparison, let left, let right):
            return .bool(Expression.compare(comparison, left.evaluate(feature, zoom: zoom), right.evaluate(feature, zoom: zoom)))
        case .member(let needle, let set): return .bool(set.contains(needle.evaluate(feature, zoom: zoom)))
        case .contains(let needle, let haystack):
            let item = needle.evaluate(feature, zoom: zoom)
            switch haystack.evaluate(feature, zoom: zoom) {
            case .array(let items): return .bool(items.contains(item))
            case .string(let text): return .bool(item.string.map { text.contains($0) } ?? false)
            default: return .bool(false)
            }
        case .match(let input, let branches, let outputs, let fallback):
            let branch = branches[input.evaluate(feature, zoom: zoom)]
            return (branch.map { outputs[$0] } ?? fallback).evaluate(feature, zoom: zoom)
        case .conditions(let tests, let outputs, let fallback):
            for (index, test) in tests.enumerated() where test.evaluate(feature, zoom: zoom) == .bool(true) {
                return outputs[index].evaluate(feature, zoom: zoom)
            }
            return fallback.evaluate(feature, zoom: zoom)
        case .coalesce(let operands):
            for operand in operands {
                let value = operand.evaluate(feature, zoom: zoom)
                if value != .null { return value }
            }
            return .null
        case .typeOf(let operand): return .string(operand.evaluate(feature, zoom: zoom).typeName)
        case .toNumber(let operands):
            for operand in operands {
                if let number = Expression.number(from: operand.evaluate(feature, zoom: zoom)) { return .number(number) }
            }
            return .null
        case .toString(let operand): return .string(operand.evaluate(feature, zoom: zoom).text)
        case .interpolate(let curve, let input, let stops, let outputs):
            guard let x = input.evaluate(feature, zoom: zoom).number else { return .null }
            let (lower, fraction) = Expression.segment(of: x, in: stops, curve: curve)
            guard fraction > 0 else { return outputs[lower].evaluate(feature, zoom: zoom) }
            return Expression.lerp(outputs[lower].evaluate(feature, zoom: zoom), outputs[lower + 1].evaluate(feature, zoom: zoom), fraction)
        case .step(let input, let first, let stops, let outputs):
            guard let x = input.evaluate(feature, zoom: zoom).number else { return .null }
            guard let index = stops.lastIndex(where: { $0 <= x }) else { return first.evaluate(feature, zoom: zoom) }
            return outputs[index].evaluate(feature, zoom: zoom)
        case .blend(let fraction, let lower, let upper):
            return Expression.lerp(lower.evaluate(feature, zoom: zoom), upper.evaluate(feature, zoom: zoom), fraction)
        }
    }

    /// The stop at or below `x` (clamped to the ends) and the fraction of the way to the next one.
    static func segment(of x: Double, in stops: [Double], curve: Curve) -> (lower: Int, fraction: Double) {
        guard !x.isNaN, x > stops[0] else { return (0, 0) }
        guard let upper = stops.firstIndex(where: { $0 > x }) else { return (stops.count - 1, 0) }
        let fraction = curve.fraction(at: x, lower: stops[upper - 1], upper: stops[upper])
        // A huge base or span overflows to inf / inf; keep the value between its two stops.
        return (upper - 1, fraction.isNaN ? 0 : min(max(fraction, 0), 1))
    }

    /// Numbers, colours (premultiplied, as MapLibre) and lists of numbers move linearly; anything
    /// else keeps the lower value.
    static func lerp(_ a: ExpressionValue, _ b: ExpressionValue, _ t: Double) -> ExpressionValue {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.color(let x), .color(let y)): return .color(x.interpolated(to: y, fraction: t))
        case (.array(let xs), .array(let ys)) where xs.count == ys.count:
            return .array(zip(xs, ys).map { lerp($0, $1, t) })
        default: return a
        }
    }

    /// Expression comparison: equality of any two values; order only between two numbers or two
    /// strings (MapLibre reports other pairs as an evaluation error, which makes a filter false).
    static func compare(_ comparison: Comparison, _ left: ExpressionValue, _ right: ExpressionValue) -> Bool {
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        default: break
        }
        let order: Int
        switch (left, right) {
        case (.number(let x), .number(let y)): order = x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x), .string(let y)): order = x < y ? -1 : (x > y ? 1 : 0)
        default: return false
        }
        switch comparison {
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        default: return order >= 0
        }
    }

    /// `to-number`'s conversion: null and false are 0, true is 1, a string its number; nil otherwise.
    static func number(from value: ExpressionValue) -> Double? {
        switch value {
        case .number(let number): return number
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text): return Double(text.trimmingSpaces())
        default: return nil
        }
    }
}

/// The feature type for evaluating without a feature (background layers, constant folding).
struct NoFeature: StyleFeature {
    var geometryType: FeatureGeometryType { .point }
    var identifier: UInt64? { nil }
    func property(_ key: String) -> FeatureValue? { nil }
}
