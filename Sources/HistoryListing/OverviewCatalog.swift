import FileStore
import ThumbnailCache

/// What the overview remembers of each listed track between refreshes, so that only a new
/// track's record is read: its bounding box, start and whether its record keeps a route, in
/// `Output/.tracksnap/overview/tracks`. Binary, fixed-size entries after the magic
/// `TSOVC1\n`: the 32 bytes of the key, then west, south, east, north and start as float64
/// bit patterns (start NaN: no times), then 1 byte (1: the record keeps a route). At 100,000
/// tracks that is 7.3 MB, read and written in tens of milliseconds; the text of tab-separated
/// decimals took 1.3 s a refresh.
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

    static let magic = Array("TSOVC1\n".utf8)
    static let entryBytes = 32 + 5 * 8 + 1

    /// The catalog at `path`; empty when missing or not one (every record is then read once).
    static func load(_ path: String) -> OverviewCatalog {
        var catalog = OverviewCatalog()
        guard let bytes = try? FileStore.readFile(path), bytes.starts(with: magic), (bytes.count - magic.count) % entryBytes == 0 else {
            return catalog
        }
        let count = (bytes.count - magic.count) / entryBytes
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
        for (id, entry) in entries {
            guard let key = CacheKeyBytes(hex: id)?.bytes else { continue }
            out += key
            for value in [entry.west, entry.south, entry.east, entry.north, entry.startTime ?? .nan] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { out += $0 }
            }
            out.append(entry.hasRoute ? 1 : 0)
        }
        return out
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
