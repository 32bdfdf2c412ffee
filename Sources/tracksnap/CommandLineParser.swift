import BatchRun
import JobQueue
import SnapshotRendering
import MapTiles
import TileSources

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
    /// Internal: one worker process of `run` (not in --help; started by the supervisor with the
    /// path of the run's configuration file).
    case worker(configurationFile: String)
}

/// `tracksnap render` with its options.
struct RenderRequest {
    var input = ""
    var output = ""
    var options = RenderOptions()
    var printsInfo = false
    /// Opens `options.basemap`'s tiles (nil without a basemap).
    var basemapOpener: BasemapOpener?
}

/// `tracksnap enqueue`.
struct EnqueueRequest {
    var paths: [String] = []
    var jobsDirectory = "Jobs"
    var quiet = false
    /// `--mirror`: forget the jobs of archive files that are gone.
    var mirror = false
}

/// `tracksnap run`.
struct RunRequest {
    var configuration = RunConfiguration()
    var quiet = false
    var json = false
}

/// `tracksnap retry`.
struct RetryRequest {
    /// Job names (as `status` prints them); empty with `all`.
    var jobs: [String] = []
    var all = false
    var jobsDirectory = "Jobs"
}

/// `tracksnap forget`.
struct ForgetRequest {
    /// Job names (as `status` prints them) or archive file paths.
    var jobs: [String] = []
    var jobsDirectory = "Jobs"
}

/// `tracksnap status`.
struct StatusRequest {
    var jobsDirectory = "Jobs"
    var json = false
}

/// Hand-written parsing (the project uses no packages): subcommand first, then options in any order.
enum CommandLineParser {
    static func parse(_ arguments: [String], environment: [String: String]) throws -> Command {
        guard let first = arguments.first else { return .help(topic: nil) }
        var scanner = ArgumentScanner(Array(arguments.dropFirst()), command: first)
        switch first {
        case "-h", "--help", "help": return .help(topic: arguments.dropFirst().first)
        case "--version", "version": return .version
        case "render": return try parseRender(&scanner)
        case "enqueue": return try parseEnqueue(&scanner)
        case "run": return try parseRun(&scanner, environment: environment)
        case "status": return try parseStatus(&scanner)
        case "retry": return try parseRetry(&scanner)
        case "forget": return try parseForget(&scanner)
        case "listing": return try parseListing(&scanner)
        case "__worker":
            guard arguments.count == 2 else { throw UsageError(message: "__worker takes the path of a run configuration file") }
            return .worker(configurationFile: arguments[1])
        default: throw UsageError(message: "unknown command '\(first)'")
        }
    }

    private static func parseRender(_ scanner: inout ArgumentScanner) throws -> Command {
        var request = RenderRequest()
        var input: String?
        var output: String?
        var style = StyleChoice()
        var basemap = BasemapChoice()
        var padding: Double?
        while let argument = scanner.next() {
            if try style.parse(argument, &scanner) { continue }
            if try basemap.parse(argument, &scanner) { continue }
            switch argument {
            case "-h", "--help": return .help(topic: "render")
            case "-o", "--output": output = try scanner.value()
            case "--size":
                let text = try scanner.value()
                let parts = text.split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
                    throw UsageError(message: "--size expects WIDTHxHEIGHT in points, e.g. 512x512, found '\(text)'")
                }
                request.options.widthPoints = width
                request.options.heightPoints = height
            case "--scale": request.options.scale = try scanner.number("a number such as 1 or 2")
            case "--padding": padding = try scanner.number("a fraction such as 0.1")
            case "--info": request.printsInfo = true
            case "--memory-limit": request.options.limits.maximumMemoryBytes = try memoryLimit(&scanner)
            default:
                try scanner.refuseOption(argument)
                guard input == nil else { throw UsageError(message: "render takes one input file, found '\(input!)' and '\(argument)'") }
                input = argument
            }
        }
        guard let input else { throw UsageError(message: "render needs an input track file") }
        guard let output else { throw UsageError(message: "render needs -o OUTPUT.png") }
        var styledBasemap: BasemapSettings?
        if !style.isEmpty {
            // The style file's look, padding, span and basemap; size and scale come from --size/--scale.
            let settings = try style.resolve()
            request.options.style = settings.options.style
            request.options.paddingFraction = settings.options.paddingFraction
            request.options.minimumGroundSpanMeters = settings.options.minimumGroundSpanMeters
            styledBasemap = settings.options.basemap
        }
        if let padding { request.options.paddingFraction = padding }
        request.options.basemap = try basemap.resolve(over: styledBasemap)
        if let settings = request.options.basemap {
            let opener = basemap.opener(fallbackCache: BasemapChoice.userTileCache(), version: TrackSnapVersion.string)
            try BasemapChoice.check(settings, opener: opener)
            request.basemapOpener = opener
        }
        if let problem = request.options.validationProblem() { throw UsageError(message: problem) }
        request.input = input
        request.output = output
        return .render(request)
    }

    private static func parseEnqueue(_ scanner: inout ArgumentScanner) throws -> Command {
        var request = EnqueueRequest()
        while let argument = scanner.next() {
            switch argument {
            case "-h", "--help": return .help(topic: "enqueue")
            case "--jobs": request.jobsDirectory = try scanner.value()
            case "--quiet", "-q": request.quiet = true
            case "--mirror": request.mirror = true
            default:
                try scanner.refuseOption(argument)
                request.paths.append(argument)
            }
        }
        guard !request.paths.isEmpty else { throw UsageError(message: "enqueue needs at least one file or folder") }
        return .enqueue(request)
    }

    private static func parseRun(_ scanner: inout ArgumentScanner, environment: [String: String]) throws -> Command {
        var request = RunRequest()
        var shardsForAuto: Int?
        var wantsAuto = false
        request.configuration = baseConfiguration(environment)
        var style = StyleChoice()
        var basemap = BasemapChoice()
        while let argument = scanner.next() {
            if try style.parse(argument, &scanner) { continue }
            if try basemap.parse(argument, &scanner) { continue }
            switch argument {
            case "-h", "--help": return .help(topic: "run")
            case "--quiet", "-q": request.quiet = true
            case "--json": request.json = true
            case "--workers":
                let workers = try scanner.integer("a number of worker processes")
                guard (1...256).contains(workers) else { throw UsageError(message: "--workers must be between 1 and 256, found \(workers)") }
                request.configuration.workers = workers
            case "--shard":
                let text = try scanner.value()
                if text == "auto" {
                    wantsAuto = true
                } else {
                    guard let shard = ShardSelection(parsing: text) else {
                        throw UsageError(message: "--shard expects i/N with 0 <= i < N (e.g. 0/4) or 'auto', found '\(text)'")
                    }
                    request.configuration.shard = shard
                }
            case "--shards":
                let count = try scanner.integer("the number of shards")
                guard count >= 1 else { throw UsageError(message: "--shards must be at least 1, found \(count)") }
                shardsForAuto = count
            case "--no-lock": request.configuration.usesLock = false
            default:
                if try parseShared(argument, &scanner, into: &request.configuration) { continue }
                try scanner.refuseOption(argument)
                throw UsageError(message: "run takes no positional arguments, found '\(argument)' (queue files with 'tracksnap enqueue')")
            }
        }
        if wantsAuto {
            guard let count = shardsForAuto else { throw UsageError(message: "--shard auto needs --shards N") }
            switch ShardSelection.automatic(count: count, environment: environment) {
            case .success(let shard): request.configuration.shard = shard
            case .failure(let error): throw UsageError(message: error.message)
            }
        } else if shardsForAuto != nil {
            throw UsageError(message: "--shards N goes with --shard auto; use --shard i/N for a fixed shard")
        }
        try style.apply(to: &request.configuration)
        try basemap.apply(to: &request.configuration, checking: true)
        if let problem = request.configuration.settings.validationProblem() { throw UsageError(message: problem) }
        if let problem = request.configuration.foldersProblem { throw UsageError(message: "run: " + problem) }
        return .run(request)
    }

    private static func parseStatus(_ scanner: inout ArgumentScanner) throws -> Command {
        var request = StatusRequest()
        while let argument = scanner.next() {
            switch argument {
            case "-h", "--help": return .help(topic: "status")
            case "--jobs": request.jobsDirectory = try scanner.value()
            case "--json": request.json = true
            default:
                try scanner.refuseOption(argument)
                throw UsageError(message: "status takes no positional arguments, found '\(argument)'")
            }
        }
        return .status(request)
    }

    private static func parseRetry(_ scanner: inout ArgumentScanner) throws -> Command {
        var request = RetryRequest()
        while let argument = scanner.next() {
            switch argument {
            case "-h", "--help": return .help(topic: "retry")
            case "--jobs": request.jobsDirectory = try scanner.value()
            case "--all": request.all = true
            default:
                try scanner.refuseOption(argument)
                request.jobs.append(argument)
            }
        }
        guard request.all != !request.jobs.isEmpty else {
            throw UsageError(message: request.all ? "retry takes job names or --all, not both" : "retry needs job names or --all")
        }
        return .retry(request)
    }

    private static func parseForget(_ scanner: inout ArgumentScanner) throws -> Command {
        var request = ForgetRequest()
        while let argument = scanner.next() {
            switch argument {
            case "-h", "--help": return .help(topic: "forget")
            case "--jobs": request.jobsDirectory = try scanner.value()
            default:
                try scanner.refuseOption(argument)
                request.jobs.append(argument)
            }
        }
        guard !request.jobs.isEmpty else { throw UsageError(message: "forget needs job names or archive file paths") }
        return .forget(request)
    }

    private static func parseListing(_ scanner: inout ArgumentScanner) throws -> Command {
        var configuration = RunConfiguration()
        var style = StyleChoice()
        var basemap = BasemapChoice()
        while let argument = scanner.next() {
            if argument == "-h" || argument == "--help" { return .help(topic: "listing") }
            if argument == "--allow-empty" {
                configuration.allowsEmptySite = true
                continue
            }
            if argument == "--override-settings" {
                configuration.overridesRecordedSettings = true
                continue
            }
            if try style.parse(argument, &scanner) { continue }
            if try basemap.parse(argument, &scanner) { continue }
            if try parseShared(argument, &scanner, into: &configuration) { continue }
            try scanner.refuseOption(argument)
            throw UsageError(message: "listing takes no positional arguments, found '\(argument)'")
        }
        configuration.listingSettingsGiven = !style.isEmpty || basemap.givesSettings
        try style.apply(to: &configuration)
        try basemap.apply(to: &configuration, checking: false)
        if let problem = configuration.foldersProblem { throw UsageError(message: "listing: " + problem) }
        return .listing(configuration)
    }

    /// Options `run` and `listing` share. Returns false when `argument` is not one.
    private static func parseShared(_ argument: String, _ scanner: inout ArgumentScanner, into configuration: inout RunConfiguration) throws -> Bool {
        switch argument {
        case "--jobs": configuration.jobsDirectory = try scanner.value()
        case "--output": configuration.outputDirectory = try scanner.value()
        case "--settle": configuration.settleSeconds = try scanner.number("seconds", range: 0...3600)
        case "--lease": configuration.leaseSeconds = try scanner.number("seconds", range: 10...86400)
        case "--job-timeout": configuration.jobTimeoutSeconds = try scanner.number("seconds", range: 1...86400)
        case "--stop-deadline": configuration.stopDeadlineSeconds = try scanner.number("seconds", range: 0...3600)
        case "--page-size":
            let size = try scanner.integer("a number of cards per page")
            guard (1...10_000).contains(size) else { throw UsageError(message: "--page-size must be between 1 and 10000, found \(size)") }
            configuration.listingPageSize = size
        case "--attempts":
            let attempts = try scanner.integer("a number of attempts")
            guard (1...100).contains(attempts) else { throw UsageError(message: "--attempts must be between 1 and 100, found \(attempts)") }
            configuration.maxAttempts = attempts
        case "--memory-limit": configuration.memoryLimitBytes = try memoryLimit(&scanner)
        case "--run-deaths":
            let deaths = try scanner.integer("a number of run deaths")
            guard (1...1000).contains(deaths) else { throw UsageError(message: "--run-deaths must be between 1 and 1000, found \(deaths)") }
            configuration.maxRunDeaths = deaths
        default: return false
        }
        return true
    }

    /// `--memory-limit MB`: the per-job memory ceiling in MiB (64 to 1,048,576), as bytes.
    private static func memoryLimit(_ scanner: inout ArgumentScanner) throws -> Int {
        let mebibytes = try scanner.integer("a number of MiB")
        guard (64...1_048_576).contains(mebibytes) else {
            throw UsageError(message: "--memory-limit must be between 64 and 1048576 (MiB), found \(mebibytes)")
        }
        return mebibytes << 20
    }

    /// Defaults plus what the environment says (the renderer-version override exists so tests can
    /// show that a version bump re-renders everything).
    private static func baseConfiguration(_ environment: [String: String]) -> RunConfiguration {
        var configuration = RunConfiguration()
        configuration.version = TrackSnapVersion.string
        if let version = environment["TRACKSNAP_RENDERER_VERSION"], !version.isEmpty {
            configuration.settings.rendererVersion = version
        }
        return configuration
    }
}

/// Walks the arguments after the subcommand.
struct ArgumentScanner {
    private let arguments: [String]
    private let command: String
    private var index = 0
    private var current = ""
    /// After `--`, nothing is an option (a track named "-run.gpx").
    private var optionsEnded = false
    /// Options that took a value so far: each may be given once.
    private var given: Set<String> = []

    init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
    }

    /// The next argument, or nil at the end. A first `--` is skipped and ends the options.
    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        current = arguments[index]
        index += 1
        if current == "--" && !optionsEnded {
            optionsEnded = true
            return next()
        }
        return current
    }

    /// The value after the current option. An option given twice is refused: which value was
    /// meant is a guess (`-o a.png -o b.png`).
    mutating func value() throws -> String {
        let option = current
        let canonical = option == "-o" ? "--output" : option
        guard given.insert(canonical).inserted else { throw UsageError(message: "\(option) is given twice; give it once") }
        guard let value = next() else { throw UsageError(message: "\(option) needs a value") }
        return value
    }

    /// A number after the current option.
    mutating func number(_ expected: String, range: ClosedRange<Double>? = nil) throws -> Double {
        let option = current
        let text = try value()
        guard let number = Double(text), number.isFinite else { throw UsageError(message: "\(option) expects \(expected), found '\(text)'") }
        if let range, !range.contains(number) {
            throw UsageError(message: "\(option) must be between \(range.lowerBound) and \(range.upperBound) \(expected), found \(text)")
        }
        return number
    }

    /// An integer after the current option.
    mutating func integer(_ expected: String) throws -> Int {
        let option = current
        let text = try value()
        guard let number = Int(text) else { throw UsageError(message: "\(option) expects \(expected), found '\(text)'") }
        return number
    }

    /// Throws for an option the command does not know.
    func refuseOption(_ argument: String) throws {
        if !optionsEnded, argument.hasPrefix("-"), argument != "-" { throw UsageError(message: "unknown option '\(argument)' for \(command)") }
    }
}
