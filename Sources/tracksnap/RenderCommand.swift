import FileStore
import Foundation
import SnapshotRendering

/// `tracksnap render`: one file in, one PNG out.
enum RenderCommand {
    static func run(_ request: RenderRequest) throws -> ExitStatus {
        let bytes = try FileStore.readFile(request.input, maximumBytes: request.options.limits.maximumInputBytes)
        let snapshot: RenderedSnapshot
        do {
            snapshot = try SnapshotRenderer.render(trackBytes: bytes, fileName: request.input, options: request.options)
        } catch {
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
}
