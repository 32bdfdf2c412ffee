import SnapshotRendering

/// What the user asked for.
enum Command {
    case help(topic: String?)
    case version
    case render(RenderRequest)
}

/// `tracksnap render` with its options.
struct RenderRequest {
    var input: String
    var output: String
    var options = RenderOptions()
    var printsInfo = false
}

/// Hand-written parsing (the project uses no packages): subcommand first, then options in any order.
enum CommandLineParser {
    static func parse(_ arguments: [String]) throws -> Command {
        guard let first = arguments.first else { return .help(topic: nil) }
        switch first {
        case "-h", "--help", "help": return .help(topic: arguments.dropFirst().first)
        case "--version", "version": return .version
        case "render": return try parseRender(Array(arguments.dropFirst()))
        default: throw UsageError(message: "unknown command '\(first)'")
        }
    }

    private static func parseRender(_ arguments: [String]) throws -> Command {
        var input: String?
        var output: String?
        var request = RenderRequest(input: "", output: "")
        var index = 0
        func value(_ option: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": return .help(topic: "render")
            case "-o", "--output": output = try value(argument)
            case "--size":
                let text = try value(argument)
                let parts = text.split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
                    throw UsageError(message: "--size expects WIDTHxHEIGHT in points, e.g. 512x512, found '\(text)'")
                }
                request.options.widthPoints = width
                request.options.heightPoints = height
            case "--scale":
                let text = try value(argument)
                guard let scale = Double(text) else { throw UsageError(message: "--scale expects a number such as 1 or 2, found '\(text)'") }
                request.options.scale = scale
            case "--padding":
                let text = try value(argument)
                guard let padding = Double(text) else { throw UsageError(message: "--padding expects a fraction such as 0.1, found '\(text)'") }
                request.options.paddingFraction = padding
            case "--info": request.printsInfo = true
            default:
                if argument.hasPrefix("-"), argument != "-" { throw UsageError(message: "unknown option '\(argument)' for render") }
                guard input == nil else { throw UsageError(message: "render takes one input file, found '\(input!)' and '\(argument)'") }
                input = argument
            }
            index += 1
        }
        guard let input else { throw UsageError(message: "render needs an input track file") }
        guard let output else { throw UsageError(message: "render needs -o OUTPUT.png") }
        if let problem = request.options.validationProblem() { throw UsageError(message: problem) }
        request.input = input
        request.output = output
        return .render(request)
    }
}
