/// One option of a command, declared once: its spellings, its value, its help line, its range or
/// choices, and where its value goes in the command's settings. The parser, the usage line, the
/// `--help` page and the error messages all read this declaration; nothing else spells the option.
///
/// `Settings` is the value the command fills in (`RunArguments`, `RenderArguments`, ...); an option
/// stores into it through a key path, or a closure when the value needs a parser of its own.
struct CommandOption<Settings> {
    /// The spellings, short first: `["-o", "--output"]`.
    let names: [String]
    /// The value's name in the usage and help (`DIR`, `light|dark`); nil for a flag.
    let valueName: String?
    /// What the option does; the range and the default are appended by `helpLine`.
    var help: String
    /// The allowed values, as the help states them (`0...3600 seconds`); nil when any value goes.
    let rangeText: String?
    /// The default as the help states it, read from the command's default settings; nil for none.
    var defaultText: (Settings) -> String?
    /// Where the option appears in the usage line. Default: `.optional`.
    var role = OptionUsageRole.optional
    /// Stores the value (nil for a flag) given under `spelling`, or throws a `UsageError` naming
    /// the option, the value and what was expected.
    let store: (_ settings: inout Settings, _ value: String?, _ spelling: String) throws -> Void

    /// The spelling used in the usage line and in messages that name the option: the long one.
    var longName: String { names.last! }

    /// Whether the option takes a value.
    var takesValue: Bool { valueName != nil }

    /// `-o, --output PATH`: the left column of the help page.
    var label: String { names.joined(separator: ", ") + (valueName.map { " " + $0 } ?? "") }

    /// The option's part of the usage line, or nil when it has none.
    var usageItem: String? {
        switch role {
        case .optional: return "[" + longName + (valueName.map { " " + $0 } ?? "") + "]"
        case .required: return names[0] + (valueName.map { " " + $0 } ?? "")
        case .inForms, .hidden: return nil
        }
    }

    /// The help text with the range and the default appended (the default read from `defaults`).
    func helpLine(defaults: Settings) -> String {
        var line = help
        if let rangeText { line += " (\(rangeText))" }
        if let shown = defaultText(defaults) { line += (line.hasSuffix(".") ? " " : ". ") + "Default: " + shown }
        return line
    }

    /// This option with another usage role.
    func withRole(_ role: OptionUsageRole) -> CommandOption {
        var copy = self
        copy.role = role
        return copy
    }

    /// This option with another default stated in the help (a command where not giving it means
    /// something else: `listing` keeps the runs' recorded style).
    func withDefault(_ shown: String) -> CommandOption {
        var copy = self
        copy.defaultText = { _ in shown }
        return copy
    }

    /// This option with another help text (a shared option that means less in one command:
    /// `overview`'s `--basemap` keys no image).
    func withHelp(_ help: String) -> CommandOption {
        var copy = self
        copy.help = help
        return copy
    }

    /// This option stored at `path` inside a larger value (for options shared by commands whose
    /// settings hold the same part, such as `StyleChoice` or `RunConfiguration`).
    func lifted<Outer>(_ path: WritableKeyPath<Outer, Settings>) -> CommandOption<Outer> {
        let defaultText = self.defaultText, store = self.store
        var lifted = CommandOption<Outer>(
            names: names, valueName: valueName, help: help, rangeText: rangeText,
            defaultText: { defaultText($0[keyPath: path]) },
            store: { outer, value, spelling in try store(&outer[keyPath: path], value, spelling) })
        lifted.role = role
        return lifted
    }
}

/// How the option appears in the usage line.
enum OptionUsageRole {
    /// `[--name VALUE]`.
    case optional
    /// `-o VALUE`, unbracketed; the command fails without it ("render needs -o OUTPUT.png").
    case required
    /// Left out of the usage line, which spells it in the command's forms (`retry --all`).
    case inForms
    /// Accepted, but neither in the usage line nor on the help page (`listing` takes the run's
    /// tuning options so one argument list serves both, but they change nothing there).
    case hidden
}
