import FileStore

/// What `tracksnap enqueue` did.
public struct EnqueueReport: Sendable, Equatable {
    /// Track files queued (new or changed since they were last queued).
    public var queued = 0
    /// Track files unchanged since they were last queued (nothing done).
    public var unchanged = 0
    /// Files skipped because their extension is not a track format's.
    public var skippedNotTracks = 0
    /// Of `queued`, how many were copied rather than hard-linked.
    public var copied = 0

    /// An empty report.
    public init() {}
}

/// Queues the track files under an archive's folders without ever moving, modifying or deleting
/// them: each becomes a hard link in the queue (same file system, older than the settle time) or
/// a read-only copy, staged in tmp/ and renamed into new/.
public struct ArchiveEnqueuer: Sendable {
    /// File name endings queued from an archive (case-insensitive). Content decides the format;
    /// this only keeps READMEs and photos out of the queue.
    public static let trackExtensions = [".gpx", ".tcx", ".fit", ".kml", ".kmz", ".geojson", ".json", ".csv"]

    /// The queue.
    public let queue: JobQueue

    /// An enqueuer for `queue`.
    public init(queue: JobQueue) {
        self.queue = queue
    }

    /// Whether a file name looks like a track (optionally gzipped).
    public static func isTrackFileName(_ name: String) -> Bool {
        var lower = name.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        return trackExtensions.contains { lower.hasSuffix($0) }
    }

    /// Queues every track file under `paths` (files or folders, recursively).
    public func enqueue(_ paths: [String]) throws(FileError) -> EnqueueReport {
        try queue.prepare()
        var index = ArchiveIndex.load(queue.layout.archiveIndex)
        var report = EnqueueReport()
        let queueRoot = Self.absolute(queue.layout.root)
        let now = FileStore.nowNanoseconds()
        for path in paths {
            guard let status = try FileStore.statusFollowingLinks(path) else { throw FileError("find", path, code: 2) }
            var files: [(String, FileStatus)] = []
            if status.isDirectory {
                try Self.walk(Self.absolute(path), skipping: queueRoot, into: &files, report: &report)
            } else {
                files.append((Self.absolute(path), status))
            }
            for (file, status) in files {
                let jobName = JobName.forArchiveFile(absolutePath: file)
                if let entry = index.isUnchanged(path: file, status: status), entry.jobName == jobName, jobExists(jobName) {
                    report.unchanged += 1
                    continue
                }
                if try stage(file, status: status, jobName: jobName, now: now) { report.copied += 1 }
                index.record(path: file, status: status, jobName: jobName)
                report.queued += 1
            }
        }
        if report.queued > 0 { try FileStore.syncDirectory(queue.layout.new) }
        try index.save(queue.layout.archiveIndex)
        return report
    }

    private func jobExists(_ name: String) -> Bool {
        let layout = queue.layout
        return FileStore.exists(layout.done + "/" + name) || FileStore.exists(layout.new + "/" + name)
            || FileStore.exists(layout.failed + "/" + name)
    }

    /// Links or copies into tmp/, then renames into new/. Returns true when it copied.
    private func stage(_ file: String, status: FileStatus, jobName: String, now: Int64) throws(FileError) -> Bool {
        let staged = queue.layout.tmp + "/" + TemporaryName.make(for: jobName)
        // A file modified within the settle time might still be growing; a hard link would look
        // unsettled in new/ and wait. A read-only copy is sealed and can be claimed at once.
        let isRecent = Double(now - status.modificationNanoseconds) / 1e9 < queue.settleSeconds
        var copied = false
        let linked = isRecent ? false : try FileStore.hardLink(file, to: staged)
        if !linked {
            try FileStore.copyFile(file, to: staged, permissions: 0o444)
            copied = true
        }
        do {
            try FileStore.move(staged, to: queue.layout.new + "/" + jobName)
        } catch {
            try? FileStore.remove(staged)
            throw error
        }
        return copied
    }

    /// Collects track files under `directory`: dot-prefixed names are skipped, symbolic links to
    /// files are followed, symbolic links to folders are not (no cycles), nor is the queue itself.
    private static func walk(_ directory: String, skipping queueRoot: String, into files: inout [(String, FileStatus)], report: inout EnqueueReport)
        throws(FileError)
    {
        guard directory != queueRoot else { return }
        for name in try FileStore.listDirectory(directory).sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            guard var status = try FileStore.status(path) else { continue }
            if status.isDirectory {
                try walk(path, skipping: queueRoot, into: &files, report: &report)
                continue
            }
            if status.isSymbolicLink {
                guard let target = try FileStore.statusFollowingLinks(path), target.isRegularFile else { continue }
                status = target
            }
            guard status.isRegularFile else { continue }
            guard isTrackFileName(name) else {
                report.skippedNotTracks += 1
                continue
            }
            files.append((path, status))
        }
    }

    /// `path` made absolute against the current directory, without "." components.
    public static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileStore.currentDirectory() + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }
}
