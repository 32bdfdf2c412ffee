/// A command as the user sees it: what it does, its usage forms, its operands and its option table,
/// and how the parsed settings become a `Command`. Parsing, the usage lines and the help page are
/// all read from this one declaration (the idea of swift-argument-parser, which the design card
/// rules out as a package: the declarations are the help).
struct CommandTable<Settings> {
    /// The subcommand (`run`).
    let name: String
    /// One sentence for the overview's COMMANDS list.
    let summary: String
    /// The operands of each usage form (`["JOB...", "--all"]` for retry; `[""]` for none); the
    /// options follow in the usage line.
    var forms = [""]
    /// What the command does with its operands.
    let operands: Operands<Settings>
    /// The options, in the order the usage line and the help page show them.
    let options: [CommandOption<Settings>]
    /// The prose between USAGE and OPTIONS, already wrapped (may be empty).
    var description = ""
    /// The prose after OPTIONS, already wrapped (may be empty).
    var notes = ""
    /// The settings before any option; the help states their values as the defaults.
    let defaults: Settings
    /// Checks the parsed settings together and makes the command (with the environment, for
    /// `run`'s overrides and `--shard auto`).
    let finish: (_ settings: Settings, _ environment: [String: String]) throws -> Command

    /// Reads `arguments` (after the subcommand) against the table.
    func parse(_ arguments: [String], environment: [String: String]) throws -> Command {
        var settings = defaults
        var scanner = ArgumentScanner(arguments)
        // Options that took a value so far: each may be given once, as which value was meant is a
        // guess (`-o a.png -o b.png`).
        var given: Set<Int> = []
        while let argument = scanner.next() {
            switch argument {
            case .operand(let text):
                try operands.store(&settings, text, name)
            case .option(let spelling, let inline, let whole):
                if spelling == "-h" || spelling == "--help" { return .help(topic: name) }
                guard let index = options.firstIndex(where: { $0.names.contains(spelling) }) else {
                    throw UsageError(message: "unknown option '\(whole)' for \(name)")
                }
                let option = options[index]
                guard option.takesValue else {
                    if inline != nil { throw UsageError(message: "\(spelling) takes no value, found '\(whole)'") }
                    try option.store(&settings, nil, spelling)
                    continue
                }
                guard given.insert(index).inserted else { throw UsageError(message: "\(spelling) is given twice; give it once") }
                try option.store(&settings, try scanner.value(of: spelling, inline: inline), spelling)
            }
        }
        try operands.check(settings, name)
        for (index, option) in options.enumerated() where option.role == .required && !given.contains(index) {
            throw UsageError(message: "\(name) needs \(option.usageItem!)")
        }
        return try finish(settings, environment)
    }

    /// The options of the usage line, in table order, the required ones first.
    var usageItems: [String] {
        options.filter { $0.role == .required }.compactMap(\.usageItem) + options.filter { $0.role != .required }.compactMap(\.usageItem)
    }

    /// The rows of the help page's OPTIONS block: label and help line for each shown option.
    var optionRows: [(label: String, help: String)] {
        options.filter { $0.role != .hidden }.map { ($0.label, $0.helpLine(defaults: defaults)) }
    }
}

/// What a command does with its operands (the arguments that are not options).
struct Operands<Settings> {
    /// Takes one operand, or throws when the command has no room for it.
    let store: (_ settings: inout Settings, _ operand: String, _ command: String) throws -> Void
    /// Throws when an operand the command needs is missing.
    let check: (_ settings: Settings, _ command: String) throws -> Void

    /// No operands; `hint` follows the message for one (" (queue files with ...)").
    static func none(hint: String = "") -> Operands {
        Operands(
            store: { _, operand, command in throw UsageError(message: "\(command) takes no positional arguments, found '\(operand)'\(hint)") },
            check: { _, _ in })
    }

    /// Exactly one operand, a `what` (`input file`); `missing` is the message without it.
    static func one(_ what: String, into path: WritableKeyPath<Settings, String?>, missing: String) -> Operands {
        Operands(
            store: { settings, operand, command in
                if let first = settings[keyPath: path] {
                    throw UsageError(message: "\(command) takes one \(what), found '\(first)' and '\(operand)'")
                }
                settings[keyPath: path] = operand
            },
            check: { settings, _ in if settings[keyPath: path] == nil { throw UsageError(message: missing) } })
    }

    /// Any number of operands; with `missing`, at least one (`missing` is the message without).
    static func list(into path: WritableKeyPath<Settings, [String]>, missing: String?) -> Operands {
        Operands(
            store: { settings, operand, _ in settings[keyPath: path].append(operand) },
            check: { settings, _ in if let missing, settings[keyPath: path].isEmpty { throw UsageError(message: missing) } })
    }
}
