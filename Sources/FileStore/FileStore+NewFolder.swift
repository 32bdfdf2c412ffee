#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// Writes a file under a new name (`O_EXCL`: an existing file is an error) with no
    /// temporary, rename or fsync: for a staging folder no reader sees, published whole by
    /// renaming the folder once everything in it is written and synced. On failure the caller
    /// removes the folder.
    package static func writeNewFile(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw FileError("create", path) }
        // The mode asked for, whatever the umask (as `writeAtomically`).
        fchmod(descriptor, permissions)
        if let code = writeAll(bytes, to: descriptor) {
            close(descriptor)
            throw FileError("write", path, code: code)
        }
        guard close(descriptor) == 0 else { throw FileError("close", path) }
    }

    /// Removes a folder of plain files (not recursive: a staging folder holds no folders) and
    /// the folder itself; a missing folder is fine.
    package static func removeFlatDirectory(_ path: String) throws(FileError) {
        for name in try listDirectory(path) { try remove(path + "/" + name) }
        guard rmdir(path) == 0 || errno == ENOENT else { throw FileError("remove", path) }
    }
}
