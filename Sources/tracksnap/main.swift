import Foundation

// Thin entry: parse, run, map the outcome to an exit code (ExitStatus.swift decides them all).
let arguments = Array(CommandLine.arguments.dropFirst())
let status: ExitStatus
do {
    switch try CommandLineParser.parse(arguments) {
    case .help(let topic):
        print(HelpText.text(for: topic))
        status = .success
    case .version:
        print("tracksnap \(TrackSnapVersion.string)")
        status = .success
    case .render(let request):
        status = try RenderCommand.run(request)
    }
} catch {
    status = ExitStatus.report(error)
}
exit(status.rawValue)
