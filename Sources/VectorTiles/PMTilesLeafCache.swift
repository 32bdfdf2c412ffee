import Synchronization

/// The leaf directories a `PMTilesReader` decoded last, so tiles in the same leaf cost one read
/// each, not a directory read, inflate and decode too. Least recently used first out; bounded by
/// decoded entries (`PMTilesLimits.cachedLeafEntries`, 24 bytes each: 6 MiB by default) summed
/// over the cached leaves. A leaf larger than the whole bound is not kept. Shared by copies of
/// the reader and safe across threads (one lock around a small table).
final class PMTilesLeafCache: Sendable {
    private struct Leaf {
        var entries: [PMTilesEntry]
        var lastUse: UInt64
    }

    /// Where a leaf lies: two pointers at one offset with different lengths are two leaves.
    struct Key: Hashable {
        var offset: UInt64
        var length: UInt32
    }

    private struct Table {
        var leaves: [Key: Leaf] = [:]
        var entryCount = 0
        var clock: UInt64 = 0
    }

    private let capacityEntries: Int
    private let table = Mutex(Table())

    /// A cache of at most `capacityEntries` decoded entries.
    init(capacityEntries: Int) {
        self.capacityEntries = max(0, capacityEntries)
    }

    /// The leaf at `key`, nil when not cached.
    func entries(at key: Key) -> [PMTilesEntry]? {
        table.withLock { table in
            guard var leaf = table.leaves[key] else { return nil }
            table.clock += 1
            leaf.lastUse = table.clock
            table.leaves[key] = leaf
            return leaf.entries
        }
    }

    /// Keeps the leaf at `key`, dropping the least recently used ones until it fits.
    func insert(_ entries: [PMTilesEntry], at key: Key) {
        guard entries.count <= capacityEntries else { return }
        table.withLock { table in
            if let old = table.leaves.removeValue(forKey: key) { table.entryCount -= old.entries.count }
            // A linear scan for the oldest: the table holds tens of leaves, and eviction is rare
            // next to lookups.
            while table.entryCount + entries.count > capacityEntries, let oldest = table.leaves.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                table.entryCount -= oldest.value.entries.count
                table.leaves[oldest.key] = nil
            }
            table.clock += 1
            table.leaves[key] = Leaf(entries: entries, lastUse: table.clock)
            table.entryCount += entries.count
        }
    }

    /// How many leaves are cached (tests).
    var count: Int { table.withLock { $0.leaves.count } }
}
