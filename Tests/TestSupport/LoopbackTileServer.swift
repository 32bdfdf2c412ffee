import Foundation

/// `Tests/TileSourcesTests/tile_server.py` on 127.0.0.1 (a free port), serving `folder/tiles`
/// and logging each request to `folder/requests.log`; stopped by `stop()`.
public final class LoopbackTileServer {
    private let process = Process()
    private let input = Pipe()
    /// The port it listens on.
    public let port: Int
    /// The folder holding `tiles/` and the request log.
    public let folder: String
    /// The request log: one JSON object a line.
    public var log: String { folder + "/requests.log" }

    /// Starts the server over `folder/tiles` (created when missing).
    public init(folder: String) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder + "/tiles", withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TileSourcesTests/tile_server.py").path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, folder + "/tiles", folder + "/requests.log"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "tile server said '\(line)'"])
        }
        self.port = port
    }

    /// A URL template of one of the server's routes (`tiles`, `hang`, `drip`, …).
    public func template(_ kind: String) -> String { "http://127.0.0.1:\(port)/\(kind)/{z}/{x}/{y}.png" }

    /// The URL of one file under `folder/tiles` on a route that serves files by range (`ranges`,
    /// `norange`, `flaky`).
    public func url(_ kind: String, file: String) -> String { "http://127.0.0.1:\(port)/\(kind)/\(file)" }

    /// The logged requests: path, User-Agent, If-None-Match, Range, If-Match.
    public func requests() -> [[String: String]] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
    }

    /// Stops the server and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
