import FileStore

/// What `tracksnap forget` did.
package struct ForgetReport: Sendable, Equatable {
    /// Job names removed from the queue (and from the archive index).
    package var forgotten: [String] = []
    /// Arguments that named no job and no archive file the queue knows.
    package var unknown: [String] = []

    /// An empty report.
    package init() {}
}

extension JobQueue {
    /// Removes jobs from every folder (new/, running/, done/, failed/ with the sidecar) and from
    /// the archive index, so that the next listing drops their tracks from the site and prunes
    /// their images and pages. An archive file of a forgotten job that is still there keeps a
    /// tombstone in the index (its size, mtime and inode): enqueue passes over it until it
    /// changes, and then queues it as a new version. An argument with a "/" is an archive
    /// file's path (deleted or not), the rest job names. A track deleted from the archive is
    /// not forgotten by itself: the site is a history, and an archive on an unmounted disk must
    /// not empty it.
    package func forget(_ namesOrPaths: [String]) throws(FileError) -> ForgetReport {
        var index = ArchiveIndex.load(layout.archiveIndex)
        var readyFileNames: [String: [String]] = [:]
        for fileName in try FileStore.listDirectory(layout.new) where !JobName.isIgnored(fileName) {
            readyFileNames[JobName.parseReady(fileName).name, default: []].append(fileName)
        }
        var report = ForgetReport()
        var indexChanged = false
        for argument in namesOrPaths {
            var name = argument
            var archivePaths: [String] = []
            var wasForgotten = false
            if argument.contains("/") {
                let path = ArchiveEnqueuer.absolute(argument)
                let entry = index.entries[path]
                wasForgotten = entry?.isForgotten == true
                name = entry.flatMap { $0.isForgotten ? nil : $0.jobName } ?? JobName.forArchiveFile(absolutePath: path)
                archivePaths.append(path)
            }
            guard JobName.isValid(name) else {
                report.unknown.append(argument)
                continue
            }
            archivePaths += index.entries.filter { $0.value.jobName == name }.map(\.key)
            let removedFiles = try removeCopies(of: name, readyFileNames: readyFileNames[name] ?? [], keepingInode: nil, includingDone: true)
            let removedEntries = index.remove(jobName: name)
            indexChanged = indexChanged || removedEntries > 0
            guard removedFiles > 0 || removedEntries > 0 || wasForgotten else {
                report.unknown.append(argument)
                continue
            }
            report.forgotten.append(name)
            // Still in the archive: a tombstone, or the next enqueue would queue it again.
            for path in Set(archivePaths) {
                if let status = (try? FileStore.statusFollowingLinks(path)) ?? nil, status.isRegularFile {
                    index.recordForgotten(path: path, status: status)
                    indexChanged = true
                } else if index.entries[path]?.isForgotten == true {
                    index.remove(path: path)
                    indexChanged = true
                }
            }
        }
        if indexChanged { try index.save(layout.archiveIndex) }
        if !report.forgotten.isEmpty { try FileStore.syncDirectory(layout.done) }
        return report
    }
}
