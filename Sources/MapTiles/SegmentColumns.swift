/// Where the eighths of each tile (`TileImage.segmentsEqualAbove`) land in the image: for a run
/// of segments of the assembled source row, the image columns all of whose taps lie in it. A
/// source row equal to the row above in some segments filters to the same values there, so
/// those columns can be copied (`RowFilter` from the filtered row above, `RepeatedColumns` from
/// the image row above) instead of computed.
struct SegmentColumns {
    /// Segments a tile is cut into (the bits of a `segmentsEqualAbove` mask).
    static let segmentsPerTile = 8
    /// Tiles side by side in the assembled row.
    let tileColumns: Int
    /// Whether a tile cuts into whole-pixel eighths; if not, no column is ever copied.
    let enabled: Bool
    /// Per segment boundary `k` of the assembled row (source pixel `k · tilePixels / 8`): the
    /// first image column whose taps all lie at or right of it.
    private let firstColumnFrom: [Int]
    /// Per segment boundary `k`: the first image column with a tap at or right of it (every
    /// column before it has all its taps left of it).
    private let columnEndBefore: [Int]

    /// For an assembled row of `tileColumns` tiles of `tilePixels` starting at source pixel
    /// `firstColumn`, and image columns tapped by `columns`.
    init(width: Int, columns: TapTable, tileColumns: Int, tilePixels: Int, firstColumn: Int) {
        self.tileColumns = tileColumns
        enabled = tilePixels % Self.segmentsPerTile == 0
        let segmentPixels = tilePixels / Self.segmentsPerTile, taps = columns.mostTaps, boundaries = tileColumns * Self.segmentsPerTile
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
    }

    /// Calls `body`, left to right, with the image columns of each run of segments whose bit is
    /// set in their tile column's mask (`mask(tileColumn)`); nothing when not `enabled`.
    @inline(__always)
    func forEachRun(mask: (Int) -> UInt8, _ body: (Range<Int>) -> Void) {
        guard enabled else { return }
        var runStart = -1
        for tileColumn in 0..<tileColumns {
            let bits = mask(tileColumn)
            if bits == 0xFF && runStart >= 0 { continue }
            for segment in 0..<Self.segmentsPerTile {
                let boundary = tileColumn * Self.segmentsPerTile + segment
                if bits & (1 << UInt8(segment)) != 0 {
                    if runStart < 0 { runStart = boundary }
                } else if runStart >= 0 {
                    if firstColumnFrom[runStart] < columnEndBefore[boundary] { body(firstColumnFrom[runStart]..<columnEndBefore[boundary]) }
                    runStart = -1
                }
            }
        }
        let last = tileColumns * Self.segmentsPerTile
        if runStart >= 0 && firstColumnFrom[runStart] < columnEndBefore[last] { body(firstColumnFrom[runStart]..<columnEndBefore[last]) }
    }
}
