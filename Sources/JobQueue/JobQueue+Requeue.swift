import FileStore

extension JobQueue {
    /// Puts a finished job back in new/ (settings changed, images lost), unless another version
    /// of it is live (`liveJobNames`, or the queue's folders read now when nil): a copy waiting
    /// in new/ under any counts, a claim in running/ (a dead run's too: the reaper gives it back)
    /// or a quarantine is newer than done/, and a second live copy would let the older version
    /// win. Returns whether it moved.
    package func requeueFinished(_ name: String, liveJobNames: Set<String>? = nil) throws(FileError) -> Bool {
        let live: Set<String>
        if let liveJobNames { live = liveJobNames } else { live = try self.liveJobNames() }
        guard !live.contains(name) else { return false }
        return try FileStore.move(layout.done + "/" + name, to: layout.new + "/" + name)
    }

    /// The names of the jobs with a copy in new/ (any counts), running/ (any claim, its name
    /// parsed or not) or failed/: read once for a pass of `requeueFinished`.
    package func liveJobNames() throws(FileError) -> Set<String> {
        var names = Set<String>()
        for fileName in try FileStore.listDirectory(layout.new) where !JobName.isIgnored(fileName) {
            names.insert(JobName.parseReady(fileName).name)
        }
        for fileName in try FileStore.listDirectory(layout.running) where !fileName.hasPrefix(".") {
            names.insert(Claim(fileName: fileName)?.name ?? Self.looseClaim(fileName).name)
        }
        for fileName in try FileStore.listDirectory(layout.failed) where !fileName.hasPrefix(".") && !fileName.hasSuffix(".error") {
            names.insert(fileName)
        }
        return names
    }

    /// Puts back in new/ every finished job `isSelected` picks (by name), reading the live names
    /// once for the pass (see `requeueFinished(_:liveJobNames:)`). Returns the names moved, in
    /// done/'s listing order.
    package func requeueFinished(where isSelected: (String) -> Bool) throws(FileError) -> [String] {
        let live = try liveJobNames()
        var moved: [String] = []
        for job in try FileStore.listDirectory(layout.done) where !job.hasPrefix(".") && isSelected(job) {
            if try requeueFinished(job, liveJobNames: live) { moved.append(job) }
        }
        return moved
    }

    /// The finished jobs among `names` whose file in done/ is the archive file itself (same inode
    /// as enqueue's index records): a queue from before enqueue made copies holds hard links, so
    /// editing the archive file changed the job's bytes in place.
    package func finishedJobsLinkedToArchive(_ names: some Sequence<String>) throws(FileError) -> Set<String> {
        var archiveInodes: [String: UInt64] = [:]
        for entry in ArchiveIndex.load(layout.archiveIndex).entries.values { archiveInodes[entry.jobName] = entry.inode }
        var linked = Set<String>()
        for job in names {
            guard let inode = try FileStore.status(layout.done + "/" + job)?.inode, inode == archiveInodes[job] else { continue }
            linked.insert(job)
        }
        return linked
    }
}
