#if canImport(Glibc)
import Glibc
#endif
import FileStore
import FoundationEssentials

/// How a run talks to the person or program that started it.
package enum ProgressMode: Sendable, Equatable {
    /// A live bar on stderr (a terminal): done/total, tracks/s, ETA, failures so far.
    case bar
    /// One line per failure and a summary at the end (the default off a terminal).
    case lines
    /// Nothing on success; failures and a summary only when something failed (cron).
    case quiet
    /// Only the JSON summary on stdout; failures on stderr.
    case json
}

/// Draws progress and reports failures as they happen (stderr), so cron mails only problems.
final class ProgressReporter {
    private let mode: ProgressMode
    private var lastDraw = 0.0
    private var drewBar = false

    init(mode: ProgressMode) {
        self.mode = mode
    }

    /// A quarantined job: always one line on stderr (it is what an operator must see).
    func failure(job: String, failureClass: String, message: String) {
        clearBar()
        printError("tracksnap: \(job): \(failureClass): \(message)")
    }

    /// A note worth an operator's attention (reaped claims, a stop).
    func note(_ text: String) {
        guard mode != .quiet && mode != .json else { return }
        clearBar()
        printError("tracksnap: \(text)")
    }

    /// Redraws the bar at most 10 times a second.
    func update(_ summary: RunSummary, total: Int, elapsed: Double, force: Bool = false) {
        guard mode == .bar, force || elapsed - lastDraw >= 0.1 else { return }
        lastDraw = elapsed
        let done = summary.finished
        let total = max(total, done)
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let width = 30
        let filled = Int((fraction * Double(width)).rounded(.down))
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        var text = "\r[\(bar)] \(done)/\(total)  \(rate.fixed(1)) tracks/s  ETA \(clock(eta))"
        if summary.failed > 0 { text += "  \(summary.failed) failed" }
        text += "\u{1B}[K"
        StandardError.write(text)
        drewBar = true
    }

    /// The end of the run.
    func finish(_ summary: RunSummary) {
        clearBar()
        switch mode {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(summary)) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        case .quiet:
            if summary.failed > 0 || summary.incomplete > 0 || summary.stoppedBecause != nil { printError("tracksnap: \(summary.line)") }
            if let line = summary.incompleteLine { printError("tracksnap: \(line)") }
        case .bar, .lines:
            printError("tracksnap: \(summary.line)")
            if let line = summary.incompleteLine { printError("tracksnap: \(line)") }
        }
    }

    private func clearBar() {
        guard drewBar else { return }
        StandardError.write("\r\u{1B}[K")
        drewBar = false
    }

    /// One line on stderr; job names and messages inside it cannot add lines or escape codes.
    private func printError(_ line: String) {
        StandardError.write(FileStore.escapingControls(line) + "\n")
    }

    private func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600
            ? "\(total / 3600):\((total / 60 % 60).twoDigits):\((total % 60).twoDigits)"
            : "\(total / 60):\((total % 60).twoDigits)"
    }
}
