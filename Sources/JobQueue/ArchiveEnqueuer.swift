#if canImport(Glibc)
import Glibc
#endif
import FileStore

/// What `tracksnap enqueue` did.
package struct EnqueueReport: Sendable, Equatable {
    /// Track files queued (new or changed since they were last queued).
    package var queued = 0
    /// Track files unchanged since they were last queued (nothing done).
    package var unchanged = 0
    /// Files skipped because their extension is not a track format's.
    package var skippedNotTracks = 0
    /// Of `queued`, how many were copied (all of them: see `ArchiveEnqueuer`).
    package var copied = 0
    /// Files still changing after the settle time (being written): not queued this time, and
    /// not an error; the next enqueue takes them.
    package var stillChanging: [String] = []
    /// TrackSnap output folders found in the archive and not descended into (their index.json
    /// would be queued as a GeoJSON track that fails every night).
    package var skippedOutputFolders: [String] = []
    /// Entries of the walked folders passed over without an error, by reason ("a dot-file name",
    /// "a dangling link", "not a regular file"): counted in the summary.
    package var skippedQuietly: [String: Int] = [:]
    /// Symbolic links to folders, not followed (no cycles; a link may point anywhere).
    package var skippedFolderLinks: [String] = []
    /// Files and folders that could not be queued, with the reason; the rest were queued.
    package var skipped: [Skip] = []
    /// With `mirrors`: archive files gone since they were queued, whose jobs were forgotten.
    package var forgotten: [String] = []
    /// With `mirrors`: folders that are missing or where every file queued before is gone (an
    /// unmounted disk looks like that), so nothing in them was forgotten.
    package var mirrorRefused: [String] = []

    /// A path not queued, and why.
    package struct Skip: Sendable, Equatable {
        /// The file or folder.
        package var path: String
        /// Why, in words ("not a regular file (a FIFO)", "cannot open …: Permission denied").
        package var reason: String

        /// Creates a record of a skipped path.
        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// An empty report.
    package init() {}
}

/// Queues the track files under an archive's folders without ever moving, modifying or deleting
/// them: each becomes a private read-only copy (0400, in 0700 folders), staged in tmp/ and renamed
/// into new/.
///
/// Why copies and not hard links (which this used to make for files older than the settle time):
/// a link shares the user's inode, so an editor saving in place, or `touch` and a re-enqueue,
/// made the job in new/ and the finished one in done/ the same inode, and `rename` between two
/// links of one inode does nothing and reports success: the job stayed in running/, and the
/// track was quarantined and pruned from the site. A link also kept the user's permission bits
/// and changed under the queue when the file was edited. A copy costs the archive's size once.
///
/// A file modified within the settle time may still be being written: enqueue looks at it twice,
/// `settleSeconds` apart, and queues it only if nothing moved between the looks
/// (`ArchiveEnqueuer+Settle.swift`).
package struct ArchiveEnqueuer: Sendable {
    /// File name endings queued from an archive (case-insensitive). Content decides the format;
    /// this only keeps READMEs and photos out of the queue.
    package static let trackExtensions = [".gpx", ".tcx", ".fit", ".kml", ".kmz", ".geojson", ".json", ".csv"]

    /// The queue.
    package let queue: JobQueue
    /// Larger files are not queued (the readers' input limit, applied here too so that a huge
    /// file is not copied only to be refused). Default: 1 GiB.
    package var maximumFileBytes = 1 << 30
    /// `enqueue --mirror`: also forget the jobs of archive files under the given paths that are
    /// gone (see `JobQueue.forget`), so the next listing takes their tracks off the site.
    /// Default: false: the site is a history, and a deleted file's track stays.
    package var mirrors = false

    /// An enqueuer for `queue`.
    package init(queue: JobQueue) {
        self.queue = queue
    }

    /// Whether a file name looks like a track (optionally gzipped).
    package static func isTrackFileName(_ name: String) -> Bool {
        var lower = name.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        return trackExtensions.contains { lower.hasSuffix($0) }
    }

    /// Queues every track file under `paths` (files or folders, recursively).
    package func enqueue(_ paths: [String]) throws(FileError) -> EnqueueReport {
        try queue.prepare()
        var index = ArchiveIndex.load(queue.layout.archiveIndex)
        var report = EnqueueReport()
        let queueRoot = Self.absolute(queue.layout.root)
        // new/ read once: copies of a job given back with counts (NAME~a1) are superseded too.
        var readyFileNames: [String: [String]] = [:]
        for fileName in try FileStore.listDirectory(queue.layout.new) where !JobName.isIgnored(fileName) {
            readyFileNames[JobName.parseReady(fileName).name, default: []].append(fileName)
        }
        var stagedInodes: [String: UInt64] = [:]
        for path in paths {
            let firstLook = FileStore.nowNanoseconds()
            guard let status = try FileStore.statusFollowingLinks(path) else { throw FileError("find", path, code: 2) }
            var files: [(String, FileStatus)] = []
            if status.isDirectory {
                Self.walk(Self.absolute(path), skipping: queueRoot, into: &files, report: &report)
            } else if status.isRegularFile {
                files.append((Self.absolute(path), status))
            } else {
                report.skipped.append(EnqueueReport.Skip(path: path, reason: "not a regular file (\(status.kindDescription))"))
            }
            files = settle(files, index: index, firstLookNanoseconds: firstLook, report: &report)
            for (file, status) in files {
                if status.sizeBytes > maximumFileBytes {
                    report.skipped.append(
                        EnqueueReport.Skip(path: file, reason: "\(status.sizeBytes) bytes, more than the \(maximumFileBytes)-byte input limit"))
                    continue
                }
                let jobName = JobName.forArchiveFile(absolutePath: file)
                if index.isUnchanged(path: file, status: status)?.isForgotten == true {
                    report.skippedQuietly["forgotten ('tracksnap forget') and unchanged since", default: 0] += 1
                    continue
                }
                if let entry = index.isUnchanged(path: file, status: status), entry.jobName == jobName, jobExists(jobName) {
                    report.unchanged += 1
                    continue
                }
                do {
                    stagedInodes[jobName] = try stage(file, jobName: jobName, readyFileNames: readyFileNames[jobName] ?? [])
                    report.copied += 1
                } catch  where error.path == file || !error.isEnvironmental {
                    // One unreadable file (permissions, an I/O error on a bad sector) must not keep
                    // the rest of the archive out, nor make cron retry forever. A full or
                    // read-only queue (an error on the queue's side) still stops with 75.
                    report.skipped.append(EnqueueReport.Skip(path: file, reason: error.description))
                    continue
                }
                index.record(path: file, status: status, jobName: jobName)
                report.queued += 1
            }
        }
        try removeOlderCopies(ofStaged: stagedInodes)
        if mirrors {
            // new/ read again: the walk may have taken minutes, and copies came and went.
            var readyNow: [String: [String]] = [:]
            for fileName in try FileStore.listDirectory(queue.layout.new) where !JobName.isIgnored(fileName) {
                readyNow[JobName.parseReady(fileName).name, default: []].append(fileName)
            }
            try forgetDeletedFiles(under: paths, index: &index, readyFileNames: readyNow, report: &report)
        }
        if report.queued > 0 { try FileStore.syncDirectory(queue.layout.new) }
        try index.save(queue.layout.archiveIndex)
        return report
    }

    /// `--mirror`: forgets the jobs of indexed archive files under `paths` that no longer exist,
    /// except in a folder that is missing or whose every indexed file is gone: an unmounted
    /// disk (`/archive/phone` under `/archive`) looks like that, and done/ may hold the only
    /// copy of its tracks. Such folders are named in `mirrorRefused`.
    private func forgetDeletedFiles(
        under paths: [String], index: inout ArchiveIndex, readyFileNames: [String: [String]], report: inout EnqueueReport
    ) throws(FileError) {
        for root in paths.map(Self.absolute) {
            let prefix = root == "/" ? root : root + "/"
            var folders: [String: (indexed: Int, gone: [(path: String, entry: ArchiveIndex.Entry)])] = [:]
            for (path, entry) in index.entries where path == root || path.hasPrefix(prefix) {
                let folder = Self.parentFolder(of: path)
                folders[folder, default: (0, [])].indexed += 1
                if (try? FileStore.statusFollowingLinks(path)) ?? nil == nil { folders[folder, default: (0, [])].gone.append((path, entry)) }
            }
            for (folder, files) in folders.sorted(by: { $0.key < $1.key }) where !files.gone.isEmpty {
                let isThere = ((try? FileStore.statusFollowingLinks(folder)) ?? nil)?.isDirectory == true
                guard isThere && files.gone.count < files.indexed else {
                    if !report.mirrorRefused.contains(folder) { report.mirrorRefused.append(folder) }
                    continue
                }
                for (path, entry) in files.gone.sorted(by: { $0.path < $1.path }) {
                    // A tombstone's job is gone already: only the entry goes.
                    guard !entry.isForgotten else {
                        index.remove(path: path)
                        continue
                    }
                    try queue.removeCopies(
                        of: entry.jobName, readyFileNames: readyFileNames[entry.jobName] ?? [], keepingInode: nil, includingDone: true)
                    index.remove(jobName: entry.jobName)
                    report.forgotten.append(path)
                }
            }
        }
    }

    /// The folder holding `path` ("/" for a file at the root).
    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private func jobExists(_ name: String) -> Bool {
        let layout = queue.layout
        if FileStore.exists(layout.done + "/" + name) || FileStore.exists(layout.new + "/" + name) || FileStore.exists(layout.failed + "/" + name) {
            return true
        }
        // Being rendered (or claimed by a run that died, which the reaper gives back): queueing
        // the unchanged file again would supersede that claim and throw its work away.
        let claims = (try? FileStore.listDirectory(layout.running)) ?? []
        return claims.contains { Claim(fileName: $0)?.name == name }
    }

    /// After the whole archive was staged (which can take minutes): removes every copy of each
    /// staged job that is not the staged file itself. An older version may have come back into
    /// new/ meanwhile under another name (`NAME~a0r1` from the reaper, `NAME~a1` from a worker)
    /// or been claimed from there; left beside the new version, it could finish last and land in
    /// done/ over it. One listing of new/ and one of running/ for the whole call. A name whose
    /// staged file is nowhere any more (another enqueue renamed a later copy over it) is left
    /// alone: the copies there are newer.
    private func removeOlderCopies(ofStaged stagedInodes: [String: UInt64]) throws(FileError) {
        guard !stagedInodes.isEmpty else { return }
        var others: [(path: String, jobName: String)] = []
        var stagedFound = Set<String>()
        func look(at path: String, jobName: String) throws(FileError) {
            guard let inode = stagedInodes[jobName], let status = try FileStore.status(path) else { return }
            if status.inode == inode { stagedFound.insert(jobName) } else { others.append((path, jobName)) }
        }
        for fileName in try FileStore.listDirectory(queue.layout.new) where !JobName.isIgnored(fileName) {
            try look(at: queue.layout.new + "/" + fileName, jobName: JobName.parseReady(fileName).name)
        }
        for fileName in try FileStore.listDirectory(queue.layout.running) where !fileName.hasPrefix(".") {
            guard let claim = Claim(fileName: fileName) else { continue }
            try look(at: queue.layout.running + "/" + fileName, jobName: claim.name)
        }
        for (_, jobName) in others where !stagedFound.contains(jobName) {
            // Finished already: done/ holds the staged version, and an older copy must not follow it.
            if try FileStore.status(queue.layout.done + "/" + jobName)?.inode == stagedInodes[jobName] { stagedFound.insert(jobName) }
        }
        for (path, jobName) in others where stagedFound.contains(jobName) {
            try FileStore.remove(path)
        }
    }

    /// Copies into tmp/ (owner read-only), then renames into new/, superseding every older copy
    /// of the job (see "versions" in JobQueue.swift): once before the rename, so that no older
    /// version can be claimed beside it, and once after, for a claim made in between (and
    /// `removeOlderCopies` once the whole call has staged). Returns the staged file's inode.
    private func stage(_ file: String, jobName: String, readyFileNames: [String]) throws(FileError) -> UInt64 {
        let staged = queue.layout.tmp + "/" + TemporaryName.make(for: jobName)
        // The copy keeps the file's mtime: the listing dates a track without times by it.
        try FileStore.copyFile(file, to: staged, permissions: 0o400, maximumBytes: maximumFileBytes, keepsModificationTime: true)
        do throws(FileError) {
            guard let inode = try FileStore.status(staged)?.inode else { throw FileError("find", staged, code: ENOENT) }
            try queue.removeCopies(of: jobName, readyFileNames: readyFileNames, keepingInode: inode)
            try FileStore.move(staged, to: queue.layout.new + "/" + jobName)
            try queue.removeCopies(of: jobName, readyFileNames: [], keepingInode: inode)
            return inode
        } catch {
            try? FileStore.remove(staged)
            throw error
        }
    }

    /// Collects track files under `directory`: dot-prefixed names are skipped, symbolic links to
    /// files are followed, symbolic links to folders are not (no cycles), nor is the queue itself,
    /// nor a TrackSnap output folder (one holding `.tracksnap/records`). A folder or file that
    /// cannot be read is recorded in the report and the walk goes on.
    private static func walk(_ directory: String, skipping queueRoot: String, into files: inout [(String, FileStatus)], report: inout EnqueueReport) {
        guard directory != queueRoot else { return }
        if FileStore.exists(directory + "/.tracksnap/records") {
            report.skippedOutputFolders.append(directory)
            return
        }
        let names: [String]
        do {
            let listing = try FileStore.listDirectoryCheckingNames(directory)
            names = listing.names.sorted()
            for name in listing.notUTF8 {
                report.skipped.append(EnqueueReport.Skip(path: directory + "/" + name, reason: "the name is not UTF-8; rename the file to queue it"))
            }
        } catch {
            report.skipped.append(EnqueueReport.Skip(path: directory, reason: error.description))
            return
        }
        for name in names {
            guard !name.hasPrefix(".") else {
                // Hidden files and folders (".git", editors' swap files, "..gpx") are not tracks.
                if name != "." && name != ".." { report.skippedQuietly["a dot-file name", default: 0] += 1 }
                continue
            }
            let path = directory + "/" + name
            guard var status = (try? FileStore.status(path)) ?? nil else { continue }
            if status.isDirectory {
                walk(path, skipping: queueRoot, into: &files, report: &report)
                continue
            }
            if status.isSymbolicLink {
                // A link to a file is queued as a copy of what it points to, inside the archive or
                // not (it is the user's archive); a link to a folder is named and not followed.
                guard let target = (try? FileStore.statusFollowingLinks(path)) ?? nil else {
                    report.skippedQuietly["a dangling link", default: 0] += 1
                    continue
                }
                if target.isDirectory { report.skippedFolderLinks.append(path) }
                guard target.isRegularFile else { continue }
                status = target
            }
            guard status.isRegularFile else {
                if !status.isDirectory { report.skippedQuietly["not a regular file", default: 0] += 1 }
                continue
            }
            guard isTrackFileName(name) else {
                report.skippedNotTracks += 1
                continue
            }
            files.append((path, status))
        }
    }

    /// `path` made absolute against the current directory, without "." components.
    package static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileStore.currentDirectory() + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }
}
