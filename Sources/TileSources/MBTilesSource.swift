import MapTiles
import SystemSQLite

/// Raw tiles from an MBTiles file (SQLite; spec 1.3): the `tiles` table or view with rows in
/// the TMS order (counted from the south), the `metadata` table's `format` (png, jpg; pbf for
/// vector tiles, gzip-compressed or not), `minzoom`,
/// `maxzoom`, `bounds` and `attribution`. Opened read-only; a file another process holds
/// locked is waited for 2 s, then reported.
package final class MBTilesSource: RawTileSource {
    /// The file.
    package let path: String
    /// What the metadata says.
    package let sourceDescription: TileSourceDescription
    /// The metadata's `format` ("png", "jpg", "pbf"…), lower-cased; "" when absent (then raster).
    package let format: String
    /// The metadata table, names lower-cased (`name`, `attribution`, `json`…).
    package let metadata: [String: String]
    var database: OpaquePointer?
    private var query: OpaquePointer?

    /// Opens the file and reads its metadata; throws a message naming the file and the problem
    /// (not a database, locked, no tiles table, an unknown tile format).
    package init(path: String) throws(TileProblem) {
        self.path = path
        var handle: OpaquePointer?
        let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw TileProblem("MBTiles '\(path)': \(message)")
        }
        database = handle
        sqlite3_busy_timeout(handle, 2000)
        func fail(_ what: String) -> TileProblem {
            let code = sqlite3_errcode(handle)
            var message = String(cString: sqlite3_errmsg(handle))
            let locked = code == SQLITE_BUSY || code == SQLITE_LOCKED
            if locked {
                message += " (another process holds the file locked for writing; waited 2 s): try again once it is done"
            } else if code == SQLITE_NOTADB || code == SQLITE_CORRUPT {
                message += " (the file is damaged or not an MBTiles file)"
            }
            sqlite3_close(handle)
            return TileProblem("MBTiles '\(path)': \(what): \(message)", isTemporary: locked)
        }
        var metadata: [String: String] = [:]
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT name, value FROM metadata", -1, &statement, nil) == SQLITE_OK else {
            throw fail("cannot read its metadata table")
        }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else {
                sqlite3_finalize(statement)
                throw fail("cannot read its metadata table")
            }
            if let name = sqlite3_column_text(statement, 0), let value = sqlite3_column_text(statement, 1) {
                metadata[String(cString: name).lowercased()] = String(cString: value)
            }
        }
        sqlite3_finalize(statement)
        self.metadata = metadata
        format = metadata["format"]?.lowercased() ?? ""
        if !["", "png", "jpg", "jpeg", "pbf", "mvt"].contains(format) {
            sqlite3_close(handle)
            database = nil
            throw TileProblem("MBTiles '\(path)' has tiles in format '\(format)'; TrackSnap reads png, jpg and pbf (vector tiles)")
        }
        guard
            sqlite3_prepare_v2(handle, "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3", -1, &query, nil)
                == SQLITE_OK
        else { throw fail("it has no tiles table") }
        do throws(TileProblem) {
            var description = try Self.description(metadata: metadata, tableZooms: Self.zoomRange(handle))
            if format == "pbf" || format == "mvt" { description.kind = .vector }
            sourceDescription = description
        } catch {
            sqlite3_finalize(query)
            query = nil
            sqlite3_close(handle)
            database = nil
            throw TileProblem("MBTiles '\(path)': \(error)")
        }
    }

    /// Zoom levels a source may declare: 2^30 tiles a side is past any tile set made (zoom 22
    /// is centimetres), and keeps every tile and pixel coordinate well inside `Int`.
    package static let zoomRange = 0...30

    /// The description the metadata gives (pure, for tests): `minzoom` and `maxzoom` (else the
    /// zoom levels the tiles table holds, `tableZooms`), `bounds` and `attribution`. A zoom
    /// outside 0...30 or a `minzoom` above `maxzoom` is refused, naming the field and value;
    /// `bounds` is clamped to the world (longitudes −180...180, latitudes to Web Mercator's
    /// ±85.0511), and ignored (the whole world) when it is not four numbers or empty after
    /// clamping. `center` is not used.
    package static func description(metadata: [String: String], tableZooms: ClosedRange<Int>?) throws(TileProblem) -> TileSourceDescription {
        var description = TileSourceDescription()
        func zoom(_ field: String) throws(TileProblem) -> Int? {
            guard let text = metadata[field]?.trimmingSpaces, !text.isEmpty else { return nil }
            guard let value = Int(text), zoomRange.contains(value) else {
                throw TileProblem(
                    "metadata \(field) is '\(text.prefix(40))'; expected a whole number from \(zoomRange.lowerBound) to \(zoomRange.upperBound)")
            }
            return value
        }
        if let tableZooms {
            // Rows with zoom levels no tile set has: only the part of the range that can be drawn.
            description.minimumZoom = min(max(tableZooms.lowerBound, zoomRange.lowerBound), zoomRange.upperBound)
            description.maximumZoom = min(max(tableZooms.upperBound, zoomRange.lowerBound), zoomRange.upperBound)
        }
        if let minimum = try zoom("minzoom") { description.minimumZoom = minimum }
        if let maximum = try zoom("maxzoom") { description.maximumZoom = maximum }
        if description.minimumZoom > description.maximumZoom {
            throw TileProblem("metadata minzoom \(description.minimumZoom) is above maxzoom \(description.maximumZoom)")
        }
        if let bounds = metadata["bounds"] {
            description.boundsLonLat = TileCoverage.boundsClampedToWorld(bounds.split(separator: ",").compactMap { Double($0.trimmingSpaces) })
        }
        if let attribution = metadata["attribution"], !attribution.isEmpty { description.attribution = TextForImage.plain(attribution) }
        return description
    }

    deinit {
        sqlite3_finalize(query)
        sqlite3_close(database)
    }

    /// The tile's bytes, nil when the file has none there.
    package func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        guard let query else { throw TileProblem("MBTiles '\(path)' is closed") }
        sqlite3_reset(query)
        sqlite3_bind_int(query, 1, Int32(coordinate.z))
        sqlite3_bind_int(query, 2, Int32(coordinate.x))
        sqlite3_bind_int(query, 3, Int32(coordinate.tmsRow))
        // Reset once the bytes are copied: a statement left on its row keeps the file's read lock,
        // and a writer (a tile downloader) would wait on an idle worker.
        defer { sqlite3_reset(query) }
        let step = sqlite3_step(query)
        if step == SQLITE_DONE { return nil }
        guard step == SQLITE_ROW else {
            var message = String(cString: sqlite3_errmsg(database))
            // Another process writing: the file's trouble, and it passes (not the tile's, not the track's).
            let locked = step == SQLITE_BUSY || step == SQLITE_LOCKED
            if locked { message += " (locked by another process; waited 2 s)" }
            throw TileProblem("MBTiles read failed: \(message)", isTemporary: locked, kind: locked ? .unavailable : .tile)
        }
        let count = Int(sqlite3_column_bytes(query, 0))
        if count > limit { throw TileProblem("the tile is \(count) bytes, more than the \(limit >> 20) MiB a tile may have") }
        guard count > 0, let blob = sqlite3_column_blob(query, 0) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// One tile's bytes at any zoom (to learn the tile size), or nil; nil too when it is larger
    /// than `limit` bytes (not copied).
    func anyTile(limit: Int) -> [UInt8]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT tile_data FROM tiles LIMIT 1", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        let count = Int(sqlite3_column_bytes(statement, 0))
        guard count > 0, count <= limit, let blob = sqlite3_column_blob(statement, 0) else { return nil }
        return Array(UnsafeRawBufferPointer(start: blob, count: count))
    }

    /// The zoom levels present, when the metadata does not say (one index lookup each end).
    private static func zoomRange(_ database: OpaquePointer) -> ClosedRange<Int>? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT min(zoom_level), max(zoom_level) FROM tiles", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, sqlite3_column_type(statement, 0) != SQLITE_NULL else { return nil }
        let low = Int(sqlite3_column_int(statement, 0)), high = Int(sqlite3_column_int(statement, 1))
        return low <= high ? low...high : nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
