import FileStore

/// Writes the site's pages under `Output/` the way thumbnails are published (temporary name,
/// fsync, rename, directory fsync: a reader never sees half a page), in batches so a few thousand
/// pages cost a few journal commits, and keeps the manifest of detail pages
/// (`Output/.tracksnap/pages`: id, tab, digest of the inputs it was written from).
struct SiteWriter {
    /// The shared style sheet's file name.
    static let styleSheetName = "site.css"
    /// Folder of the detail pages, relative to Output/.
    static let detailDirectory = "tracks"
    /// Files renamed per batch (each holds an open descriptor until its fsync).
    static let batchSize = 256

    let root: String
    let manifestPath: String

    /// Folder of the parts of index.json, relative to Output/.
    static let partDirectory = "index"

    /// Part `number` of index.json (the tracks of numbered page `number`), relative to Output/.
    static func partPath(_ number: Int) -> String { partDirectory + "/part-\(number).json" }

    func prepare() throws(FileError) {
        try FileStore.createDirectories(root + "/" + Self.detailDirectory)
        try FileStore.createDirectories(root + "/" + Self.partDirectory)
    }

    /// Writes `files` (paths relative to `root`) atomically, in order.
    func write(_ files: [(path: String, bytes: [UInt8])]) throws(FileError) {
        var start = 0
        while start < files.count {
            let batch = files[start..<min(files.count, start + Self.batchSize)]
            try FileStore.writeAtomically(batch.map { (bytes: $0.bytes, path: root + "/" + $0.path) })
            start += Self.batchSize
        }
    }

    func detailPath(_ id: String) -> String { root + "/" + Self.detailDirectory + "/" + id + ".html" }

    func loadManifest() -> [String: UInt64] {
        var manifest: [String: UInt64] = [:]
        guard let bytes = try? FileStore.readFile(manifestPath, maximumBytes: 1 << 30) else { return manifest }
        TabSeparated.forEachRecord(in: bytes) { fields in
            guard fields.count == 2, let digest = UInt64(String(decoding: bytes[fields[1]], as: UTF8.self), radix: 16) else { return }
            manifest[String(decoding: bytes[fields[0]], as: UTF8.self)] = digest
        }
        return manifest
    }

    func saveManifest(_ manifest: [String: UInt64]) throws(FileError) {
        var text = ""
        text.reserveCapacity(manifest.count * 82)
        for (id, digest) in manifest.sorted(by: { $0.key < $1.key }) { text += id + "\t" + String(digest, radix: 16) + "\n" }
        try FileStore.writeAtomically(Array(text.utf8), to: manifestPath)
    }

    /// Removes detail pages of tracks no longer listed and index pages past the last one; returns
    /// how many. Only names this writer makes are touched (`tracks/<64 hex>.html`, `page-N.html`).
    func removeStale(liveDetails: Set<String>, pageCount: Int, manifest: inout [String: UInt64], manifestWasEmpty: Bool) throws(FileError) -> Int {
        var removed = 0
        for id in manifest.keys where id.utf8.count == 64 && !liveDetails.contains(id) {
            manifest[id] = nil
            if FileStore.exists(detailPath(id)) {
                try FileStore.remove(detailPath(id))
                removed += 1
            }
        }
        // Without a manifest (first refresh, or state lost) look at the folder itself; otherwise
        // the manifest names every page written, and listing 100,000 names is skipped.
        if manifestWasEmpty {
            for name in try FileStore.listDirectory(root + "/" + Self.detailDirectory) where name.hasSuffix(".html") {
                let id = String(name.dropLast(5))
                guard id.utf8.count == 64, id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }), !liveDetails.contains(id)
                else { continue }
                try FileStore.remove(detailPath(id))
                removed += 1
            }
        }
        for name in try FileStore.listDirectory(root) where name.hasPrefix("page-") && name.hasSuffix(".html") {
            guard let number = Int(name.dropFirst(5).dropLast(5)), number > pageCount else { continue }
            try FileStore.remove(root + "/" + name)
            manifest[name] = nil
            removed += 1
        }
        for name in try FileStore.listDirectory(root + "/" + Self.partDirectory) where name.hasPrefix("part-") && name.hasSuffix(".json") {
            guard let number = Int(name.dropFirst(5).dropLast(5)), number > pageCount else { continue }
            try FileStore.remove(root + "/" + Self.partPath(number))
            manifest[Self.partPath(number)] = nil
            removed += 1
        }
        return removed
    }
}
