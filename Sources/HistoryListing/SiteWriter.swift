import FileStore

/// Writes the site's pages under `Output/` the way thumbnails are published (temporary name,
/// fsync, rename, directory fsync: a reader never sees half a page), in batches so a few thousand
/// pages cost a few journal commits (more than a batch: no fsync each, one `syncfs` after them),
/// and keeps the manifest of the files it wrote
/// (`Output/.tracksnap/pages`: id, digest of the inputs it was written from, and the file's
/// size, modification time and inode as written), which it checks the files against.
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

    /// The files every listing writes (besides numbered pages, parts and detail pages).
    static let topFiles = [styleSheetName, "index.html", "index.json"]

    func detailPath(_ id: String) -> String { root + "/" + Self.detailDirectory + "/" + id + ".html" }

    /// Where the file a manifest entry names is, relative to `root`: a detail page for a track id
    /// (64 hex digits), else the entry's own name (`page-N.html`, `index/part-N.json`, a top file).
    static func relativePath(ofEntry id: String) -> String {
        isDetailID(id) ? detailDirectory + "/" + id + ".html" : id
    }

    /// Whether a manifest id names a detail page (a track id: 64 characters, no "/").
    static func isDetailID(_ id: String) -> Bool { id.utf8.count == 64 && !id.contains("/") }

    /// What the manifest keeps per file: the digest of the inputs it was written from, and what
    /// `lstat` said right after it was written, so that a file deleted, edited or replaced since is
    /// found with one `lstat` and written again.
    struct Entry: Equatable {
        var digest: UInt64
        /// Size, modification time and inode after writing; nil in a manifest from before they
        /// were kept (then the file is taken as it is found).
        var written: Written?
    }

    /// The file as written.
    struct Written: Equatable {
        var sizeBytes: Int
        var modificationNanoseconds: Int64
        var inode: UInt64

        init(_ status: FileStatus) {
            sizeBytes = status.sizeBytes
            modificationNanoseconds = status.modificationNanoseconds
            inode = status.inode
        }

        init?(_ fields: [String]) {
            guard fields.count == 3, let size = Int(fields[0]), let time = Int64(fields[1]), let inode = UInt64(fields[2]) else { return nil }
            sizeBytes = size
            modificationNanoseconds = time
            self.inode = inode
        }
    }

    /// Writes `files` (manifest ids, see `relativePath(ofEntry:)`) atomically, in order, and
    /// records each in `manifest` with its digest and its size, time and inode as written.
    /// More files than a batch are written without an fsync each and made durable by one
    /// `FileStore.syncFileSystem` at the end, before the caller records or links them.
    func write(_ files: [SitePlan.File], recordingIn manifest: inout [String: Entry]) throws(FileError) {
        let durability = Self.durability(writing: files.count)
        try write(files, durability: durability, recordingIn: &manifest)
        if durability == .byCaller { try FileStore.syncFileSystem(containing: root) }
    }

    /// How `count` files are made durable: an fsync each within a batch, or past a batch one
    /// `syncfs` after them all (the caller's).
    static func durability(writing count: Int) -> FileStore.Durability { count > batchSize ? .byCaller : .eachBatch }

    /// Writes `files` in batches with `durability`, recording each in `manifest`; a `.byCaller`
    /// caller syncs the file system after.
    func write(_ files: [SitePlan.File], durability: FileStore.Durability, recordingIn manifest: inout [String: Entry]) throws(FileError) {
        var start = 0
        while start < files.count {
            let batch = files[start..<min(files.count, start + Self.batchSize)]
            // Each file as written (its `fstat`: what `lstat` of its path would say after).
            let statuses = try FileStore.writeAtomically(
                batch.map { (bytes: $0.bytes, path: root + "/" + Self.relativePath(ofEntry: $0.id)) }, durability: durability)
            for (file, status) in zip(batch, statuses) { manifest[file.id] = Entry(digest: file.digest, written: Written(status)) }
            start += Self.batchSize
        }
    }

    /// Checks every file the manifest names with one `lstat`: an entry whose file is gone, or was
    /// changed or replaced since it was written (size, modification time or inode differ), is
    /// dropped, so the refresh writes the file again. Entries from an older manifest get what is
    /// found. Returns how many were dropped. (Cost: one `lstat` per page; the alternative, reading
    /// and hashing every page, is what a cold listing costs.) Without `checkingDetails`, detail
    /// pages are taken as written: the caller found their folder as the last complete listing left
    /// it (`ListingStamp`), which saves 100,000 `lstat` calls at 100,000 tracks.
    func verify(_ manifest: inout [String: Entry], checkingDetails: Bool = true) throws(FileError) -> Int {
        var damaged = 0
        for (id, entry) in manifest {
            if !checkingDetails && Self.isDetailID(id) { continue }
            let status = try FileStore.status(root + "/" + Self.relativePath(ofEntry: id))
            guard let status, status.isRegularFile else {
                manifest[id] = nil
                damaged += 1
                continue
            }
            if let written = entry.written {
                if written != Written(status) {
                    manifest[id] = nil
                    damaged += 1
                }
            } else {
                manifest[id]?.written = Written(status)
            }
        }
        return damaged
    }

    /// What `apply` did.
    struct Applied {
        /// Files written (detail pages, parts, numbered pages, top files).
        var filesWritten = 0
        /// Bytes of the files written.
        var bytesWritten = 0
        /// Stale files removed (see `removeStale`).
        var filesRemoved = 0
    }

    /// Carries out `plan`: the detail pages (`detailPages`, made from the plan's
    /// `detailPages`), then `beforeIndexFiles` (the overview, whose pages link the detail pages
    /// and are linked by the index pages), then the parts and numbered pages, then the top files,
    /// each batch written atomically and recorded in `manifest`; then removes what the listing no
    /// longer has.
    func apply(
        _ plan: SitePlan, detailPages: DetailPages, manifest: inout [String: Entry], sweepingDetails: Bool = true,
        beforeIndexFiles: () throws(FileError) -> Void = {}
    ) throws(FileError) -> Applied {
        try prepare()
        var applied = Applied()
        (applied.filesWritten, applied.bytesWritten) = try write(detailPages, recordingIn: &manifest)
        try beforeIndexFiles()
        for files in [plan.indexFiles, plan.topFiles] {
            try write(files, recordingIn: &manifest)
            applied.filesWritten += files.count
            applied.bytesWritten += files.reduce(0) { $0 + $1.bytes.count }
        }
        applied.filesRemoved = try removeStale(
            plan.removals, liveDetails: plan.liveDetails, pageCount: plan.pageCount, manifest: &manifest, sweepingDetails: sweepingDetails)
        return applied
    }

    /// Drops the manifest entries `removals` (`SitePlan.removals`) and removes what is on disk and
    /// should not be: detail pages of tracks not in `liveDetails`, numbered pages and index parts
    /// past `pageCount`, whether a manifest names them or not (a refresh that died after writing
    /// pages and before its manifest left them unnamed). Returns how many files were removed.
    /// Only names this writer makes are touched (`tracks/<64 hex>.html`, `page-N.html`,
    /// `index/part-N.json`). Without `sweepingDetails` the folder of detail pages is not listed
    /// (the caller found it as the last complete listing left it, so it holds no page a manifest
    /// does not name): the detail pages among `removals` are removed by name.
    func removeStale(
        _ removals: [String], liveDetails: Set<String>, pageCount: Int, manifest: inout [String: Entry], sweepingDetails: Bool = true
    ) throws(FileError) -> Int {
        for id in removals { manifest[id] = nil }
        var removed = 0
        if !sweepingDetails {
            for id in removals where Self.isDetailID(id) && !liveDetails.contains(id) && FileStore.exists(detailPath(id)) {
                try FileStore.remove(detailPath(id))
                removed += 1
            }
        }
        for name in try sweepingDetails ? FileStore.listDirectory(root + "/" + Self.detailDirectory) : [] where name.hasSuffix(".html") {
            let id = String(name.dropLast(5))
            guard id.utf8.count == 64, id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }), !liveDetails.contains(id)
            else { continue }
            try FileStore.remove(detailPath(id))
            removed += 1
        }
        for (directory, prefix, suffix) in [("", "page-", ".html"), (Self.partDirectory + "/", "part-", ".json")] {
            for name in try FileStore.listDirectory(root + "/" + directory) {
                guard let number = SitePlan.numbered(name, prefix: prefix, suffix: suffix), number < 1 || number > pageCount else { continue }
                try FileStore.remove(root + "/" + directory + name)
                removed += 1
            }
        }
        return removed
    }
}
