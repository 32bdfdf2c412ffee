/// The image columns of one image row that repeat the image row above: columns all of whose
/// taps lie in segments of the assembled source row (eighths of a tile,
/// `TileImage.segmentsEqualAbove`) where every source row both image rows are drawn from equals
/// its row above. Their filtered values are then the same for both image rows, and so is their
/// vertical sum (a pixel's weights add up to 1), so `TileResampler` copies them from the row
/// above instead of summing.
///
/// Why: at the zooms a map is drawn at, two thirds of a map image's 64-pixel chunks equal the
/// chunk above (water, forest, fields, the long sides of roads); summing and rounding them was
/// the largest part of the resampling (`perf`, a raster run: `storeOpaque` 11%). Eighths of a
/// tile rather than whole tile rows: a road crossing a field leaves the rest of the row
/// repeating.
struct RepeatedColumns {
    /// Ranges of image columns, left to right, that repeat the image row above.
    private(set) var columns: [Range<Int>] = []
    private let segments: SegmentColumns
    private let tilePixels: Int

    /// For the image columns and segments of `segments`, tiles of `tilePixels`.
    init(segments: SegmentColumns, tilePixels: Int) {
        self.segments = segments
        self.tilePixels = tilePixels
        columns.reserveCapacity(segments.tileColumns)
    }

    /// No column repeats (the row above was blended, not stored, or there was none).
    mutating func clear() {
        columns.removeAll(keepingCapacity: true)
    }

    /// Finds the repeating columns for two image rows drawn from source rows `spanned` (both
    /// rows' taps together). `grid` holds tile rows `firstRow...` by tile column. Rows spanning
    /// two tile rows repeat nowhere.
    mutating func find(spanned: ClosedRange<Int>, grid: [[TileImage?]], firstRow: Int) {
        columns.removeAll(keepingCapacity: true)
        let tileRow = spanned.lowerBound / tilePixels
        guard spanned.lowerBound >= 0, spanned.upperBound / tilePixels == tileRow, tileRow >= firstRow, tileRow - firstRow < grid.count else {
            return
        }
        let tiles = grid[tileRow - firstRow]
        let top = spanned.lowerBound - tileRow * tilePixels, bottom = spanned.upperBound - tileRow * tilePixels
        var found = columns
        columns = []
        segments.forEachRun { tileColumn in
            guard tileColumn < tiles.count, let tile = tiles[tileColumn] else { return 0 }
            var repeating: UInt8 = 0xFF
            for row in stride(from: top + 1, through: bottom, by: 1) { repeating &= tile.segmentsEqualAbove(row) }
            return repeating
        } _: {
            found.append($0)
        }
        columns = found
    }
}
