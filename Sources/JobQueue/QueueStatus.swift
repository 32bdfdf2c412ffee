import FileStore

/// Counts of a queue's jobs and the failures with their reasons (`tracksnap status`).
package struct QueueStatus: Sendable, Equatable, Codable {
    /// Jobs in new/.
    package var queued: Int
    /// Jobs in running/.
    package var running: Int
    /// Jobs in done/.
    package var done: Int
    /// Quarantined jobs.
    package var failed: [Failure]

    /// One quarantined job.
    package struct Failure: Sendable, Equatable, Codable {
        /// The job's name.
        package var job: String
        /// Why (`invalid-input`, `crash`, `timeout`, `render`, `name`).
        package var failureClass: String
        /// The reason.
        package var message: String
        /// Attempts used.
        package var attempts: Int

        enum CodingKeys: String, CodingKey {
            case job, message, attempts
            case failureClass = "class"
        }

        /// Creates a failure entry.
        package init(job: String, failureClass: String, message: String, attempts: Int) {
            self.job = job
            self.failureClass = failureClass
            self.message = message
            self.attempts = attempts
        }
    }

    /// Reads the queue's folders.
    package static func read(_ queue: JobQueue) throws(FileError) -> QueueStatus {
        let layout = queue.layout
        let count: (String) throws(FileError) -> Int = { directory throws(FileError) in
            try FileStore.listDirectory(directory).filter { !$0.hasPrefix(".") }.count
        }
        var failures: [Failure] = []
        let failedNames = try FileStore.listDirectory(layout.failed)
        var jobsWithRecords = Set<String>()
        var unreadable: [String: String] = [:]  // job file name → why its sidecar could not be read
        for name in failedNames where name.hasSuffix(".error") {
            let bytes: [UInt8]
            do {
                bytes = try FileStore.readFile(layout.failed + "/" + name, maximumBytes: 1 << 20)
            } catch {
                unreadable[String(name.dropLast(".error".count))] = "its failure record \(name) cannot be read (\(error.reason ?? error.description))"
                continue
            }
            guard let record = FailureRecord.parse(bytes) else {
                unreadable[String(name.dropLast(".error".count))] = "its failure record \(name) is not a failure record"
                continue
            }
            // A sidecar whose job is gone was superseded (or the move did not happen yet).
            guard FileStore.exists(layout.failed + "/" + record.job) else { continue }
            jobsWithRecords.insert(record.job)
            failures.append(Failure(job: record.job, failureClass: record.failureClass.rawValue, message: record.message, attempts: record.attempts))
        }
        for name in failedNames where !name.hasSuffix(".error") && !name.hasPrefix(".") && !jobsWithRecords.contains(name) {
            failures.append(Failure(job: name, failureClass: "unknown", message: unreadable[name] ?? "no failure record", attempts: 0))
        }
        failures.sort { $0.job < $1.job }
        return QueueStatus(queued: try count(layout.new), running: try count(layout.running), done: try count(layout.done), failed: failures)
    }
}
