import FileStore

extension SiteWriter {
    /// Where a first listing's detail pages are written before they are published as
    /// `tracks/` with one rename (inside the listing's state folder, so on the same file system).
    var stagingDirectory: String { FileStore.split(manifestPath).directory + "/staged-" + Self.detailDirectory }

    /// Writes `files` (detail pages) when `tracks/` is empty, as a first listing finds it: into
    /// `stagingDirectory` under their final names on every core, one `syncfs`, then one rename of
    /// the folder over the empty `tracks/` (rename(2) replaces an empty folder), so a reader sees
    /// no pages, then all of them. Records each in `manifest` as `write` does. Returns false, having
    /// written nothing, when the folder holds anything or there are no more pages than a batch.
    ///
    /// Why: at 100,000 tracks, a temporary name and a rename a page in a folder that grows to
    /// 100,000 entries were a third of a cold listing's writing (`perf`: the rename's directory
    /// lookups and the second directory entry). A staging folder left by a killed refresh is
    /// removed first; the manifest never names its pages, so nothing else depends on it.
    func writeIntoEmptyDetailFolder(_ files: [SitePlan.File], recordingIn manifest: inout [String: Entry]) throws(FileError) -> Bool {
        let folder = root + "/" + Self.detailDirectory
        guard files.count > Self.batchSize, files.allSatisfy({ Self.isDetailID($0.id) }), try FileStore.isEmptyDirectory(folder) else {
            return false
        }
        let staging = stagingDirectory
        try FileStore.removeFlatDirectory(staging)
        try FileStore.createDirectories(staging)
        let failures = EveryCore.map(files) { file -> FileError? in
            do throws(FileError) {
                try FileStore.writeNewFile(file.bytes, to: staging + "/" + file.id + ".html")
                return nil
            } catch {
                return error
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first {
            try? FileStore.removeFlatDirectory(staging)
            throw failure
        }
        try FileStore.syncFileSystem(containing: staging)
        try FileStore.move(staging, to: folder)
        try FileStore.syncDirectory(root)
        for file in files {
            let status = try FileStore.status(detailPath(file.id))
            manifest[file.id] = Entry(digest: file.digest, written: status.map(Written.init))
        }
        return true
    }
}
