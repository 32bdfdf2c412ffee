/// The image columns of one image row that repeat the image row above: columns whose taps all
/// lie in one tile (`RowFilter.columnsInside`), where every source row both image rows are
/// drawn from equals its row above in that tile. Their filtered values are then the same for
/// both image rows, and so is their vertical sum (the weights of a pixel add up to 1), so
/// `TileResampler` copies them from the row above instead of summing them.
///
/// Why: at the zooms a map is drawn at, a third of a tile's rows repeat the row above (four
/// fifths at the closest zooms: water, forest, fields), and two thirds of a map image's 64-pixel
/// chunks equal the chunk above; summing and rounding them was the largest part of the resampling
/// (`perf`, a raster run: `storeOpaque` 11%).
struct RepeatedColumns {
    /// Ranges of image columns, left to right, that repeat the image row above.
    private(set) var columns: [Range<Int>] = []

    /// Room for one range a tile column.
    init(tileColumns: Int) {
        columns.reserveCapacity(tileColumns)
    }

    /// No column repeats (the row above was blended, not stored, or there was none).
    mutating func clear() {
        columns.removeAll(keepingCapacity: true)
    }

    /// Finds the repeating columns for two image rows drawn from source rows `spanned` (both
    /// rows' taps together). `grid` holds tile rows `firstRow...` by slot; `inside` the image
    /// columns all of whose taps lie in each slot's tile. Rows spanning two tile rows repeat
    /// nowhere.
    mutating func find(spanned: ClosedRange<Int>, grid: [[TileImage?]], firstRow: Int, tilePixels: Int, inside: [Range<Int>]) {
        columns.removeAll(keepingCapacity: true)
        let tileRow = spanned.lowerBound / tilePixels
        guard spanned.lowerBound >= 0, spanned.upperBound / tilePixels == tileRow, tileRow >= firstRow, tileRow - firstRow < grid.count else {
            return
        }
        let top = spanned.lowerBound - tileRow * tilePixels, bottom = spanned.upperBound - tileRow * tilePixels
        for (slot, tile) in grid[tileRow - firstRow].enumerated() where slot < inside.count && !inside[slot].isEmpty {
            guard let tile else { continue }
            var repeats = true
            for row in stride(from: top + 1, through: bottom, by: 1) where !tile.rowEqualsRowAbove(row) {
                repeats = false
                break
            }
            if repeats { columns.append(inside[slot]) }
        }
    }
}
