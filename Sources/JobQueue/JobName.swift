import ContentHash

/// A job in new/ that may be claimed.
package struct ReadyJob: Sendable, Equatable {
    /// The job's name, without any attempt suffix (the name in done/ and failed/).
    package var name: String
    /// The file name in new/ (`name`, `name~a<k>` or `name~a<k>r<n>`).
    package var fileName: String
    /// Attempts already used (crashes, timeouts, render errors).
    package var previousAttempts: Int
    /// Whole runs that died while this job was in flight (not charged as attempts).
    package var interruptions: Int

    /// Creates a description of a ready job.
    package init(name: String, fileName: String, previousAttempts: Int, interruptions: Int = 0) {
        self.name = name
        self.fileName = fileName
        self.previousAttempts = previousAttempts
        self.interruptions = interruptions
    }
}

/// A claimed job: `running/NAME~a<k>~<host>~<pid>~<start ticks>`, or `…~a<k>r<n>~…` when n runs
/// died while it was in flight.
package struct Claim: Sendable, Equatable {
    /// The job's name.
    package var name: String
    /// This attempt, 1-based.
    package var attempt: Int
    /// Whole runs that died while this job was in flight before this claim.
    package var interruptions: Int
    /// The claiming host.
    package var host: String
    /// The claiming process.
    package var pid: Int32
    /// The claiming process's start time in clock ticks since boot (tells a reused pid apart).
    package var startTicks: UInt64

    /// Creates a claim description.
    package init(name: String, attempt: Int, interruptions: Int = 0, host: String, pid: Int32, startTicks: UInt64) {
        self.name = name
        self.attempt = attempt
        self.interruptions = interruptions
        self.host = host
        self.pid = pid
        self.startTicks = startTicks
    }

    /// The process that made the claim.
    package var owner: ProcessIdentity { ProcessIdentity(host: host, pid: pid, startTicks: startTicks) }

    /// The file name in running/.
    package var fileName: String { "\(name)~" + JobName.countsField(attempts: attempt, interruptions: interruptions) + "~" + owner.fileNameSuffix }

    /// Parses a running/ file name from the right (a job name may itself contain `~`).
    package init?(fileName: String) {
        let fields = fileName.split(separator: "~", omittingEmptySubsequences: false)
        guard fields.count >= 5 else { return nil }
        let count = fields.count
        guard let counts = JobName.parseCounts(fields[count - 4]), counts.attempts >= 1,
            let owner = ProcessIdentity(fileNameSuffix: fields[(count - 3)...].joined(separator: "~")[...])
        else { return nil }
        self.init(
            name: fields[..<(count - 4)].joined(separator: "~"), attempt: counts.attempts, interruptions: counts.interruptions,
            host: owner.host, pid: owner.pid, startTicks: owner.startTicks)
    }
}

/// Job naming rules shared by enqueue, claim and status.
package enum JobName {
    /// Names the queue never touches: dotfiles (temporaries, editors' swap files) and the partial
    /// files upload tools write before renaming (`.part`, `.partial`, `.tmp`, `.crdownload`).
    package static func isIgnored(_ fileName: String) -> Bool {
        if fileName.hasPrefix(".") { return true }
        let lower = fileName.lowercased()
        return [".part", ".partial", ".tmp", ".crdownload"].contains { lower.hasSuffix($0) }
    }

    /// Whether `name` can name a job in one of the queue's folders: not empty, not "." or "..",
    /// no "/" or NUL, and not a name the queue ignores (dot-files, partial uploads).
    package static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0) && !isIgnored(name)
    }

    /// Splits a new/ file name into the job name, the attempts it already used and the runs
    /// that died while it was in flight.
    package static func parseReady(_ fileName: String) -> ReadyJob {
        if let marker = fileName.lastIndex(of: "~"), marker != fileName.startIndex,
            let counts = parseCounts(fileName[fileName.index(after: marker)...])
        {
            return ReadyJob(
                name: String(fileName[..<marker]), fileName: fileName, previousAttempts: counts.attempts, interruptions: counts.interruptions)
        }
        return ReadyJob(name: fileName, fileName: fileName, previousAttempts: 0)
    }

    /// The new/ file name for a job that has used `previousAttempts` and seen `interruptions`.
    package static func readyFileName(_ name: String, previousAttempts: Int, interruptions: Int = 0) -> String {
        previousAttempts <= 0 && interruptions <= 0 ? name : name + "~" + countsField(attempts: previousAttempts, interruptions: interruptions)
    }

    /// `a<k>`, or `a<k>r<n>` when n > 0.
    static func countsField(attempts: Int, interruptions: Int) -> String {
        interruptions > 0 ? "a\(attempts)r\(interruptions)" : "a\(attempts)"
    }

    /// Reads `a<k>` or `a<k>r<n>` (each below 1000); nil for anything else.
    static func parseCounts(_ field: Substring) -> (attempts: Int, interruptions: Int)? {
        guard field.hasPrefix("a") else { return nil }
        let body = field.dropFirst()
        let parts = body.split(separator: "r", maxSplits: 1, omittingEmptySubsequences: false)
        guard let attempts = Int(parts[0]), (0..<1000).contains(attempts) else { return nil }
        guard parts.count == 2 else { return (attempts, 0) }
        guard let interruptions = Int(parts[1]), (1..<1000).contains(interruptions) else { return nil }
        return (attempts, interruptions)
    }

    /// The sidecar's name in failed/: `NAME.error`, or a shortened name with a hash when that would
    /// pass the 255-byte limit (the JSON inside always holds the full job name).
    package static func sidecarName(for name: String) -> String {
        let plain = name + ".error"
        if plain.utf8.count <= 255 { return plain }
        var stem = name
        while stem.utf8.count > 200 { stem.removeLast() }
        return stem + "-" + String(SHA256.hash(name).hex.prefix(16)) + ".error"
    }

    /// The job name enqueue gives an archive file: 8 hex digits of the SHA-256 of its absolute
    /// path (so `2023/run.gpx` and `2024/run.gpx` do not collide, and the same file keeps its
    /// name night after night), a dash, and the file name, shortened to leave room for the claim.
    package static func forArchiveFile(absolutePath: String) -> String {
        let base = absolutePath.split(separator: "/").last.map(String.init) ?? absolutePath
        var stem = base
        while stem.utf8.count > 150 { stem.removeLast() }
        return String(SHA256.hash(absolutePath).hex.prefix(8)) + "-" + stem
    }
}
