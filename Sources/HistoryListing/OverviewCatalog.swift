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
struct OverviewCatalog: Equatable {
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

    /// Entries by track id (64 hex digits).
    var entries: [String: Entry] = [:]
    /// Whole entries in the file when it was loaded, a track written twice counted twice (a
    /// refresh killed after writing its entries and before its stamp writes them again); nil
    /// when there was no catalog file.
    private(set) var entriesInFile: Int?

    static let magic = Array("TSOVC1\n".utf8)
    static let entryBytes = 32 + 5 * 8 + 1

    /// The catalog at `path`; empty when missing or not one (every record is then read once).
    static func load(_ path: String) -> OverviewCatalog {
        var catalog = OverviewCatalog()
        guard let bytes = try? FileStore.readFile(path), bytes.starts(with: magic) else { return catalog }
        // A torn last entry (an append cut short) is not read; the next save writes over it.
        let count = (bytes.count - magic.count) / entryBytes
        catalog.entriesInFile = count
        catalog.entries.reserveCapacity(count)
        bytes.withUnsafeBytes { raw in
            for index in 0..<count {
                let base = magic.count + index * entryBytes
                let id = hexText(raw[base..<(base + 32)])
                func number(_ slot: Int) -> Double {
                    Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 32 + slot * 8, as: UInt64.self)))
                }
                let start = number(4)
                catalog.entries[id] = Entry(
                    west: number(0), south: number(1), east: number(2), north: number(3), startTime: start.isNaN ? nil : start,
                    hasRoute: raw[base + 72] == 1)
            }
        }
        return catalog
    }

    /// The catalog's bytes (entries whose id is not 64 hex digits are left out).
    func bytes() -> [UInt8] {
        var out = Self.magic
        out.reserveCapacity(Self.magic.count + entries.count * Self.entryBytes)
        for (id, entry) in entries { Self.append(id, entry, to: &out) }
        return out
    }

    /// The entries whose record keeps a route, by ascending id (the order `OverviewAtlas.plan`
    /// groups in). Sorted on the ids' leading 64 bits, which tie only between ids that share
    /// their first 16 hex digits: comparing 100,000 strings was a tenth of a second a refresh.
    func routedInIDOrder() -> [(id: String, entry: Entry)] {
        var routed: [(lead: UInt64, id: String, entry: Entry)] = []
        routed.reserveCapacity(entries.count)
        for (id, entry) in entries where entry.hasRoute { routed.append((UInt64(id.prefix(16), radix: 16) ?? 0, id, entry)) }
        routed.sort { $0.lead != $1.lead ? $0.lead < $1.lead : $0.id < $1.id }
        return routed.map { ($0.id, $0.entry) }
    }

    /// Saves the catalog as loaded plus the entries of `added` (ids whose entries were set since
    /// the load; nothing removed): written over the end of the file when it holds each loaded
    /// entry once, else nothing is written and false returned (the caller writes `bytes()` whole,
    /// in its batch of state files). The entries are fsynced before the caller's stamp names them.
    func save(_ path: String, added: [String]) throws(FileError) -> Bool {
        guard let entriesInFile, entriesInFile == entries.count - added.count else { return false }
        guard !added.isEmpty else { return true }
        var out: [UInt8] = []
        out.reserveCapacity(added.count * Self.entryBytes)
        for id in added { if let entry = entries[id] { Self.append(id, entry, to: &out) } }
        try FileStore.overwrite(out, in: path, from: Self.magic.count + entriesInFile * Self.entryBytes)
        return true
    }

    /// Appends the bytes of one entry (none when `id` is not 64 hex digits).
    private static func append(_ id: String, _ entry: Entry, to out: inout [UInt8]) {
        guard let key = CacheKeyBytes(hex: id)?.bytes else { return }
        out += key
        for value in [entry.west, entry.south, entry.east, entry.north, entry.startTime ?? .nan] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { out += $0 }
        }
        out.append(entry.hasRoute ? 1 : 0)
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hexText(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset * 2] = digits[Int(byte >> 4)]
                buffer[offset * 2 + 1] = digits[Int(byte & 15)]
            }
            return 64
        }
    }
}
