#if canImport(Glibc)
import Glibc
#endif
import FileStore
import FoundationEssentials
import SnapshotRendering
import TileSources

/// `tracksnap render`: one file in, one PNG out.
enum RenderCommand {
    static func run(_ request: RenderRequest) throws -> ExitStatus {
        guard !request.output.isEmpty else { throw UsageError(message: "render: -o needs a file name") }
        let outputStatus = (try? FileStore.statusFollowingLinks(request.output)) ?? nil
        if let outputStatus, outputStatus.isDirectory {
            throw UsageError(message: "render: the output '\(request.output)' is a folder; give a file name, e.g. \(request.output)/track.png")
        }
        let folder = FileStore.split(request.output).directory
        guard let folderStatus = try? FileStore.statusFollowingLinks(folder), folderStatus.isDirectory else {
            throw OutputFileError(
                path: request.output, error: FileError("write", request.output, code: ENOENT, reason: "the folder '\(folder)' does not exist"))
        }
        // The output replaces its path atomically: were it the input (or a link to it), the track
        // would be gone.
        if let outputStatus, let input = (try? FileStore.statusFollowingLinks(request.input)) ?? nil,
            input.device == outputStatus.device, input.inode == outputStatus.inode
        {
            throw UsageError(message: "render: the output '\(request.output)' is the input file; choose another name for the PNG")
        }
        if !request.output.lowercased().hasSuffix(".png") {
            StandardError.write("tracksnap: warning: '\(request.output)' does not end in .png, but a PNG is what is written\n")
        }
        let snapshot: RenderedSnapshot
        do {
            // Decode in its own step so the file's bytes are released before rendering.
            let bytes: [UInt8]
            do {
                bytes = try FileStore.readFile(request.input, maximumBytes: request.options.limits.maximumInputBytes)
            } catch {
                throw UnreadableInputError(error: error)
            }
            let track = try SnapshotRenderer.decode(trackBytes: bytes, fileName: request.input, options: request.options)
            let tiles = try request.basemapOpener.map { opener in
                try opener.open(request.options.basemap!) { StandardError.write("tracksnap: \($0)\n") }
            }
            snapshot = try SnapshotRenderer.render(track: track, options: request.options, tiles: tiles)
        } catch let error as SnapshotError {
            throw InputFileError(path: request.input, error: error)
        }
        do {
            try FileStore.writeAtomically(snapshot.png, to: request.output)
        } catch {
            throw OutputFileError(path: request.output, error: error)
        }
        if request.printsInfo {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = try encoder.encode(snapshot.info)
            print(String(decoding: json, as: UTF8.self))
        }
        return .success
    }
}
