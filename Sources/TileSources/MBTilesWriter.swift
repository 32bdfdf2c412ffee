import MapTiles
import SystemSQLite

/// Writes an MBTiles file (spec 1.3: `metadata` and `tiles` tables, TMS rows). For the tests'
/// and the generated tile sets of docs/basemaps.md (`tracksnap-dev tiles`); TrackSnap itself only reads.
package final class MBTilesWriter {
    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    /// The file.
    package let path: String

    /// Creates (replacing) `path` with the given metadata (`name`, `format`, `minzoom`…).
    package init(path: String, metadata: [String: String]) throws(TileProblem) {
        self.path = path
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw TileProblem("cannot create MBTiles '\(path)'")
        }
        database = handle
        let schema = """
            DROP TABLE IF EXISTS metadata; DROP TABLE IF EXISTS tiles;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
            BEGIN;
            """
        try execute(schema)
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            try execute("INSERT INTO metadata VALUES ('\(name.replacing("'", with: "''"))', '\(value.replacing("'", with: "''"))')")
        }
        guard sqlite3_prepare_v2(handle, "INSERT OR REPLACE INTO tiles VALUES (?1, ?2, ?3, ?4)", -1, &insert, nil) == SQLITE_OK else {
            throw TileProblem("MBTiles '\(path)': \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    /// Adds one encoded tile at an XYZ coordinate (stored in TMS order).
    package func add(_ coordinate: TileCoordinate, bytes: [UInt8]) throws(TileProblem) {
        sqlite3_reset(insert)
        sqlite3_bind_int(insert, 1, Int32(coordinate.z))
        sqlite3_bind_int(insert, 2, Int32(coordinate.x))
        sqlite3_bind_int(insert, 3, Int32(coordinate.tmsRow))
        let status = bytes.withUnsafeBytes { buffer in
            // SQLITE_TRANSIENT (a macro Swift cannot import): SQLite copies the bytes.
            sqlite3_bind_blob(insert, 4, buffer.baseAddress, Int32(buffer.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        guard status == SQLITE_OK, sqlite3_step(insert) == SQLITE_DONE else {
            throw TileProblem("MBTiles '\(path)': \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    /// Commits and closes the file.
    package func finish() throws(TileProblem) {
        sqlite3_finalize(insert)
        insert = nil
        try execute("COMMIT")
        sqlite3_close(database)
        database = nil
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(database)
    }

    private func execute(_ sql: String) throws(TileProblem) {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw TileProblem("MBTiles '\(path)': \(String(cString: sqlite3_errmsg(database)))")
        }
    }
}
