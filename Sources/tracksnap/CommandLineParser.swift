import BatchRun

/// What the user asked for.
enum Command {
    case help(topic: String?)
    case version
    case render(RenderRequest)
    case enqueue(EnqueueRequest)
    case run(RunRequest)
    case status(StatusRequest)
    case retry(RetryRequest)
    case forget(ForgetRequest)
    case listing(RunConfiguration)
    case overview(OverviewRequest)
    /// Internal: one worker process of `run` (not in --help; started by the supervisor with the
    /// path of the run's configuration file).
    case worker(configurationFile: String)
}

/// Hand-written parsing (the project uses no packages): the subcommand first, then its options
/// in any order, read against the command's table (`CommandTable`).
enum CommandLineParser {
    /// The commands, in the order the overview lists them.
    static var commands: [any DeclaredCommand] {
        [
            QueueCommands.enqueueTable, QueueCommands.runTable, QueueCommands.statusTable, QueueCommands.retryTable,
            QueueCommands.forgetTable, QueueCommands.listingTable, OverviewCommand.table, RenderCommand.table,
        ]
    }

    /// The command `arguments` (without the program's name) ask for; `environment` is read only by a
    /// command that needs it.
    // why an autoclosure: building ProcessInfo's environment dictionary took 0.23 ms of the 2.8 ms
    // `tracksnap --version` (perf record over 300 starts), and help and version never read it.
    static func parse(_ arguments: [String], environment: @autoclosure () -> [String: String]) throws -> Command {
        guard let first = arguments.first else { return .help(topic: nil) }
        switch first {
        case "-h", "--help", "help": return .help(topic: arguments.dropFirst().first)
        case "--version", "version": return .version
        case "__worker":
            guard arguments.count == 2 else { throw UsageError(message: "__worker takes the path of a run configuration file") }
            return .worker(configurationFile: arguments[1])
        default:
            guard let command = commands.first(where: { $0.name == first }) else { throw UsageError(message: "unknown command '\(first)'") }
            return try command.parse(Array(arguments.dropFirst()), environment: environment())
        }
    }
}

/// A command the parser dispatches to and the help describes, whatever its settings type.
protocol DeclaredCommand {
    /// The subcommand.
    var name: String { get }
    /// One sentence for the overview.
    var summary: String { get }
    /// The command's usage in the overview (its forms joined by " | ").
    var overviewUsage: [String] { get }
    /// `tracksnap --help NAME`.
    var page: String { get }
    /// Reads the arguments after the subcommand.
    func parse(_ arguments: [String], environment: [String: String]) throws -> Command
}

extension CommandTable: DeclaredCommand {
    var overviewUsage: [String] { HelpText.usage(command: name, form: forms.joined(separator: " | "), items: usageItems) }

    var page: String {
        HelpText.page(
            usage: forms.flatMap { HelpText.usage(command: name, form: $0, items: usageItems) }, description: description, options: optionRows,
            notes: notes)
    }
}
