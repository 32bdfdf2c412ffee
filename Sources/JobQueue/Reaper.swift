import FileStore

/// What a reaper pass did.
package struct ReapReport: Sendable, Equatable {
    /// Stale claims given back to new/ (their run died: no attempt charged).
    package var returned: [String] = []
    /// Stale claims quarantined because their runs died `maxInterruptions` times with them in flight.
    package var quarantined: [String] = []
    /// Stale claims removed because a newer copy of their job waits in new/ (an edited archive
    /// file queued again after the run died): given back, the old version would render too.
    package var superseded: [String] = []
    /// Staging files of dead writers removed.
    package var temporariesRemoved = 0

    /// An empty report.
    package init() {}
}

extension JobQueue {
    /// Finds claims whose owner is gone and gives them back, then sweeps staging files of dead
    /// writers from `stagingDirectories` (and tmp/).
    ///
    /// A claim left behind means its whole run died: while a run's supervisor lives, it sees each
    /// worker that dies and settles that worker's claims itself (an attempt charged to the job
    /// the worker was rendering). So the reaper charges no attempt, which would blame every job
    /// in flight for an OOM kill, a reboot or a preemption; it counts an interruption instead, and
    /// quarantines a job that was in flight at `maxInterruptions` run deaths.
    ///
    /// Stale means: on this host, the pid is gone or now belongs to a process that started later;
    /// from another host, the claim's mtime (the heartbeat) is older than `leaseSeconds`, measured
    /// against the file system's own clock so that clock skew between machines does not matter.
    package func reap(leaseSeconds: Double, stagingDirectories: [String] = []) throws(FileError) -> ReapReport {
        var report = ReapReport()
        let fileSystemNow = try fileSystemNowNanoseconds()
        var readyNames: Set<String>?
        for fileName in try FileStore.listDirectory(layout.running) where !fileName.hasPrefix(".") {
            let path = layout.running + "/" + fileName
            var message: String
            let claim: Claim
            if let parsed = Claim(fileName: fileName) {
                guard isStale(parsed, fileName: fileName, now: fileSystemNow, leaseSeconds: leaseSeconds) else { continue }
                claim = parsed
                message =
                    claim.host == identity.host
                    ? "the run was killed (its worker, pid \(claim.pid), is gone and nothing settled its claim)"
                    : "the run on \(claim.host) stopped its heartbeat for more than \(Int(leaseSeconds)) s"
            } else {
                // No owner to ask: a hand-made or damaged claim name. Its mtime is the archive
                // file's; the rename into running/ set its ctime. Left alone for a lease, as a
                // silent foreign host's claim is, then given back.
                guard let status = try FileStore.status(path),
                    Double(fileSystemNow - max(status.modificationNanoseconds, status.statusChangeNanoseconds)) / 1e9 > leaseSeconds
                else { continue }
                claim = Self.looseClaim(fileName)
                message = "its claim \(fileName) names no process that could be checked, and it was older than the \(Int(leaseSeconds)) s lease"
            }
            if readyNames == nil {
                readyNames = Set(try FileStore.listDirectory(layout.new).filter { !JobName.isIgnored($0) }.map { JobName.parseReady($0).name })
            }
            if readyNames?.contains(claim.name) == true {
                try FileStore.remove(path)
                report.superseded.append(claim.name)
                continue
            }
            if try returnAfterRunDied(claim, path: path, message: message) {
                report.quarantined.append(claim.name)
            } else {
                report.returned.append(claim.name)
            }
        }
        report.temporariesRemoved += try sweepHeartbeats(now: fileSystemNow, leaseSeconds: leaseSeconds)
        for directory in [layout.tmp] + stagingDirectories {
            report.temporariesRemoved += try sweepTemporaries(in: directory, now: fileSystemNow, leaseSeconds: leaseSeconds)
        }
        return report
    }

    /// A claim description for a running/ name that does not parse: the job name and counts when
    /// the counts field (`a<k>` or `a<k>r<n>`) is where a claim has it, else the whole name as a
    /// first attempt. Its owner is unknown (pid 0).
    static func looseClaim(_ fileName: String) -> Claim {
        let fields = fileName.split(separator: "~", omittingEmptySubsequences: false)
        if fields.count >= 5, let counts = JobName.parseCounts(fields[fields.count - 4]), counts.attempts >= 1 {
            let name = fields[..<(fields.count - 4)].joined(separator: "~")
            if JobName.isValid(name) {
                return Claim(name: name, attempt: counts.attempts, interruptions: counts.interruptions, host: "", pid: 0, startTicks: 0)
            }
        }
        return Claim(name: fileName, attempt: 1, host: "", pid: 0, startTicks: 0)
    }

    private func isStale(_ claim: Claim, fileName: String, now: Int64, leaseSeconds: Double) -> Bool {
        if claim.host == identity.host {
            return !ProcessIdentity.isAlive(pid: claim.pid, startTicks: claim.startTicks)
        }
        // Another host: the claimer's heartbeat file, else the claim's own mtime, must be fresh.
        let times = [layout.heartbeatPath(of: claim.owner), layout.running + "/" + fileName].compactMap { path in
            (try? FileStore.status(path))??.modificationNanoseconds
        }
        guard let freshest = times.max() else { return false }
        return Double(now - freshest) / 1e9 > leaseSeconds
    }

    /// Removes `.NAME.tmp~host~pid~rand` files whose writer is dead (this host) or that are older
    /// than the lease (any host), and enqueue's staged files in tmp/ on the same terms.
    private func sweepTemporaries(in directory: String, now: Int64, leaseSeconds: Double) throws(FileError) -> Int {
        var removed = 0
        for name in try FileStore.listDirectory(directory) {
            guard let writer = TemporaryName.writer(of: name) else { continue }
            let path = directory + "/" + name
            // Staging names carry no start time: a reused pid keeps its file until it is lease-old.
            let isDeadLocalWriter = writer.host == identity.host && ProcessIdentity.startTicks(of: writer.pid) == nil
            var isOld = false
            if let status = try FileStore.status(path) {
                isOld = Double(now - status.modificationNanoseconds) / 1e9 > leaseSeconds
            }
            if isDeadLocalWriter || isOld {
                try FileStore.remove(path)
                removed += 1
            }
        }
        return removed
    }

    /// Removes heartbeat files of dead local workers and of other hosts' workers silent for a lease.
    private func sweepHeartbeats(now: Int64, leaseSeconds: Double) throws(FileError) -> Int {
        var removed = 0
        for name in try FileStore.listDirectory(layout.running) where name.hasPrefix(QueueLayout.heartbeatPrefix) {
            guard let owner = ProcessIdentity(fileNameSuffix: name.dropFirst(QueueLayout.heartbeatPrefix.count)) else { continue }
            let path = layout.running + "/" + name
            let isDead =
                owner.host == identity.host
                ? !ProcessIdentity.isAlive(pid: owner.pid, startTicks: owner.startTicks)
                : ((try FileStore.status(path)).map { Double(now - $0.modificationNanoseconds) / 1e9 > leaseSeconds } ?? false)
            if isDead {
                try FileStore.remove(path)
                removed += 1
            }
        }
        return removed
    }

    /// The file system's idea of now: the mtime of a file just touched in the queue (machines
    /// sharing storage may disagree about the time; they agree about the server's).
    func fileSystemNowNanoseconds() throws(FileError) -> Int64 {
        let probe = layout.root + "/.clock"
        if !(try FileStore.touch(probe)) {
            try FileStore.writeAtomically([], to: probe)
        }
        return try FileStore.status(probe)?.modificationNanoseconds ?? FileStore.nowNanoseconds()
    }
}
