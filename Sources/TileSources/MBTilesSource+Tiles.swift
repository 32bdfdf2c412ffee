import MapTiles
import SystemSQLite

extension MBTilesSource {
    /// How many rows the tiles table (or view) has.
    package func tileCount() throws(TileProblem) -> Int {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT count(*) FROM tiles", -1, &statement, nil) == SQLITE_OK else {
            throw TileProblem("MBTiles '\(path)': cannot count its tiles: \(String(cString: sqlite3_errmsg(database)))")
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else {
            throw TileProblem("MBTiles '\(path)': cannot count its tiles: \(String(cString: sqlite3_errmsg(database)))")
        }
        return Int(sqlite3_column_int64(statement, 0))
    }

    /// Every tile in the file with its XYZ coordinate, in the table's order. A row outside its
    /// zoom's grid (a zoom past 30, a column or row outside 0..<2^z) or a tile larger than
    /// `limit` bytes is an error naming the file and the row.
    package func forEachTile(limit: Int, _ body: (TileCoordinate, [UInt8]) throws(TileProblem) -> Void) throws(TileProblem) {
        var statement: OpaquePointer?
        let sql = "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
            throw TileProblem("MBTiles '\(path)': cannot read its tiles: \(String(cString: sqlite3_errmsg(database)))")
        }
        defer { sqlite3_finalize(statement) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else {
                throw TileProblem("MBTiles '\(path)': reading its tiles failed: \(String(cString: sqlite3_errmsg(database)))")
            }
            let z = sqlite3_column_int64(statement, 0), x = sqlite3_column_int64(statement, 1), row = sqlite3_column_int64(statement, 2)
            guard Self.zoomRange.contains(Int(clamping: z)), (0..<(Int64(1) << z)).contains(x), (0..<(Int64(1) << z)).contains(row) else {
                throw TileProblem("MBTiles '\(path)': the tile at zoom \(z), column \(x), row \(row) lies outside its zoom's grid")
            }
            let coordinate = TileCoordinate(z: Int(z), x: Int(x), y: (1 << Int(z)) - 1 - Int(row))
            let count = Int(sqlite3_column_bytes(statement, 3))
            guard count <= limit else {
                throw TileProblem("MBTiles '\(path)': tile \(coordinate) is \(count) bytes, more than the \(limit >> 20) MiB a tile may have")
            }
            let bytes = count > 0 ? sqlite3_column_blob(statement, 3).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [] : []
            try body(coordinate, bytes)
        }
    }
}
