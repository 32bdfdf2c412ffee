import Foundation
import Testing

/// Runs the built `tracksnap` binary (built by `swift build --build-tests`, as `make test` does).
private func tracksnap(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let process = Process()
    process.executableURL = root.appendingPathComponent(".build/debug/tracksnap")
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

private func fixturePath(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

private let workDirectory: String = {
    let path = NSTemporaryDirectory() + "tracksnap-cli-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@Suite struct CommandLineTests {
    @Test func rendersWithInfoJSON() throws {
        let output = workDirectory + "/basic.png"
        let result = try tracksnap(["render", fixturePath("gpx11-basic.gpx"), "-o", output, "--size", "300x200", "--scale", "2", "--info"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        for key in [
            "format", "fixes", "fixes_kept", "segments", "vertices_drawn", "distance_m", "duration_s", "width", "height", "stroke_width_px",
            "viewport_epsg3857",
        ] {
            #expect(info?[key] != nil, "missing \(key)")
        }
        #expect(info?["width"] as? Int == 600 && info?["height"] as? Int == 400)
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test(arguments: [
        ("truncated.gpx", "GPX, line 3"),
        ("csv-bad-number.csv", "CSV, line 3, column 5"),
        ("binary-junk.bin", "unknown format, byte 0"),
        ("empty.gpx", "the file is empty"),
        ("nan-and-out-of-range.gpx", "GPX: no valid fixes"),
    ])
    func badInputExitsWithOneLineAndWritesNoImage(name: String, expected: String) throws {
        let output = workDirectory + "/bad-\(name).png"
        let result = try tracksnap(["render", fixturePath(name), "-o", output])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(name) && result.stderr.contains(expected), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func missingInputFileIsNamed() throws {
        let result = try tracksnap(["render", "/nonexistent/track.gpx", "-o", workDirectory + "/x.png"])
        #expect(result.status == 65)
        #expect(result.stderr == "tracksnap: error: cannot open /nonexistent/track.gpx: No such file or directory\n")
    }

    @Test(arguments: [
        ["render"], ["render", "a.gpx"], ["render", "a.gpx", "-o"], ["render", "a.gpx", "-o", "x.png", "--size", "big"], ["frobnicate"],
        ["render", "a.gpx", "-o", "x.png", "--scale", "9"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try tracksnap(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("tracksnap --help"))
    }

    @Test func helpAndVersionTellTheTruth() throws {
        let help = try tracksnap(["--help"])
        #expect(help.status == 0 && help.stdout.contains("tracksnap render INPUT -o OUTPUT.png"))
        let renderHelp = try tracksnap(["render", "--help"])
        for option in ["--size", "--scale", "--padding", "--info", "viewport_epsg3857"] {
            #expect(renderHelp.stdout.contains(option))
        }
        let version = try tracksnap(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("tracksnap "))
    }

    // Issue 12, items 5, 9 and 10.

    @Test func renderRefusesToWriteOverItsInput() throws {
        let input = workDirectory + "/own-input.gpx"
        try? FileManager.default.removeItem(atPath: input)
        try FileManager.default.copyItem(atPath: fixturePath("gpx11-basic.gpx"), toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let link = workDirectory + "/own-input-link.gpx"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: input)
        for output in [input, link] {
            let result = try tracksnap(["render", input, "-o", output])
            #expect(result.status == 2 && result.stderr.contains("is the input file"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        let jpeg = try tracksnap(["render", input, "-o", workDirectory + "/picture.jpg"])
        #expect(jpeg.status == 0 && jpeg.stderr.contains("does not end in .png"), "\(jpeg.stderr)")
    }

    @Test func runRefusesAnOutputFolderInsideTheQueueAndTheReverse() throws {
        let jobs = workDirectory + "/nesting/Jobs"
        for (queue, output) in [(jobs, jobs + "/site"), (workDirectory + "/nesting/Output/Jobs", workDirectory + "/nesting/Output"), (jobs, jobs)] {
            for command in ["run", "listing"] {
                let result = try tracksnap([command, "--jobs", queue, "--output", output])
                #expect(result.status == 2 && result.stderr.contains("folder"), "\(command) \(queue) \(output): \(result.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: jobs))
    }

    /// As an unprivileged user (root reads everything), one unreadable file and one unreadable
    /// folder: the rest is queued, each is named, and the exit status is 1 (not 75, which made
    /// cron retry forever, and not an abort that queued nothing).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func enqueueSkipsWhatItCannotReadAndQueuesTheRest() throws {
        let root = workDirectory + "/unreadable"
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root + "/archive/locked", withIntermediateDirectories: true)
        for name in ["a.gpx", "secret.gpx", "locked/b.gpx"] {
            try FileManager.default.copyItem(atPath: fixturePath("gpx11-basic.gpx"), toPath: root + "/archive/" + name)
        }
        chmod(root, 0o777)
        chmod(root + "/archive/secret.gpx", 0)
        chmod(root + "/archive/locked", 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/tracksnap").path
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "enqueue", root + "/archive", "--jobs", root + "/Jobs"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(stderr)")
        #expect(stderr.contains("secret.gpx") && stderr.contains("locked") && stderr.contains("Permission denied"), "\(stderr)")
        #expect(stderr.contains("queued 1 track file(s)"), "\(stderr)")
        let queued = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Jobs/new")) ?? []
        #expect(queued.count == 1 && queued[0].hasSuffix("-a.gpx"), "\(queued)")
    }

    /// A file name that is not UTF-8 (Latin-1 "café"): named in the messages, not "no such file"
    /// or skipped without a word (issue 12, item 7).
    @Test func aNameThatIsNotUTF8IsSaidToBeSo() throws {
        let root = workDirectory + "/latin1"
        try? FileManager.default.removeItem(atPath: root)
        try FileManager.default.createDirectory(atPath: root + "/archive", withIntermediateDirectories: true)
        let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/tracksnap").path
        let script = """
            cd "$1" && cp "$2" "$(printf 'archive/caf\\351.gpx')" && cp "$2" archive/plain.gpx && touch -d '1 hour ago' archive/*
            "$3" render "$(printf 'archive/caf\\351.gpx')" -o out.png; echo "render=$?"
            "$3" enqueue archive --jobs Jobs; echo "enqueue=$?"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", root, fixturePath("gpx11-basic.gpx"), binary]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("render=2") && text.contains("caf\\xE9.gpx') is not valid UTF-8"), "\(text)")
        #expect(text.contains("enqueue=1") && text.contains("caf\\xE9.gpx\": the name is not UTF-8"), "\(text)")
        #expect(text.contains("queued 1 track file(s)"), "\(text)")
    }

    /// The help tells the truth (issue 13, item 6).
    @Test func helpListsEveryFormatAndRefusesAnUnknownTopic() throws {
        let main = try tracksnap(["--help"])
        #expect(main.status == 0)
        for word in ["GPX", "TCX", "FIT", "KML", "KMZ", "GeoJSON", "CSV", "gzip", "enqueue PATH... [--jobs DIR] [--quiet]", "[--color-by"] {
            #expect(main.stdout.contains(word), "help lacks \(word)")
        }
        let unknown = try tracksnap(["--help", "nosuchcmd"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no help for 'nosuchcmd'"), "\(unknown.stderr)")
        #expect(try tracksnap(["help", "retry"]).stdout.contains("tracksnap retry --all"))
    }

    /// Each command's help page shows its own usage only, and the overview's usage of a command
    /// names every option the command's page does (issue 21 item 13: `--help status` printed the
    /// retry usage; the overview's listing line lacked --theme, --color-by and --attribution).
    @Test func theOverviewAndEachCommandsPageAgree() throws {
        /// Options named per command in the USAGE block of a help page.
        func usage(_ page: String) -> [String: Set<String>] {
            guard let start = page.range(of: "USAGE\n") else { return [:] }
            let block = page[start.upperBound...].components(separatedBy: "\n\n")[0]
            var options: [String: Set<String>] = [:]
            var command: String?
            for line in block.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.first == "tracksnap", words.count > 1, words[1].first?.isLetter == true { command = String(words[1]) }
                guard let command else { continue }
                let named = line.split(whereSeparator: { !($0.isLetter || $0 == "-") }).filter { $0.hasPrefix("--") && $0.count > 2 }
                options[command, default: []].formUnion(named.map(String.init))
            }
            return options
        }
        let overview = usage(try tracksnap(["--help"]).stdout)
        for command in ["render", "enqueue", "run", "status", "retry", "forget", "listing"] {
            let page = try tracksnap(["--help", command]).stdout
            let own = usage(page)
            #expect(Set(own.keys) == [command], "--help \(command) shows the usage of \(own.keys.sorted())")
            let missing = (own[command] ?? []).subtracting(overview[command] ?? [])
            #expect(missing.isEmpty, "the overview's \(command) line lacks \(missing.sorted())")
            #expect(!page.contains("))"), "--help \(command) has a doubled parenthesis")
        }
    }

    /// Repeated options, `--`, and the size limit stated with the numbers (issue 13, items 9, 11).
    @Test func repeatedOptionsAreRefusedAndDoubleDashEndsOptions() throws {
        let twice = try tracksnap(["render", fixturePath("gpx11-basic.gpx"), "-o", workDirectory + "/a.png", "--output", workDirectory + "/b.png"])
        #expect(twice.status == 2 && twice.stderr.contains("given twice"), "\(twice.stderr)")
        let dashed = workDirectory + "/-dashed.gpx"
        try? FileManager.default.removeItem(atPath: dashed)
        try FileManager.default.copyItem(atPath: fixturePath("gpx11-basic.gpx"), toPath: dashed)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/tracksnap")
        process.currentDirectoryURL = URL(fileURLWithPath: workDirectory)
        process.arguments = ["render", "-o", "dashed.png", "--", "-dashed.gpx"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let big = try tracksnap(["render", fixturePath("gpx11-basic.gpx"), "-o", workDirectory + "/big.png", "--size", "8192x8192"])
        #expect(big.status == 2 && big.stderr.contains("8192x8192 pixels (67.1 megapixels)"), "\(big.stderr)")
    }

    /// One exit class per cause, and the user's path in the message (issue 13, item 7).
    @Test func outputProblemsHaveTheirOwnExitStatusAndNameTheUsersPath() throws {
        let input = fixturePath("gpx11-basic.gpx")
        let missingFolder = try tracksnap(["render", input, "-o", "/nonexistent/dir/r.png"])
        #expect(
            missingFolder.status == 73
                && missingFolder.stderr == "tracksnap: error: cannot write /nonexistent/dir/r.png: the folder '/nonexistent/dir' does not exist\n",
            "\(missingFolder.stderr)")
        let empty = try tracksnap(["render", input, "-o", ""])
        #expect(empty.status == 2 && empty.stderr.contains("-o needs a file name"))
        let folder = try tracksnap(["render", input, "-o", workDirectory])
        #expect(folder.status == 2 && folder.stderr.contains("is a folder"))
        let file = workDirectory + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let runIntoFile = try tracksnap(["run", "--jobs", workDirectory + "/jobs-for-file", "--output", file])
        #expect(runIntoFile.status == 2 && runIntoFile.stderr.contains("is a regular file, not a folder"), "\(runIntoFile.stderr)")
        for result in [missingFolder, empty, folder] { #expect(!result.stderr.contains(".tmp~")) }
    }

    /// Options are read from each command's table (issue 22 §5): `--name=value` is `--name value`,
    /// a flag takes no value, a value out of range is named with the option and the range, and
    /// after `--` nothing is an option, `--help` included.
    @Test func optionsAreReadFromTheTableAndNameWhatIsWrong() throws {
        let equals = try tracksnap(["render", fixturePath("gpx11-basic.gpx"), "--output=" + workDirectory + "/equals.png", "--size=64x48", "--info"])
        let info = try JSONSerialization.jsonObject(with: Data(equals.stdout.utf8)) as? [String: Any]
        #expect(equals.status == 0 && info?["width"] as? Int == 64 && info?["height"] as? Int == 48, "\(equals.stderr)")
        let settle = try tracksnap(["run", "--jobs", workDirectory + "/range-jobs", "--settle", "5000"])
        #expect(settle.status == 2 && settle.stderr.contains("--settle must be between 0 and 3600 seconds, found 5000"), "\(settle.stderr)")
        let workers = try tracksnap(["run", "--jobs", workDirectory + "/range-jobs", "--workers=0"])
        #expect(workers.status == 2 && workers.stderr.contains("--workers must be between 1 and 256, found 0"), "\(workers.stderr)")
        let flag = try tracksnap(["status", "--json=yes"])
        #expect(flag.status == 2 && flag.stderr.contains("--json takes no value"), "\(flag.stderr)")
        let dashed = try tracksnap(["render", "-o", workDirectory + "/never.png", "--", "--help"])
        #expect(dashed.status == 65 && dashed.stdout.isEmpty, "\(dashed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workDirectory + "/range-jobs"))
    }

    @Test func aMapStyleThatDoesNotReadStopsTheRenderNamingTheFileAndTheKeyPath() throws {
        let tiles = workDirectory + "/vector-tiles/14/8624"
        try FileManager.default.createDirectory(atPath: tiles, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixturePath("vector/openmaptiles-liechtenstein-14-8624-5758.pbf.gz"), toPath: tiles + "/5758.pbf")
        let style = workDirectory + "/bad-map-style.json"
        try Data(#"{"version": 8, "sources": {}, "layers": [{"id": "w", "type": "line", "paint": {"line-width": ["let", "a", 1, 2]}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: style))
        let output = workDirectory + "/vector.png"
        let refused = try tracksnap([
            "render", fixturePath("gpx11-basic.gpx"), "-o", output, "--basemap", workDirectory + "/vector-tiles", "--map-style", style,
        ])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains(style) && refused.stderr.contains("layers[0]") && refused.stderr.contains("\"let\""), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))

        // The same style named by a style file (relative to it) is refused alike, naming the key.
        let styleFile = workDirectory + "/with-map-style.json"
        try Data(#"{"version": 1, "basemap": {"source": "vector-tiles", "style": "bad-map-style.json"}}"#.utf8)
            .write(to: URL(fileURLWithPath: styleFile))
        let viaStyle = try tracksnap(["render", fixturePath("gpx11-basic.gpx"), "-o", output, "--style", styleFile])
        #expect(viaStyle.status == 2 && viaStyle.stderr.contains("basemap.style") && viaStyle.stderr.contains("layers[0]"), "\(viaStyle.stderr)")

        let alone = try tracksnap(["render", fixturePath("gpx11-basic.gpx"), "-o", output, "--map-style", style])
        #expect(alone.status == 2 && alone.stderr.contains("need a basemap"), "\(alone.stderr)")
    }
}
