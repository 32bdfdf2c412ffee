import FileStore
import ThumbnailCache

extension ListingBuilder {
    /// Prunes when allowed (`limit` given) and something may be left to prune (`pending`), and
    /// keeps the pending mark in step: set by a refresh that may not prune, cleared by one that did.
    func pruneIfDue(referenced: Set<String>, olderThan limit: Int64?, pending: Bool) throws(FileError) -> Int {
        guard let limit else {
            try markPrunePending(true)
            return 0
        }
        guard pending else { return 0 }
        let (removed, tooNew) = try prune(referenced: referenced, olderThan: limit)
        // An unreferenced file newer than the limit (a superseded or forgotten job's render that
        // landed during this run) is left for a later refresh: keep the mark until it has gone.
        try markPrunePending(tooNew > 0)
        return removed
    }

    private func markPrunePending(_ pending: Bool) throws(FileError) {
        if !pending {
            try FileStore.remove(prunePendingPath)
        } else if !FileStore.exists(prunePendingPath) {
            try FileStore.writeAtomically([], to: prunePendingPath)
        }
    }

    /// Removes images and records whose key no listed track has, if older than `limit` (so a
    /// render published after this listing was computed is never removed).
    private func prune(referenced: Set<String>, olderThan limit: Int64) throws(FileError) -> (removed: Int, tooNew: Int) {
        var removed = 0, tooNew = 0
        for (directory, suffix) in [(store.thumbsDirectory, ".png"), (store.recordsDirectory, ".json")] {
            for name in try FileStore.listDirectory(directory) where !name.hasPrefix(".") && name.hasSuffix(suffix) {
                let key = String(name.prefix(64))
                guard CacheKey(hex: key) != nil, !referenced.contains(key) else { continue }
                let path = directory + "/" + name
                guard let status = try FileStore.status(path) else { continue }
                guard status.modificationNanoseconds < limit else {
                    tooNew += 1
                    continue
                }
                try FileStore.remove(path)
                removed += 1
            }
        }
        return (removed, tooNew)
    }
}
