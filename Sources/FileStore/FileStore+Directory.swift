#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// The names in a directory (without "." and ".."), in no particular order. A missing
    /// directory is empty.
    package static func listDirectory(_ path: String) throws(FileError) -> [String] {
        try listDirectoryCheckingNames(path).names
    }

    /// The names in a directory with their inode numbers (`d_ino`, from the listing itself: no
    /// `stat` per entry), without "." and ".." and without names that are not UTF-8. A missing
    /// directory is empty.
    package static func listDirectoryWithInodes(_ path: String) throws(FileError) -> [(name: String, inode: UInt64)] {
        var entries: [(name: String, inode: UInt64)] = []
        try forEachEntry(path) { bytes, inode in
            if let name = String(validating: bytes, as: UTF8.self), name != ".", name != ".." { entries.append((name, inode)) }
        }
        return entries
    }

    /// The entries of a folder, and separately those whose names are not valid UTF-8 (shown with
    /// `\xNN` escapes): such a name has no exact `String`, so it could be neither opened nor
    /// reported under its own name otherwise.
    package static func listDirectoryCheckingNames(_ path: String) throws(FileError) -> (names: [String], notUTF8: [String]) {
        var names: [String] = []
        var notUTF8: [String] = []
        try forEachEntry(path) { bytes, _ in
            guard let name = String(validating: bytes, as: UTF8.self) else {
                notUTF8.append(escapedName(Array(bytes)))
                return
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return (names, notUTF8)
    }

    /// Calls `body` with each entry's name bytes (valid only during the call) and inode number, in
    /// the directory's order. A missing directory has no entries.
    private static func forEachEntry(_ path: String, _ body: (UnsafeBufferPointer<UInt8>, UInt64) -> Void) throws(FileError) {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return }
            throw FileError("list", path)
        }
        defer { closedir(directory) }
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { throw FileError("list", path) }
                return
            }
            withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) {
                    body(
                        UnsafeBufferPointer(start: $0, count: strlen(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))),
                        UInt64(entry.pointee.d_ino))
                }
            }
        }
    }

    /// A path for a one-line message, in quotes: control characters (a newline could forge a
    /// line of cron mail, an escape sequence could drive the terminal) as `\xNN`.
    package static func quoted(_ path: String) -> String {
        "\"" + escapingControls(path, alsoEscaping: "\"") + "\""
    }

    /// `text` for one line of output: control characters (newline, escape, bell, DEL; C1 too) as
    /// `\xNN`, so a file name or a track's name cannot forge a line or drive a terminal.
    package static func escapingControls(_ text: String, alsoEscaping extra: Unicode.Scalar? = nil) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == extra }) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == extra {
                let digits = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\x" + (digits.count == 1 ? "0" + digits : digits)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A file name's bytes for messages: UTF-8 runs as text, other bytes as `\xNN`.
    package static func escapedName(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            // The longest valid UTF-8 prefix from here, else one escaped byte.
            var end = min(bytes.count, index + 4)
            while end > index, String(validating: bytes[index..<end], as: UTF8.self) == nil { end -= 1 }
            if end > index {
                text += String(decoding: bytes[index..<end], as: UTF8.self)
                index = end
            } else {
                let digits = String(bytes[index], radix: 16, uppercase: true)
                text += "\\x" + (digits.count == 1 ? "0" + digits : digits)
                index += 1
            }
        }
        return text
    }

    /// Renames `source` to `destination` atomically (replacing it). Returns false when `source`
    /// does not exist, which in a queue means another process got there first.
    @discardableResult
    package static func move(_ source: String, to destination: String) throws(FileError) -> Bool {
        guard rename(source, destination) == 0 else {
            if errno == ENOENT, !exists(source) { return false }
            throw FileError("rename", "\(source) to \(destination)")
        }
        return true
    }

    /// Removes a file; a missing file is fine.
    package static func remove(_ path: String) throws(FileError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw FileError("remove", path) }
    }

    /// Makes `destination` a hard link to `source`. Returns false when linking is impossible
    /// (another file system, a file system without links, or protected links), so the caller copies.
    package static func hardLink(_ source: String, to destination: String) throws(FileError) -> Bool {
        guard link(source, destination) == 0 else {
            if [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP].contains(errno) { return false }
            throw FileError("link", "\(source) to \(destination)")
        }
        return true
    }

    /// Copies a regular file to a new file (`O_EXCL`), checking every write and fsyncing it.
    /// With `keepsModificationTime`, the copy gets the source's mtime (what the file was opened
    /// as), as `cp -p` does. On failure the partial copy is removed.
    package static func copyFile(
        _ source: String, to destination: String, permissions: mode_t = 0o444, maximumBytes: Int = Int.max, keepsModificationTime: Bool = false
    ) throws(FileError) {
        // Only a regular file within the limit: /dev/zero or a FIFO would copy (or wait) forever.
        let (input, size) = try openRegularFile(source, maximumBytes: maximumBytes)
        defer { close(input) }
        var copiedBytes = 0
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard output >= 0 else { throw FileError("create", destination) }
        fchmod(output, permissions)
        var failure: FileError? = nil
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = FileError("read", source)
                break
            }
            if count == 0 { break }
            copiedBytes += count
            if copiedBytes > max(size, 0) && copiedBytes > maximumBytes {
                failure = FileError("read", source, code: EFBIG, reason: "the file grew past the \(maximumBytes)-byte input limit while being copied")
                break
            }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0 {
                    if errno == EINTR { continue }
                    failure = FileError("write", destination)
                    break copying
                }
                written += step
            }
        }
        if failure == nil, keepsModificationTime {
            var info = stat()
            if fstat(input, &info) != 0 {
                failure = FileError("stat", source)
            } else {
                let times = [info.st_atim, info.st_mtim]
                if futimens(output, times) != 0 { failure = FileError("set the modification time of", destination) }
            }
        }
        if failure == nil, fsync(output) != 0 { failure = FileError("fsync", destination) }
        if close(output) != 0, failure == nil { failure = FileError("close", destination) }
        if let failure {
            unlink(destination)
            throw failure
        }
    }

    /// Creates a directory and its parents; an existing directory is fine.
    package static func createDirectories(_ paths: [String], permissions: mode_t = 0o755) throws(FileError) {
        for path in paths { try createDirectories(path, permissions: permissions) }
    }
}
