#if canImport(Glibc)
import Glibc
#endif
import FileStore

/// The few file operations the sources need, with "missing" told apart from "unreadable".
enum FileStoreBridge {
    enum ReadOutcome {
        case bytes([UInt8])
        case missing
        case failed(String)
    }

    /// The names in a folder.
    static func list(_ path: String) throws(FileError) -> [String] {
        try FileStore.listDirectory(path)
    }

    /// A file's bytes, refusing more than `limit`.
    static func read(_ path: String, limit: Int) -> ReadOutcome {
        do {
            return .bytes(try FileStore.readFile(path, maximumBytes: limit))
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR { return .missing }
            if error.code == EFBIG {
                let size = (try? FileStore.statusFollowingLinks(path))??.sizeBytes ?? 0
                return .failed("\(path): the tile is \(size) bytes, more than the \(limit >> 20) MiB a tile may have")
            }
            return .failed("\(error)")
        }
    }
}
