import FileStore
import ThumbnailCache

/// What the overview remembers of each listed track between refreshes, so that only a new
/// track's record is read: its bounding box, start and whether its record keeps a route, in
/// `Output/.tracksnap/overview/tracks`. Binary, fixed-size entries after the magic
/// `TSOVC1\n`: the 32 bytes of the key, then west, south, east, north and start as float64
/// bit patterns (start NaN: no times), then 1 byte (1: the record keeps a route). At 100,000
/// tracks that is 7.3 MB, read in tens of milliseconds (the text of tab-separated decimals took
/// 1.3 s a refresh). A refresh that only adds tracks writes their entries over the file's end
/// (`save(_:added:)`): 73 bytes a track instead of the whole file.
struct OverviewCatalog {
    /// One track.
    struct Entry: Equatable {
        /// West, south, east, north in degrees, as in the record's `bbox` (kept as four numbers,
        /// not an array: 100,000 arrays were 100,000 allocations a load).
        var west: Double, south: Double, east: Double, north: Double
        /// First fix time, seconds since the Unix epoch.
        var startTime: Double?
        /// Whether the record keeps a route (`TrackRecord.overviewRoute`).
        var hasRoute: Bool

        /// The entry of a record.
        init(_ record: TrackRecord) {
            let box = record.bbox.count == 4 ? record.bbox : [0, 0, 0, 0]
            self.init(west: box[0], south: box[1], east: box[2], north: box[3], startTime: record.startTime)
            hasRoute = record.overviewRoute != nil && record.bbox.count == 4
        }

        init(west: Double, south: Double, east: Double, north: Double, startTime: Double?, hasRoute: Bool = false) {
            self.west = west
            self.south = south
            self.east = east
            self.north = north
            self.startTime = startTime
            self.hasRoute = hasRoute
        }

        /// `[west, south, east, north]`.
        var bbox: [Double] { [west, south, east, north] }
    }

    /// Each track's key, in the order of the file then of `insert` (a key twice, when a killed
    /// refresh wrote its entries twice: the later counts).
    private(set) var keys: [TrackKey] = []
    /// Each track's entry, as `keys`.
    private(set) var entries: [Entry] = []
    /// Positions in `keys` of each key once (its last), ascending by key: the catalog's order, kept
    /// as numbers so that 100,000 tracks are sorted and looked up without a string or a dictionary
    /// (as `[String: Entry]` they were two thirds of a nightly refresh's overview bookkeeping).
    private var order: [Int] = []
    /// Whether `order` lags behind an `insert`.
    private var unordered = false
    /// Whole entries in the file when it was loaded, a track written twice counted twice (a
    /// refresh killed after writing its entries and before its stamp writes them again); nil
    /// when there was no catalog file.
    private(set) var entriesInFile: Int?
    /// Whether a track was removed since the load (the file is then written whole).
    private(set) var removedSinceLoad = false

    static let magic = Array("TSOVC1\n".utf8)
    static let entryBytes = 32 + 5 * 8 + 1

    /// The catalog at `path`; empty when missing or not one (every record is then read once).
    static func load(_ path: String) -> OverviewCatalog {
        var catalog = OverviewCatalog()
        guard let bytes = try? FileStore.readFile(path), bytes.starts(with: magic) else { return catalog }
        // A torn last entry (an append cut short) is not read; the next save writes over it.
        let count = (bytes.count - magic.count) / entryBytes
        catalog.entriesInFile = count
        catalog.keys.reserveCapacity(count)
        catalog.entries.reserveCapacity(count)
        bytes.withUnsafeBytes { raw in
            for index in 0..<count {
                let base = magic.count + index * entryBytes
                func number(_ slot: Int) -> Double {
                    Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 32 + slot * 8, as: UInt64.self)))
                }
                let start = number(4)
                catalog.keys.append(TrackKey(raw, at: base))
                catalog.entries.append(
                    Entry(
                        west: number(0), south: number(1), east: number(2), north: number(3), startTime: start.isNaN ? nil : start,
                        hasRoute: raw[base + 72] == 1))
            }
        }
        catalog.unordered = true
        catalog.settle()
        return catalog
    }

    /// Tracks in the catalog.
    var count: Int { ordered().count }

    /// Whether the catalog holds `key`.
    func contains(_ key: TrackKey) -> Bool { position(of: key) != nil }

    /// The entry of `key`, if the catalog holds it.
    func entry(_ key: TrackKey) -> Entry? { position(of: key).map { entries[$0] } }

    /// Adds (or replaces) the entry of `key`. Call `settle()` after a batch of inserts: every
    /// question before it sorts the catalog again.
    mutating func insert(_ key: TrackKey, _ entry: Entry) {
        keys.append(key)
        entries.append(entry)
        unordered = true
    }

    /// Keeps the tracks whose key `keep` accepts; returns whether one was removed.
    mutating func keepOnly(where keep: (TrackKey) -> Bool) -> Bool {
        let live = ordered().filter { keep(keys[$0]) }
        guard live.count != order.count else { return false }
        keys = live.map { keys[$0] }
        entries = live.map { entries[$0] }
        order = Array(keys.indices)
        unordered = false
        removedSinceLoad = true
        return true
    }

    /// Tracks whose record keeps no route.
    var tracksWithoutRoute: Int { ordered().reduce(0) { $0 + (entries[$1].hasRoute ? 0 : 1) } }

    /// The keys, ascending.
    var sortedKeys: [TrackKey] { ordered().map { keys[$0] } }

    /// The entries whose record keeps a route, by ascending id (the order `OverviewAtlas.plan`
    /// groups in).
    func routedInIDOrder() -> [(id: String, entry: Entry)] {
        ordered().compactMap { entries[$0].hasRoute ? (keys[$0].hex, entries[$0]) : nil }
    }

    /// `order`, brought up to date after inserts: the positions sorted by key, each key once
    /// (its last position), computed afresh while an insert is not settled.
    private func ordered() -> [Int] {
        guard unordered else { return order }
        var sorted = Array(keys.indices)
        sorted.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        var unique: [Int] = []
        unique.reserveCapacity(sorted.count)
        for position in sorted {
            if let last = unique.last, keys[last] == keys[position] {
                unique[unique.count - 1] = position
            } else {
                unique.append(position)
            }
        }
        return unique
    }

    /// Sorts after inserts, once, so later questions do not sort again.
    mutating func settle() {
        order = ordered()
        unordered = false
    }

    private func position(of key: TrackKey) -> Int? {
        let sorted = ordered()
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if keys[sorted[middle]] < key { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && keys[sorted[low]] == key ? sorted[low] : nil
    }

    /// The catalog's bytes, ascending by key.
    func bytes() -> [UInt8] {
        var out = Self.magic
        let sorted = ordered()
        out.reserveCapacity(Self.magic.count + sorted.count * Self.entryBytes)
        for position in sorted { Self.append(keys[position], entries[position], to: &out) }
        return out
    }

    /// A digest of the catalog's set of tracks (`setDigest(_:)`).
    var setDigest: [UInt64] { Self.setDigest(sortedKeys) }

    /// A digest of a set of keys that does not depend on their order: the count and the wrapping
    /// sums of a 64-bit mix of each key's words and of its square. Sets of cache keys that differ
    /// give different digests unless chosen to collide; 100,000 keys take a millisecond.
    static func setDigest(_ keys: some Sequence<TrackKey>) -> [UInt64] {
        var count: UInt64 = 0, sum: UInt64 = 0, squares: UInt64 = 0
        for key in keys {
            func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
                let product = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
                return product ^ product >> 29
            }
            let hash = mix(mix(mix(mix(0xcbf2_9ce4_8422_2325, key.words.0), key.words.1), key.words.2), key.words.3)
            count &+= 1
            sum &+= hash
            squares &+= hash &* hash
        }
        return [count, sum, squares]
    }

    /// Saves the catalog as loaded plus the entries of `added` (keys inserted since the load;
    /// nothing removed): written over the end of the file when it holds each loaded entry once,
    /// else nothing is written and false returned (the caller writes `bytes()` whole, in its
    /// batch of state files). The entries are fsynced before the caller's stamp names them.
    func save(_ path: String, added: [TrackKey]) throws(FileError) -> Bool {
        guard let entriesInFile, !removedSinceLoad, entriesInFile == count - added.count else { return false }
        guard !added.isEmpty else { return true }
        var out: [UInt8] = []
        out.reserveCapacity(added.count * Self.entryBytes)
        for key in added { if let entry = entry(key) { Self.append(key, entry, to: &out) } }
        try FileStore.overwrite(out, in: path, from: Self.magic.count + entriesInFile * Self.entryBytes)
        return true
    }

    /// Appends the bytes of one entry.
    private static func append(_ key: TrackKey, _ entry: Entry, to out: inout [UInt8]) {
        key.append(to: &out)
        for value in [entry.west, entry.south, entry.east, entry.north, entry.startTime ?? .nan] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { out += $0 }
        }
        out.append(entry.hasRoute ? 1 : 0)
    }
}
