import MapTiles
import VectorTiles

/// Decoded tiles kept by one worker, least recently used evicted first, bounded in bytes.
/// Default bound 128 MiB: 512 raster tiles of 256×256 (a 2560×1920 image needs about 190 of them,
/// all four default images of a track about 260), so a region's tiles stay decoded across tracks;
/// vector tiles count their decoded points and properties (`VectorTile.Decoded.estimatedBytes`).
package final class DecodedTileCache {
    /// The bound in bytes of decoded pixels.
    package let capacityBytes: Int
    /// Bytes held now.
    package private(set) var heldBytes = 0
    /// Lookups answered from memory, and decodes, since creation.
    package private(set) var hits = 0, misses = 0
    private var entries: [TileCoordinate: (lookup: TileLookup, bytes: Int, used: Int)] = [:]
    private var clock = 0

    /// An empty cache holding at most `capacityBytes`.
    package init(capacityBytes: Int = 128 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The cached lookup, or `load()`'s, kept (absent and failed tiles too, so a bad tile is
    /// read and reported once per worker, not once per image).
    package func lookup(_ coordinate: TileCoordinate, load: () -> TileLookup) -> TileLookup {
        clock += 1
        if let entry = entries[coordinate] {
            hits += 1
            entries[coordinate]?.used = clock
            return entry.lookup
        }
        misses += 1
        let lookup = load()
        var bytes = 64
        switch lookup {
        case .image(let image): bytes += image.byteCount
        case .vector(let tile): bytes += tile.estimatedBytes
        case .absent, .failed: break
        }
        if bytes > capacityBytes { return lookup }
        entries[coordinate] = (lookup, bytes, clock)
        heldBytes += bytes
        if heldBytes > capacityBytes { evict() }
        return lookup
    }

    /// Drops what is kept for `coordinate` (a failure that may pass, to be asked again).
    package func forget(_ coordinate: TileCoordinate) {
        guard let entry = entries.removeValue(forKey: coordinate) else { return }
        heldBytes -= entry.bytes
    }

    /// Drops the least recently used quarter (at least down to the bound): one sort per many
    /// insertions rather than a scan per insertion.
    private func evict() {
        let byAge = entries.sorted { $0.value.used < $1.value.used }
        var target = min(capacityBytes, capacityBytes - capacityBytes / 4)
        target = max(0, target)
        for (coordinate, entry) in byAge where heldBytes > target {
            entries[coordinate] = nil
            heldBytes -= entry.bytes
        }
    }
}
