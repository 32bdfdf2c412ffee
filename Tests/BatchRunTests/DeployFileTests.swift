import FileStore
import Foundation
import Testing

/// The shipped Slurm files pass TRACKSNAP_ARGS to tracksnap as written: text with spaces stays one
/// argument, nothing is globbed or expanded (issue 21 item 14). `srun` and `tracksnap` are stand-ins
/// that record the arguments, so this runs without Slurm (make test-slurm runs the real thing).
@Suite struct DeployFileTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs `deploy/slurm/NAME` in a scratch folder holding a file `abc` (which an unquoted `a*`
    /// would glob to) and returns tracksnap's arguments after the fixed ones, and the exit status.
    private func arguments(of name: String, environment: [String: String]) throws -> (status: Int32, arguments: [String], stderr: String) {
        let folder = NSTemporaryDirectory() + "tracksnap-deploy-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileStore.createDirectories([folder + "/bin"])
        try FileStore.writeAtomically(Array("".utf8), to: folder + "/abc")
        // srun: skip its own options, then run the command.
        let srun = "#!/bin/bash\nwhile [[ $1 == --* ]]; do shift; done\nexec \"$@\"\n"
        let tracksnap = "#!/bin/bash\nprintf '%s\\0' \"$@\" > \"\(folder)/arguments\"\n"
        for (file, text) in [("srun", srun), ("tracksnap", tracksnap)] {
            try FileStore.writeAtomically(Array(text.utf8), to: folder + "/bin/" + file)
            chmod(folder + "/bin/" + file, 0o755)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.repository + "/deploy/slurm/" + name]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var variables = ProcessInfo.processInfo.environment
        variables["PATH"] = folder + "/bin:" + (variables["PATH"] ?? "/usr/bin:/bin")
        variables["TRACKSNAP"] = "tracksnap"
        variables["SLURM_ARRAY_TASK_COUNT"] = "2"
        variables["SLURM_ARRAY_TASK_ID"] = "0"
        variables["SLURM_JOB_ID"] = "1"
        variables.merge(environment) { $1 }
        process.environment = variables
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let recorded = (try? FileStore.readFile(folder + "/arguments")) ?? []
        let all = recorded.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        let fixed = all.firstIndex(of: "--quiet").map { $0 + 1 } ?? all.firstIndex(of: "--output").map { $0 + 2 } ?? all.count
        return (process.terminationStatus, Array(all[min(fixed, all.count)...]), stderr)
    }

    static let quoted = #"--basemap 'https://tiles.example/{z}/{x}/{y}.png?key=a*' --attribution "© OSM contributors" --style a*"#
    static let expected = ["--basemap", "https://tiles.example/{z}/{x}/{y}.png?key=a*", "--attribution", "© OSM contributors", "--style", "a*"]

    @Test(arguments: ["tracksnap.sbatch", "listing.sbatch"])
    func quotedArgumentsArriveAsWritten(file: String) throws {
        let result = try arguments(of: file, environment: ["TRACKSNAP_ARGS": Self.quoted])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.arguments == Self.expected)
    }

    @Test(arguments: ["tracksnap.sbatch", "listing.sbatch"])
    func anArgumentsFileGivesOneArgumentALine(file: String) throws {
        let path = NSTemporaryDirectory() + "tracksnap-args-\(UUID().uuidString)"
        defer { unlink(path) }
        try FileStore.writeAtomically(Array((Self.expected.joined(separator: "\n") + "\n").utf8), to: path)
        let result = try arguments(of: file, environment: ["TRACKSNAP_ARGS_FILE": path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.arguments == Self.expected)
    }

    @Test func anUnmatchedQuoteStopsTheTask() throws {
        let result = try arguments(of: "tracksnap.sbatch", environment: ["TRACKSNAP_ARGS": "--attribution '© OSM"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unmatched quote"))
    }

    @Test func noArgumentsGiveNone() throws {
        let result = try arguments(of: "tracksnap.sbatch", environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.arguments == [])
    }
}
