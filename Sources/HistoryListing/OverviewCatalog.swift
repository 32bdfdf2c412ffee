import FileStore
import ThumbnailCache

/// What the overview remembers of each listed track between refreshes, so that only a new
/// track's record is read: its bounding box, start and whether its record keeps a route. One line
/// a track in `Output/.tracksnap/overview/tracks`: `id \t west \t south \t east \t north \t start|- \t 0|1`.
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
            let bbox = fields[1...4].compactMap(Double.init)
            guard bbox.count == 4, fields[6] == "0" || fields[6] == "1" else { continue }
            catalog.entries[fields[0]] = Entry(bbox: bbox, startTime: Double(fields[5]), hasRoute: fields[6] == "1")
        }
        return catalog
    }

    /// Writes the catalog atomically (sorted, so the same tracks give the same bytes).
    func save(_ path: String) throws(FileError) {
        var text = ""
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let fields = [id] + entry.bbox.map { "\($0)" } + [entry.startTime.map { "\($0)" } ?? "-", entry.hasRoute ? "1" : "0"]
            text += TabSeparated.line(fields)
        }
        try FileStore.writeAtomically(Array(text.utf8), to: path, permissions: 0o600)
    }
}
