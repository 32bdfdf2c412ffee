#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

// Thin entry: parse, run, map the outcome to an exit code (ExitStatus.swift decides them all).
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus
do {
    switch try CommandLineParser.parse(arguments, environment: ProcessInfo.processInfo.environment) {
    case .help(let topic):
        print(HelpText.text(for: topic))
        status = .success
    case .version:
        print("tracksnap \(TrackSnapVersion.string)")
        status = .success
    case .render(let request):
        status = try RenderCommand.run(request)
    case .enqueue(let request):
        status = try QueueCommands.enqueue(request)
    case .run(let request):
        status = try QueueCommands.run(request)
    case .status(let request):
        status = try QueueCommands.status(request)
    case .retry(let request):
        status = try QueueCommands.retry(request)
    case .listing(let configuration):
        status = try QueueCommands.listing(configuration)
    case .worker(let configuration):
        status = QueueCommands.worker(configuration)
    }
} catch {
    status = ExitStatus.report(error)
}
exit(status.rawValue)
