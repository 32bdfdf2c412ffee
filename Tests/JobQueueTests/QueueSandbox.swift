import FileStore
import Foundation
import JobQueue

/// A fresh queue in a temporary folder.
struct QueueSandbox {
    let root: String
    var queue: JobQueue

    init(settleSeconds: Double = 0) throws {
        root = NSTemporaryDirectory() + "tracksnap-queue-\(UUID().uuidString)"
        var queue = JobQueue(root: root + "/Jobs")
        queue.settleSeconds = settleSeconds
        queue.version = "test"
        self.queue = queue
        try queue.prepare()
    }

    /// Writes a file straight into new/ (a drop-in).
    func drop(_ name: String, _ contents: String = "<gpx/>") throws {
        try FileStore.writeAtomically(Array(contents.utf8), to: queue.layout.new + "/" + name)
    }

    func names(_ directory: String) throws -> [String] {
        try FileStore.listDirectory(directory).sorted()
    }

    /// Sets a file's mtime `seconds` into the past (what `touch -d` does).
    func age(_ path: String, seconds: Double) {
        let then = Date().addingTimeInterval(-seconds)
        try? FileManager.default.setAttributes([.modificationDate: then], ofItemAtPath: path)
    }
}
