import Dispatch
import Glibc
import Synchronization

/// Work of a cold listing spread over threads: reading and decoding 100,000 records, hashing
/// 100,000 jobs, rendering 100,000 detail pages. Each item is independent and small.
enum EveryCore {
    /// Below this many items the work stays on the calling thread: a short refresh's few tracks
    /// cost less than starting threads.
    static let minimumItems = 512

    /// How many reads of small files are kept in flight when the work waits on the disk. With
    /// the page cache empty, reading 15,000 records of 4 KB took 3.5 s with 2 readers, 1.8 s with
    /// 16 and 2.3 s with 64 on this machine's disk (`xargs -P`): one reader a core leaves the
    /// disk's queue nearly empty. With the files cached, the extra threads only take turns.
    static let diskReaders = 16

    /// What a map's items spend their time on, which sets how many threads work on them.
    enum Work {
        /// Computing only (formatting pages): one thread a core.
        case computing
        /// Reading a small file each (records, jobs): `diskReaders` threads.
        case readingFiles
    }

    /// `transform` of each of `items`, in their order, computed in contiguous chunks of 64 by
    /// the threads `work` asks for; each thread takes the next chunk when it is done, so a thread
    /// slowed by the disk or another process takes fewer.
    static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], _ work: Work = .computing, _ transform: @escaping @Sendable (Item) -> Output
    ) -> [Output] {
        guard items.count >= minimumItems else { return items.map(transform) }
        let chunkSize = 64
        let chunkCount = (items.count + chunkSize - 1) / chunkSize
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let threads = min(chunkCount, work == .readingFiles ? max(diskReaders, cores) : cores)
        let chunks = Mutex<[[Output]]>(Array(repeating: [], count: chunkCount))
        let next = Atomic<Int>(0)
        let body: @Sendable () -> Void = {
            while true {
                let chunk = next.add(1, ordering: .relaxed).oldValue
                guard chunk < chunkCount else { return }
                let outputs = items[(chunk * chunkSize)..<min(items.count, (chunk + 1) * chunkSize)].map(transform)
                chunks.withLock { $0[chunk] = outputs }
            }
        }
        if threads <= cores {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in body() }
        } else {
            // Threads of our own: Dispatch on Linux runs as many blocks at once as there are
            // cores, even while they wait on the disk (EveryCoreTests saw one at a time).
            let started = (1..<threads).compactMap { _ in ReaderThread.start(body) }
            body()
            for thread in started { pthread_join(thread, nil) }
        }
        return chunks.withLock { $0 }.flatMap { $0 }
    }

    /// `background` on a thread of its own while the calling thread runs `foreground`; both
    /// results once both are done. (When no thread can be started, `background` runs after
    /// `foreground` on the calling thread.) For work that would leave a core idle: a cold
    /// listing saves its state while the calling thread writes 100,000 pages.
    static func alongside<Output: Sendable, Other>(
        _ background: @escaping @Sendable () -> Output, _ foreground: () -> Other
    ) -> (background: Output, foreground: Other) {
        let result = Mutex<Output?>(nil)
        let body: @Sendable () -> Void = {
            let output = background()
            result.withLock { $0 = output }
        }
        let thread = ReaderThread.start(body)
        let other = foreground()
        if let thread { pthread_join(thread, nil) } else { body() }
        return (result.withLock { $0.take()! }, other)
    }
}

/// A POSIX thread running one closure, joined by its starter.
private final class ReaderThread: Sendable {
    let body: @Sendable () -> Void

    private init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    /// The started thread, or nil when none could be started (the calling thread and the
    /// others then take its share of the chunks).
    static func start(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(ReaderThread(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<ReaderThread>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<ReaderThread>.fromOpaque(context).release()
            return nil
        }
        return thread
    }
}
