import Dispatch
import Synchronization

/// Work of a cold listing spread over the cores: reading and decoding 100,000 records, hashing
/// 100,000 jobs. Each of those is independent, small, and half waiting on the disk when the files
/// are not cached, so a second thread both adds a core and overlaps the reads.
enum EveryCore {
    /// Below this many items the work stays on the calling thread: a short refresh's few tracks
    /// cost less than starting threads.
    static let minimumItems = 512

    /// `transform` of each of `items`, in their order, computed in contiguous chunks on every
    /// core (several chunks a core, so a core slowed by the disk or another process takes fewer).
    static func map<Item: Sendable, Output: Sendable>(_ items: [Item], _ transform: @Sendable (Item) -> Output) -> [Output] {
        guard items.count >= minimumItems else { return items.map(transform) }
        // Dispatch runs as many at once as there are cores.
        let chunkCount = min(items.count / 64, 32)
        let chunks = Mutex<[[Output]]>(Array(repeating: [], count: chunkCount))
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let range = (items.count * chunk / chunkCount)..<(items.count * (chunk + 1) / chunkCount)
            let outputs = items[range].map(transform)
            chunks.withLock { $0[chunk] = outputs }
        }
        return chunks.withLock { $0 }.flatMap { $0 }
    }
}
