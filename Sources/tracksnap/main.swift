#if canImport(Glibc)
import Glibc
#endif
import FileStore
import FoundationEssentials

// Thin entry: parse, run, map the outcome to an exit code (ExitStatus.swift decides them all).
let arguments = Array(CommandLine.arguments.dropFirst())
// A path that is not UTF-8 has no exact String (CommandLine.arguments repairs it), so it would
// be "no such file": say what is wrong instead.
for index in 1..<Int(CommandLine.argc) {
    guard let raw = CommandLine.unsafeArgv[index] else { continue }
    let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw)))
    if String(validating: bytes, as: UTF8.self) == nil {
        exit(
            ExitStatus.report(
                UsageError(
                    message: "argument \(index) ('\(FileStore.escapedName(bytes))') is not valid UTF-8; TrackSnap needs UTF-8 paths: rename the file")
            ).rawValue)
    }
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
