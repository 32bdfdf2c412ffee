import ContentHash
import FileStore

/// The head of a remote file in the cache: `FOLDER/head.bytes` and `FOLDER/head.meta` (lines
/// `size`, `fresh-until`, `etag`, `last-modified`).
struct CachedHead {
    var bytes: [UInt8]
    var size: UInt64
    var freshUntil: Double
    var etag = ""
    var lastModified = ""

    /// A hash of what identifies this version of the file.
    var identity: String {
        let validators = Array("\(etag)\n\(lastModified)\n\(size)\n".utf8)
        return String(SHA256.hash(validators + bytes).hex.prefix(16))
    }

    static func read(folder: String) -> CachedHead? {
        guard let meta = try? FileStore.readFile(folder + "/head.meta", maximumBytes: 4096),
            let bytes = try? FileStore.readFile(folder + "/head.bytes", maximumBytes: HTTPByteRanges.headBytes)
        else { return nil }
        var head = CachedHead(bytes: bytes, size: 0, freshUntil: 0)
        for line in String(decoding: meta, as: UTF8.self).split(separator: "\n") {
            let pair = line.split(separator: " ", maxSplits: 1).map(String.init)
            let value = pair.count > 1 ? pair[1] : ""
            switch pair.first {
            case "size": head.size = UInt64(value) ?? 0
            case "fresh-until": head.freshUntil = Double(value).flatMap { $0.isFinite ? $0 : nil } ?? 0
            case "etag": head.etag = value
            case "last-modified": head.lastModified = value
            default: break
            }
        }
        // A damaged meta file reads as not cached.
        return head.size >= UInt64(bytes.count) && !bytes.isEmpty ? head : nil
    }

    /// Bytes first, then the meta that vouches for them.
    func write(folder: String) throws(FileError) {
        let seconds = freshUntil.isFinite ? Int(min(max(freshUntil, 0), 1e15)) : 0
        var meta = "size \(size)\nfresh-until \(seconds)\n"
        if !etag.isEmpty { meta += "etag \(etag)\n" }
        if !lastModified.isEmpty { meta += "last-modified \(lastModified)\n" }
        try FileStore.writeAtomically(bytes, to: folder + "/head.bytes")
        try FileStore.writeAtomically(Array(meta.utf8), to: folder + "/head.meta")
    }
}
