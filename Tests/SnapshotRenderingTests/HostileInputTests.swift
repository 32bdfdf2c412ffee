import SnapshotRendering
import Testing
import TrackFormats
import TrackSynthesis

/// The hostile files that found issue 13's problems (`HostileFiles`, generated at test size),
/// each with what must happen to it, so that what was found stays found. Every message a user
/// would see stays short whatever the file holds.
@Suite struct HostileInputTests {
    @Test(arguments: HostileFiles.files(.test).map(\.name))
    func eachHostileFileIsRenderedOrRefusedAsExpected(_ name: String) throws {
        let file = try #require(HostileFiles.files(.test).first { $0.name == name })
        var options = RenderOptions()
        if let limit = file.memoryLimitBytes { options.limits.maximumMemoryBytes = limit }
        do {
            let track = try SnapshotRenderer.decode(trackBytes: file.bytes, fileName: file.name, options: options)
            let snapshot = try SnapshotRenderer.render(track: track, options: options)
            #expect(file.expectation == .renders, "\(name) rendered; expected \(file.expectation)")
            #expect(!snapshot.png.isEmpty)
            #expect((track.name ?? "").count <= TrackDecoder.maximumNameCharacters)
        } catch {
            guard case .fails(let kind, let words) = file.expectation else {
                Issue.record("\(name) failed: \(error)")
                return
            }
            switch error {
            case .decoding(let decoding): #expect(decoding.kind.rawValue == kind, "\(name): \(error)")
            case .noValidFixes: #expect(kind == "noValidFixes", "\(name): \(error)")
            default: Issue.record("\(name): \(error)")
            }
            #expect(error.description.contains(words), "\(name): \(error)")
            #expect(error.description.count <= 400, "\(name): a \(error.description.count)-character message")
        }
    }
}
