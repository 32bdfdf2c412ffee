import FileStore
import ThumbnailCache

/// What the overview remembers of each listed track between refreshes, so that only a new
/// track's record is read: its bounding box, start and whether its record keeps a route. One line
/// a track in `Output/.tracksnap/overview/tracks`: `id \t west \t south \t east \t north \t start|- \t 0|1`,
/// numbers as the hexadecimal bit patterns of their doubles (exact, and several times faster to
/// write and read than decimal text for 100,000 lines).
struct OverviewCatalog: Equatable {
    /// One track.
    struct Entry: Equatable {
        /// `[west, south, east, north]` degrees, as in the record.
        var bbox: [Double]
        /// First fix time, seconds since the Unix epoch.
        var startTime: Double?
        /// Whether the record keeps a route (`TrackRecord.overviewRoute`).
        var hasRoute: Bool

        /// The entry of a record.
        init(_ record: TrackRecord) {
            bbox = record.bbox
            startTime = record.startTime
            hasRoute = record.overviewRoute != nil
        }

        init(bbox: [Double], startTime: Double?, hasRoute: Bool) {
            self.bbox = bbox
            self.startTime = startTime
            self.hasRoute = hasRoute
        }
    }

    /// Entries by track id.
    var entries: [String: Entry] = [:]

    /// The catalog at `path`; empty when missing or unreadable (every record is then read once).
    static func load(_ path: String) -> OverviewCatalog {
        var catalog = OverviewCatalog()
        guard let bytes = try? FileStore.readFile(path) else { return catalog }
        for fields in TabSeparated.records(bytes) where fields.count == 7 {
            let bbox = fields[1...4].compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:))
            guard bbox.count == 4, fields[6] == "0" || fields[6] == "1" else { continue }
            let start = UInt64(fields[5], radix: 16).map(Double.init(bitPattern:))
            catalog.entries[fields[0]] = Entry(bbox: bbox, startTime: start, hasRoute: fields[6] == "1")
        }
        return catalog
    }

    /// The catalog's bytes (sorted, so the same tracks give the same bytes).
    func bytes() -> [UInt8] {
        var text = ""
        text.reserveCapacity(entries.count * 140)
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let numbers = entry.bbox.map { String($0.bitPattern, radix: 16) }
            text += TabSeparated.line([id] + numbers + [entry.startTime.map { String($0.bitPattern, radix: 16) } ?? "-", entry.hasRoute ? "1" : "0"])
        }
        return Array(text.utf8)
    }
}
