import FileStore
import Foundation
import SnapshotRendering
import TrackFormats
import TrackModel

/// `tracksnap render`: one file in, one PNG out.
enum RenderCommand {
    static func run(_ request: RenderRequest) throws -> ExitStatus {
        let snapshot: RenderedSnapshot
        do {
            // Decode in its own step so the file's bytes are released before rendering: for a
            // 100 MB track that is half the peak memory.
            let track = try decode(request)
            snapshot = try SnapshotRenderer.render(track: track, options: request.options)
        } catch let error as SnapshotError {
            throw InputFileError(path: request.input, error: error)
        }
        try FileStore.writeAtomically(snapshot.png, to: request.output)
        if request.printsInfo {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = try encoder.encode(snapshot.info)
            print(String(decoding: json, as: UTF8.self))
        }
        return .success
    }

    private static func decode(_ request: RenderRequest) throws -> Track {
        let bytes = try FileStore.readFile(request.input, maximumBytes: request.options.limits.maximumInputBytes)
        do {
            return try TrackDecoder.decode(bytes, fileName: request.input, limits: request.options.limits)
        } catch {
            throw SnapshotError.decoding(error)
        }
    }
}
