#if canImport(Glibc)
import Glibc
#endif
import FileStore
import FoundationEssentials

// Thin entry: parse, run, map the outcome to an exit code (ExitStatus.swift decides them all).
// The arguments are read from argv here rather than through CommandLine.arguments (0.12 ms of a
// 2.8 ms `--version`, perf record): a path that is not UTF-8 has no exact String
// (CommandLine.arguments repairs it), so it would be "no such file": say what is wrong instead.
var arguments: [String] = []
// argc is 0 when a program execs this one with an empty argv: no arguments then.
for index in 1..<max(1, Int(CommandLine.argc)) {
    guard let raw = CommandLine.unsafeArgv[index] else { continue }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
    guard let argument = String(validating: bytes, as: UTF8.self) else {
        let name = FileStore.escapedName(Array(bytes))
        exit(
            ExitStatus.report(
                UsageError(message: "argument \(index) ('\(name)') is not valid UTF-8; TrackSnap needs UTF-8 paths: rename the file")
            ).rawValue)
    }
    arguments.append(argument)
}
let status: ExitStatus
do {
    switch try CommandLineParser.parse(arguments, environment: ProcessInfo.processInfo.environment) {
    case .help(let topic):
        print(try HelpText.text(for: topic))
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
    case .forget(let request):
        status = try QueueCommands.forget(request)
    case .listing(let configuration):
        status = try QueueCommands.listing(configuration)
    case .overview(let request):
        status = try OverviewCommand.run(request)
    case .worker(let path):
        status = QueueCommands.worker(configurationFile: path)
    }
} catch {
    status = ExitStatus.report(error)
}
exit(status.rawValue)
