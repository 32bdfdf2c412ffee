import FileStore
import Foundation
import TestSupport
import Testing

/// A tile server's failures are the server's: a run over one that hangs or drips finishes, no
/// track is quarantined, the tiles are counted failed; its credentials are kept out of Output/
/// and the queue; a template is checked before the run starts.
struct TileServerRunTests {
    func records(_ sandbox: RunSandbox) -> [[String: Any]] {
        let folder = sandbox.output + "/.tracksnap/records"
        return ((try? FileStore.listDirectory(folder)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasSuffix(".incomplete.json") }.compactMap {
            name in
            (try? FileStore.readFile(folder + "/" + name)).flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        }
    }

    /// Issue 21 item 5: every job used to wait 20 s a tile, hit the job timeout and be
    /// quarantined as `timeout`, blaming the track.
    @Test(arguments: ["hang", "drip"])
    func aStuckTileServerFailsTilesNotTracks(kind: String) throws {
        let sandbox = try RunSandbox()
        let server = try LoopbackTileServer(folder: sandbox.root + "/server")
        defer { server.stop() }
        try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--job-timeout", "16", "--attempts", "2", "--workers", "2", "--basemap", server.template(kind), "--json"])
        let summary = sandbox.summary(result)
        #expect(result.status == 0 && summary["failed"] as? Int == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(sandbox.jobs(in: "failed").isEmpty && sandbox.jobs(in: "new").isEmpty, "\(sandbox.places())")
        let basemaps = records(sandbox).compactMap { $0["basemap"] as? [String: Any] }
        #expect(basemaps.count == 3, "\(records(sandbox))")
        #expect(basemaps.allSatisfy { ($0["tiles_failed"] as? Int ?? 0) > 0 && $0["tiles_absent"] as? Int == 0 }, "\(basemaps)")
    }

    /// Issue 21 item 7: `user:pass@` and `?api_key=` of a template reached records, index.json
    /// and the tile cache's SOURCE file.
    @Test func credentialsInATemplateAreStoredNowhere() throws {
        let sandbox = try RunSandbox()
        let server = try LoopbackTileServer(folder: sandbox.root + "/server")
        defer { server.stop() }
        try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        let template = "http://tileuser:PASSWORD-xyz@127.0.0.1:\(server.port)/fail/{z}/{x}/{y}.png?api_key=SECRET-abc"
        let result = try sandbox.runQueue(["--basemap", template, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(records(sandbox).count == 2)
        var leaks: [String] = []
        var searched = 0
        for folder in [sandbox.output, sandbox.jobs] {
            for name in FileManager.default.enumerator(atPath: folder)?.compactMap({ $0 as? String }) ?? [] {
                guard let bytes = try? FileStore.readFile(folder + "/" + name) else { continue }
                searched += 1
                let text = String(decoding: bytes, as: UTF8.self)
                for secret in ["tileuser", "PASSWORD-xyz", "SECRET-abc"] where text.contains(secret) { leaks.append("\(name): \(secret)") }
            }
        }
        #expect(searched > 5 && leaks.isEmpty, "\(leaks)")
        #expect(!result.stderr.contains("SECRET-abc") && !result.stderr.contains("PASSWORD-xyz"), "\(result.stderr)")
        // What is stored still says which server failed.
        let problems = records(sandbox).compactMap { ($0["basemap"] as? [String: Any])?["problems"] as? [String] }.joined()
        #expect(problems.contains { $0.contains("HTTP 500 from http://127.0.0.1:\(server.port)/fail/") && $0.contains("api_key=…") }, "\(problems)")
    }

    /// Issue 21 item 10: a bad template is refused before the run starts (exit 2), naming it
    /// and its problem.
    @Test(arguments: [
        ("http://127.0.0.1:99999/{z}/{x}/{y}.png", "port '99999'"),
        ("gopher://tiles.example.org/{z}/{x}/{y}.png", "scheme 'gopher'"),
        ("https://tiles.example.org/{z}/{x}/{y}@{r}.png", "{r}"),
    ])
    func aBadTemplateStopsTheRunBeforeItStarts(template: String, problem: String) throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--basemap", template])
        #expect(result.status == 2, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains(template) && result.stderr.contains(problem), "\(result.stderr)")
        #expect(sandbox.jobs(in: "new").count == 1)
    }
}

/// `make serve` (scripts/serve.py) publishes the site and refuses `.tracksnap/` (records,
/// caches, locks), however the path is spelled.
struct ServeScriptTests {
    @Test func thePreviewServerRefusesDotPaths() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(1)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let record = try #require(try FileStore.listDirectory(sandbox.output + "/.tracksnap/records").first { $0.hasSuffix(".json") })
        let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [scripts.appendingPathComponent("serve.py").path, sandbox.output, "--port", "0"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: a signal the test process ignores is ignored by its children too.
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let banner = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let address = try #require(banner.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init), "\(banner)")
        let paths = [
            "index.html", "index.json", ".tracksnap/records/\(record)", "%2etracksnap/records/\(record)", "thumbs/../.tracksnap/records/\(record)",
            ".tracksnap/",
        ]
        // Python's client sends the path as written (no "../" folding), as a hostile client would.
        let answers = sandbox.root + "/statuses.txt"
        let fetch = Process()
        fetch.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        fetch.arguments =
            [
                "-c",
                """
                import http.client, sys
                with open(sys.argv[2], "w") as out:
                    for path in sys.argv[3:]:
                        connection = http.client.HTTPConnection(sys.argv[1].split("//")[1].rstrip("/"), timeout=10)
                        connection.request("GET", "/" + path)
                        out.write("%d\\n" % connection.getresponse().status)
                """, address, answers,
            ] + paths
        try fetch.run()
        fetch.waitUntilExit()
        let codes = String(decoding: try FileStore.readFile(answers), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(codes == ["200", "200", "404", "404", "404", "404"], "\(zip(paths, codes).map { "\($0.0) \($0.1)" })")
    }
}
