import FileStore

/// One line a worker process writes to its supervisor (tab-separated, fields escaped).
enum WorkerMessage: Equatable {
    /// A job was claimed (attempt k).
    case claimed(job: String, attempt: Int)
    /// A job is done: rendered now, or its images were already published.
    case finished(job: String, rendered: Bool, contentHex: String)
    /// A job about to be reported finished was drawn with map tiles missing (`cause`); sent
    /// just before its `finished`.
    case incomplete(job: String, tilesFailed: Int, cause: String)
    /// A job was quarantined.
    case quarantined(job: String, failureClass: String, message: String)
    /// A job went back to new/ (render error to retry, or the run is stopping).
    case returned(job: String, message: String)
    /// A newer version of the job was queued while this one ran (or it was forgotten): its claim
    /// is gone and nothing of it is the job's content.
    case superseded(job: String)
    /// The worker is dying of a failed allocation at its memory fence (written by the SIGABRT
    /// handler, so its line is fixed: see `Worker.outOfMemoryLine`).
    case outOfMemory
    /// The run must stop: the disk is full or read-only (`temporary`), or the worker cannot go on.
    case stop(message: String, temporary: Bool)

    var line: String {
        switch self {
        case let .claimed(job, attempt): return TabSeparated.line(["claimed", job, "\(attempt)"])
        case let .finished(job, rendered, content): return TabSeparated.line(["finished", job, rendered ? "rendered" : "cached", content])
        case let .incomplete(job, tiles, cause): return TabSeparated.line(["incomplete", job, "\(tiles)", cause])
        case let .quarantined(job, failureClass, message): return TabSeparated.line(["quarantined", job, failureClass, message])
        case let .returned(job, message): return TabSeparated.line(["returned", job, message])
        case let .superseded(job): return TabSeparated.line(["superseded", job])
        case let .stop(message, temporary): return TabSeparated.line(["stop", message, temporary ? "temporary" : "failed"])
        case .outOfMemory: return TabSeparated.line(["out-of-memory"])
        }
    }

    init?(fields: [String]) {
        switch (fields.first, fields.count) {
        case ("claimed", 3): self = .claimed(job: fields[1], attempt: Int(fields[2]) ?? 0)
        case ("finished", 4): self = .finished(job: fields[1], rendered: fields[2] == "rendered", contentHex: fields[3])
        case ("incomplete", 4): self = .incomplete(job: fields[1], tilesFailed: Int(fields[2]) ?? 0, cause: fields[3])
        case ("quarantined", 4): self = .quarantined(job: fields[1], failureClass: fields[2], message: fields[3])
        case ("returned", 3): self = .returned(job: fields[1], message: fields[2])
        case ("superseded", 2): self = .superseded(job: fields[1])
        case ("stop", 3): self = .stop(message: fields[1], temporary: fields[2] == "temporary")
        case ("out-of-memory", 1): self = .outOfMemory
        default: return nil
        }
    }
}
