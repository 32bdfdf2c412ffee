import Foundation
import Testing
import TrackModel
@testable import TrackFormats

/// Inputs found by `make fuzz` (Tests/Fixtures/fuzz/, named `<reader>-<problem>`) and the fuzzers'
/// seed corpus (Fuzz/seeds/<reader>/): each must decode to a track or to one error, through the
/// format's reader and through sniffing, and never crash.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(under path: String) -> [URL] {
        let directory = root.appendingPathComponent(path)
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix(".") }.sorted {
            $0.path < $1.path
        }
    }

    @Test func findingsAndSeedsDecodeOrFailCleanly() throws {
        let inputs = Self.files(under: "Tests/Fixtures/fuzz") + Self.files(under: "Fuzz/seeds")
        #expect(inputs.count > 50)
        var limits = DecodingLimits()
        limits.maximumFixes = 2_000_000
        for url in inputs {
            let bytes = Array(try Data(contentsOf: url))
            let readerName = url.lastPathComponent.split(separator: "-").first.map(String.init) ?? ""
            let folder = url.deletingLastPathComponent().lastPathComponent
            for name in [readerName, folder] {
                if let format = TrackFormat(rawValue: name), let reader = TrackDecoder.reader(for: format) {
                    _ = try? bytes.withUnsafeBufferPointer { try reader.read($0, limits: limits) }
                }
            }
            _ = try? TrackDecoder.decode(bytes, fileName: url.lastPathComponent, limits: limits)
        }
    }

    @Test func seedsOfEachReaderAreReadByIt() throws {
        // hostile-* seeds (`tracksnap-dev hostile --seeds`) are meant to be refused: HostileInputTests.
        for url in Self.files(under: "Fuzz/seeds")
        where url.deletingLastPathComponent().lastPathComponent == "fit" && url.pathExtension == "fit" && !url.lastPathComponent.hasPrefix("hostile-")
        {
            let track = try TrackDecoder.decode(Array(try Data(contentsOf: url)))
            #expect(track.format == .fit && track.fixCount > 0)
        }
    }
}
