/// The kinds of option value (flag, text, whole number, number, choice, own parser), each with the
/// error messages for a value it refuses.
extension CommandOption {
    /// A flag: `--quiet` sets `path` to `value` (given twice, it stays so).
    static func flag(_ names: String..., help: String, sets path: WritableKeyPath<Settings, Bool>, to value: Bool = true) -> CommandOption {
        CommandOption(names: names, valueName: nil, help: help, rangeText: nil, defaultText: { _ in nil }) { settings, _, _ in
            settings[keyPath: path] = value
        }
    }

    /// A value taken as written (a path, a template, an attribution); the help states the
    /// default settings' value unless it is empty.
    static func text(
        _ names: String..., value: String, help: String, default shown: String? = nil, into path: WritableKeyPath<Settings, String>
    ) -> CommandOption {
        CommandOption(
            names: names, valueName: value, help: help, rangeText: nil,
            defaultText: { shown ?? ($0[keyPath: path].isEmpty ? nil : $0[keyPath: path]) }
        ) {
            settings, value, _ in settings[keyPath: path] = value ?? ""
        }
    }

    /// A value taken as written, into an optional (nil when not given).
    static func text(
        _ names: String..., value: String, help: String, default shown: String? = nil, into path: WritableKeyPath<Settings, String?>
    ) -> CommandOption {
        CommandOption(names: names, valueName: value, help: help, rangeText: nil, defaultText: { shown ?? $0[keyPath: path] }) {
            settings, value, _ in settings[keyPath: path] = value
        }
    }

    /// A whole number in `range` (`unit` names what it counts, in the help and the messages),
    /// stored times `multiplier` (`--memory-limit` is given in MiB and kept in bytes).
    static func integer(
        _ names: String..., value: String, in range: ClosedRange<Int>, unit: String? = nil, help: String, default shown: String? = nil,
        into path: WritableKeyPath<Settings, Int>, multiplier: Int = 1
    ) -> CommandOption {
        let rangeText = "\(range.lowerBound)...\(range.upperBound)" + (unit.map { " " + $0 } ?? "")
        return CommandOption(
            names: names, valueName: value, help: help, rangeText: rangeText,
            defaultText: { shown ?? String($0[keyPath: path] / multiplier) }
        ) { settings, value, spelling in
            settings[keyPath: path] = try wholeNumber(value ?? "", spelling: spelling, in: range, unit: unit) * multiplier
        }
    }

    /// A whole number of at least `minimum`, into an optional.
    static func integer(
        _ names: String..., value: String, atLeast minimum: Int, help: String, into path: WritableKeyPath<Settings, Int?>
    ) -> CommandOption {
        CommandOption(names: names, valueName: value, help: help, rangeText: "at least \(minimum)", defaultText: { _ in nil }) {
            settings, value, spelling in
            let number = try wholeNumber(value ?? "", spelling: spelling, in: nil, unit: nil)
            guard number >= minimum else { throw UsageError(message: "\(spelling) must be at least \(minimum), found \(number)") }
            settings[keyPath: path] = number
        }
    }

    /// A number (`unit` names what it measures), checked against `range` when there is one (the
    /// renderer checks the rest: `RenderOptions.validationProblem`).
    static func number(
        _ names: String..., value: String, in range: ClosedRange<Double>? = nil, unit: String? = nil, help: String, default shown: String? = nil,
        into path: WritableKeyPath<Settings, Double>
    ) -> CommandOption {
        CommandOption(
            names: names, valueName: value, help: help, rangeText: range.map { Self.rangeText($0, unit: unit) },
            defaultText: { shown ?? Self.decimal($0[keyPath: path]) }
        ) { settings, value, spelling in
            settings[keyPath: path] = try number(value ?? "", spelling: spelling, in: range, unit: unit)
        }
    }

    /// A number into an optional (nil when not given); `shown` is the default the help states.
    static func number(
        _ names: String..., value: String, in range: ClosedRange<Double>? = nil, unit: String? = nil, help: String, default shown: String?,
        into path: WritableKeyPath<Settings, Double?>
    ) -> CommandOption {
        CommandOption(
            names: names, valueName: value, help: help, rangeText: range.map { Self.rangeText($0, unit: unit) }, defaultText: { _ in shown }
        ) { settings, value, spelling in
            settings[keyPath: path] = try number(value ?? "", spelling: spelling, in: range, unit: unit)
        }
    }

    /// One of an enumeration's raw values; the value name lists them (`light|dark`).
    static func choice<Value: RawRepresentable & CaseIterable>(
        _ names: String..., help: String, default shown: String? = nil, into path: WritableKeyPath<Settings, Value?>
    ) -> CommandOption where Value.RawValue == String {
        let choices = Value.allCases.map(\.rawValue)
        return CommandOption(names: names, valueName: choices.joined(separator: "|"), help: help, rangeText: nil, defaultText: { _ in shown }) {
            settings, value, spelling in
            guard let value, let parsed = Value(rawValue: value) else {
                let listed = choices.dropLast().joined(separator: ", ") + " or " + choices.last!
                throw UsageError(message: "\(spelling) expects \(listed), found '\(value ?? "")'")
            }
            settings[keyPath: path] = parsed
        }
    }

    /// A value with a parser of its own (`--size WxH`, `--shard i/N|auto`, `--style FILE`):
    /// `parse` stores it and throws a `UsageError` that names the option for a bad one.
    static func custom(
        _ names: String..., value: String, help: String, default shown: @escaping (Settings) -> String? = { _ in nil },
        parse: @escaping (_ settings: inout Settings, _ value: String, _ spelling: String) throws -> Void
    ) -> CommandOption {
        CommandOption(names: names, valueName: value, help: help, rangeText: nil, defaultText: shown) { settings, value, spelling in
            try parse(&settings, value ?? "", spelling)
        }
    }

    private static func wholeNumber(_ text: String, spelling: String, in range: ClosedRange<Int>?, unit: String?) throws -> Int {
        guard let number = Int(text) else {
            throw UsageError(message: "\(spelling) expects a whole number\(unit.map { " of " + $0 } ?? ""), found '\(text)'")
        }
        if let range, !range.contains(number) {
            throw UsageError(
                message: "\(spelling) must be between \(range.lowerBound) and \(range.upperBound)\(unit.map { " " + $0 } ?? ""), found \(text)")
        }
        return number
    }

    private static func number(_ text: String, spelling: String, in range: ClosedRange<Double>?, unit: String?) throws -> Double {
        guard let number = Double(text), number.isFinite else {
            throw UsageError(message: "\(spelling) expects a number\(unit.map { " of " + $0 } ?? ""), found '\(text)'")
        }
        if let range, !range.contains(number) {
            throw UsageError(
                message:
                    "\(spelling) must be between \(decimal(range.lowerBound)) and \(decimal(range.upperBound))\(unit.map { " " + $0 } ?? ""), found \(text)"
            )
        }
        return number
    }

    private static func rangeText(_ range: ClosedRange<Double>, unit: String?) -> String {
        "\(decimal(range.lowerBound))...\(decimal(range.upperBound))" + (unit.map { " " + $0 } ?? "")
    }

    /// `3` for 3.0, `0.1` for 0.1: how a person writes the number.
    static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
