/// One argument after the command, as the scanner splits it.
enum ScannedArgument: Equatable {
    /// An option as spelled (`-o`, `--output`), with the value written after `=` in
    /// `--output=x.png` (nil without one), and the argument as given, for messages.
    case option(String, inlineValue: String?, argument: String)
    /// Anything else: an input file, a job name, and every argument after `--`.
    case operand(String)
}

/// Walks the arguments after the subcommand and tells options from operands; it knows no
/// option (the command's `CommandTable` does).
///
/// An option is an argument that starts with "-" (but is not "-" itself) before a first `--`;
/// `--name=value` carries its value, otherwise the value is the next argument whatever it looks
/// like (`--attribution -` is a dash, `--basemap-opacity -1` is a number out of range).
struct ArgumentScanner {
    private let arguments: [String]
    private var index = 0
    /// After `--`, nothing is an option (a track named "-run.gpx").
    private var optionsEnded = false

    /// A scanner over `arguments` (the subcommand already taken off).
    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next argument, or nil at the end. A first `--` is skipped and ends the options.
    mutating func next() -> ScannedArgument? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") { return .operand(argument) }
        if argument == "--" {
            optionsEnded = true
            return next()
        }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            return .option(String(argument[..<equals]), inlineValue: String(argument[argument.index(after: equals)...]), argument: argument)
        }
        return .option(argument, inlineValue: nil, argument: argument)
    }

    /// The value of the option just returned by `next()`: its `=` value, else the next argument.
    mutating func value(of spelling: String, inline: String?) throws -> String {
        if let inline { return inline }
        guard index < arguments.count else { throw UsageError(message: "\(spelling) needs a value") }
        index += 1
        return arguments[index - 1]
    }
}
