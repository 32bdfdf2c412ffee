/// The text of `--help`: the overview and each command's page, laid out from the command tables
/// (`CommandTable`), so an option's usage, help line, range and default are written once, in its
/// declaration. Only what belongs to no option is prose here: the program's summary, the formats
/// it reads and the exit statuses.
enum HelpText {
    /// The widest line the layout writes (a wider help line is wrapped).
    static let width = 100
    /// Where the help lines of an OPTIONS block start.
    static let helpColumn = 22

    /// The help for `topic` (a command's page), or the overview for nil.
    static func text(for topic: String?) throws -> String {
        let commands = CommandLineParser.commands
        guard let topic else { return overview(commands) }
        guard let command = commands.first(where: { $0.name == topic }) else {
            throw UsageError(message: "no help for '\(topic)': the commands are \(commands.map(\.name).sorted().joined(separator: ", "))")
        }
        return command.page
    }

    /// The overview: every command's usage, what each does, the formats read, the exit statuses.
    static func overview(_ commands: [any DeclaredCommand]) -> String {
        let usage = commands.flatMap(\.overviewUsage) + ["  tracksnap --help [COMMAND] | --version"]
        let summaries = commands.flatMap { wrap($0.summary, prefix: "  " + $0.name.padding(9) + " ", indent: 12) }
        return """
            tracksnap \(TrackSnapVersion.string): map snapshots (PNG) of recorded GPS tracks.

            USAGE
            \(usage.joined(separator: "\n"))

            COMMANDS
            \(summaries.joined(separator: "\n"))

            Formats read (from the content, not the name): GPX 1.0/1.1, TCX, FIT, KML and KMZ, GeoJSON
            and CSV, each also gzipped.
            Run 'tracksnap --help COMMAND' for a command's options.

            EXIT STATUS
              0   success (for run: every job done or quarantined)
              1   unexpected failure; for enqueue: some files could not be queued (each is named, the
                  rest are queued)
              2   bad command line or configuration
              65  render: the input is not a readable track: missing, unreadable, not a regular file, or
                  not a track (the message names the file, and the format and position when it has them)
              73  render: the output cannot be written (its folder is missing or not writable)
              75  temporary failure, retry later: another run holds the queue's lock, the disk is full or
                  read-only, or the run was stopped by a signal with jobs left
            """
    }

    /// A command's page: USAGE, its description, OPTIONS (every shown option, then `--help`) and
    /// its notes.
    static func page(usage: [String], description: String, options: [(label: String, help: String)], notes: String) -> String {
        var blocks = ["USAGE\n" + usage.joined(separator: "\n")]
        if !description.isEmpty { blocks.append(description) }
        let rows = (options + [("-h, --help", "show this help")]).flatMap { row(label: $0.label, help: $0.help) }
        blocks.append("OPTIONS\n" + rows.joined(separator: "\n"))
        if !notes.isEmpty { blocks.append(notes) }
        return blocks.joined(separator: "\n\n")
    }

    /// The usage lines of `command`: `tracksnap NAME FORM [options]`, wrapped between items with
    /// the continuation lines under the first item.
    static func usage(command: String, form: String, items: [String]) -> [String] {
        let prefix = "  tracksnap \(command) "
        var lines: [String] = []
        var line = prefix + form
        for item in items {
            if line.count > prefix.count, line.count + 1 + item.count > width {
                lines.append(line)
                line = String(repeating: " ", count: prefix.count) + item
            } else {
                line += (line.count > prefix.count ? " " : "") + item
            }
        }
        return lines + [line]
    }

    /// One option's rows: the label, then its help from `helpColumn` (on the next line when the
    /// label reaches the column).
    private static func row(label: String, help: String) -> [String] {
        let labelled = "  " + label
        guard labelled.count < helpColumn else {
            return [labelled] + wrap(help, prefix: String(repeating: " ", count: helpColumn), indent: helpColumn)
        }
        return wrap(help, prefix: labelled.padding(helpColumn), indent: helpColumn)
    }

    /// `text` filled into lines of at most `width` (a longer word gets a line of its own), the
    /// first after `prefix`, the rest after `indent` spaces.
    static func wrap(_ text: String, prefix: String, indent: Int) -> [String] {
        var lines: [String] = []
        var line = prefix
        var lineHasWord = false
        for word in text.split(separator: " ") {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        return lines + [line]
    }
}

extension String {
    /// This string followed by spaces up to `count` characters (as it is when longer).
    fileprivate func padding(_ count: Int) -> String { self + String(repeating: " ", count: max(0, count - self.count)) }
}
