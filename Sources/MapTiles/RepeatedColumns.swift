/// The image columns of one image row that repeat the image row above: columns all of whose
/// taps lie in segments of the assembled source row (eighths of a tile, `TileImage.segmentsEqualAbove`)
/// where every source row both image rows are drawn from equals its row above. Their filtered
/// values are then the same for both image rows, and so is their vertical sum (a pixel's
/// weights add up to 1), so `TileResampler` copies them from the row above instead of summing.
///
/// Why: at the zooms a map is drawn at, two thirds of a map image's 64-pixel chunks equal the
/// chunk above (water, forest, fields, the long sides of roads); summing and rounding them was
/// the largest part of the resampling (`perf`, a raster run: `storeOpaque` 11%). Eighths of a
/// tile rather than whole tile rows: a road crossing a field leaves the rest of the row
/// repeating (whole tile rows found a third as many columns).
struct RepeatedColumns {
    /// Ranges of image columns, left to right, that repeat the image row above.
    private(set) var columns: [Range<Int>] = []
    /// Segments a tile is cut into (bits of a `segmentsEqualAbove` mask).
    private static let segmentsPerTile = 8
    private let tileColumns: Int, tilePixels: Int, segmentPixels: Int
    /// Per segment boundary `k` of the assembled row (source pixel `k · segmentPixels`): the
    /// first image column whose taps all lie at or right of it.
    private let firstColumnFrom: [Int]
    /// Per segment boundary `k`: the first image column with a tap at or right of it (every
    /// column before it has all its taps left of it).
    private let columnEndBefore: [Int]
    /// Whether a tile cuts into whole-pixel eighths (else nothing is copied).
    private let enabled: Bool

    /// For an assembled row of `tileColumns` tiles of `tilePixels` starting at source pixel
    /// `firstColumn` and image columns tapped by `columns`.
    init(width: Int, columns: TapTable, tileColumns: Int, tilePixels: Int, firstColumn: Int) {
        self.tileColumns = tileColumns
        self.tilePixels = tilePixels
        segmentPixels = tilePixels / Self.segmentsPerTile
        let taps = columns.mostTaps, boundaries = tileColumns * Self.segmentsPerTile
        // Taps move right with the column, so both tables come from one sweep each.
        var first = [Int](repeating: width, count: boundaries + 1), end = [Int](repeating: width, count: boundaries + 1)
        var low = 0, high = 0
        for boundary in 0...boundaries {
            let source = firstColumn + boundary * segmentPixels
            while low < width && columns.sources[(low * taps)..<(low * taps + taps)].min()! < source { low += 1 }
            while high < width && columns.sources[(high * taps)..<(high * taps + taps)].max()! < source { high += 1 }
            first[boundary] = low
            end[boundary] = high
        }
        firstColumnFrom = first
        columnEndBefore = end
        enabled = tilePixels % Self.segmentsPerTile == 0
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
        guard enabled, spanned.lowerBound >= 0, spanned.upperBound / tilePixels == tileRow, tileRow >= firstRow,
            tileRow - firstRow < grid.count
        else { return }
        let tiles = grid[tileRow - firstRow]
        let top = spanned.lowerBound - tileRow * tilePixels, bottom = spanned.upperBound - tileRow * tilePixels
        var runStart = -1
        for slot in 0..<tileColumns {
            var repeating: UInt8 = 0
            if slot < tiles.count, let tile = tiles[slot] {
                repeating = 0xFF
                for row in stride(from: top + 1, through: bottom, by: 1) { repeating &= tile.segmentsEqualAbove(row) }
            }
            for segment in 0..<Self.segmentsPerTile {
                let boundary = slot * Self.segmentsPerTile + segment
                if repeating & (1 << UInt8(segment)) != 0 {
                    if runStart < 0 { runStart = boundary }
                } else if runStart >= 0 {
                    close(runStart, boundary)
                    runStart = -1
                }
            }
        }
        if runStart >= 0 { close(runStart, tileColumns * Self.segmentsPerTile) }
    }

    /// Adds the image columns whose taps all lie in segments `start..<end`.
    private mutating func close(_ start: Int, _ end: Int) {
        let lower = firstColumnFrom[start], upper = columnEndBefore[end]
        if lower < upper { columns.append(lower..<upper) }
    }
}
