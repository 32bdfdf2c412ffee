/// Which parts of a mask hold coverage, kept as a coarse map of 64×8-pixel blocks.
///
/// A vector map blends one whole-image mask per paint group (about forty an image), and a group
/// of roads or buildings touches a small share of its bounding rectangle. Scanning and clearing
/// that rectangle streamed the 4.9 MB mask of a 2560×1920 image forty times; with the block map,
/// blending and clearing visit only the blocks a writer marked (`perf`, 24 tracks over
/// Liechtenstein: with the fused fill blend below, the palette blend went from 28% to 18% of the run).
///
/// Tracking is opt-in (`trackBlocks()`): only writers that mark what they write may draw into a
/// tracking mask (`AreaAccumulator.resolve(into:)`, `StrokeRasterizer.stroke(_:radiusPixels:into:)`,
/// and lowering values, which never needs a mark). The invariant: every nonzero value lies in a
/// marked block; a marked block may hold zeros.
extension CoverageMask {
    /// Block width in pixels, as a shift: 64 columns.
    public static let blockColumnShift = 6
    /// Block height in pixels, as a shift: 8 rows.
    public static let blockRowShift = 3

    /// Whether the mask keeps a block map.
    public var tracksBlocks: Bool { blockColumns > 0 }

    /// Starts keeping a block map (the mask must be empty); `reshape` keeps it in step.
    public mutating func trackBlocks() {
        precondition(isEmpty, "start tracking blocks on an empty mask")
        blockColumns = Self.blockCount(width, shift: Self.blockColumnShift)
        blocks = [UInt8](repeating: 0, count: blockColumns * Self.blockCount(height, shift: Self.blockRowShift))
    }

    /// Number of blocks covering `pixels` at a block side of `1 << shift`.
    static func blockCount(_ pixels: Int, shift: Int) -> Int { (pixels + (1 << shift) - 1) >> shift }

    /// Calls `body(row, first, last)` for runs of columns `first...last` of `row` that may hold
    /// coverage, top to bottom and left to right: the marked blocks (merged where neighbours
    /// are marked) when the mask tracks blocks, else every row of the touched rectangle. Pixels
    /// outside the runs are zero.
    @inlinable
    public func forEachCoveredRun(_ body: (_ row: Int, _ first: Int, _ last: Int) -> Void) {
        guard !isEmpty else { return }
        guard tracksBlocks else {
            for row in minY...maxY { body(row, minX, maxX) }
            return
        }
        let rowShift = Self.blockRowShift
        for blockRow in (minY >> rowShift)...(maxY >> rowShift) {
            let top = max(blockRow << rowShift, minY), bottom = min(((blockRow + 1) << rowShift) - 1, maxY)
            forEachMarkedRun(blockRow: blockRow) { first, last in
                for row in top...bottom { body(row, first, last) }
            }
        }
    }

    /// Calls `body(first, last)` for each run of marked blocks in block row `blockRow` (neighbours
    /// merged), as columns clipped to the touched rectangle, left to right.
    @inlinable
    func forEachMarkedRun(blockRow: Int, _ body: (_ first: Int, _ last: Int) -> Void) {
        let columnShift = Self.blockColumnShift
        let rowBase = blockRow * blockColumns
        let lastBlock = maxX >> columnShift
        var block = minX >> columnShift
        while block <= lastBlock {
            guard blocks[rowBase + block] != 0 else {
                block += 1
                continue
            }
            var end = block
            while end < lastBlock, blocks[rowBase + end + 1] != 0 { end += 1 }
            body(max(block << columnShift, minX), min(((end + 1) << columnShift) - 1, maxX))
            block = end + 1
        }
    }
}

extension CoverageMask {
    /// Calls `body(row, first, last)` as `forEachCoveredRun` does, but row by row, top to bottom
    /// and left to right across the whole mask: the order in which pixels were visited before
    /// masks kept blocks, for a caller whose result depends on it (a palette that grows as it
    /// blends).
    @inlinable
    public func forEachCoveredRunByRow(_ body: (_ row: Int, _ first: Int, _ last: Int) -> Void) {
        // Without blocks (or coverage) `forEachCoveredRun` already goes row by row.
        guard tracksBlocks, !isEmpty else { return forEachCoveredRun(body) }
        for row in minY...maxY {
            forEachMarkedRun(blockRow: row >> Self.blockRowShift) { first, last in body(row, first, last) }
        }
    }

    /// Calls `body(first, last)` for the runs of one row in `minY...maxY`, left to right: the
    /// runs `forEachCoveredRunByRow` gives for that row.
    @inlinable
    func forEachCoveredRun(inRow row: Int, _ body: (_ first: Int, _ last: Int) -> Void) {
        guard tracksBlocks else { return body(minX, maxX) }
        forEachMarkedRun(blockRow: row >> Self.blockRowShift, body)
    }
}

/// Marks blocks from inside a writer's loop, where the mask itself is borrowed: a pointer to the
/// block map (nil when the mask does not track blocks) and its row length.
struct BlockMarker {
    /// The block map, or nil.
    let blocks: UnsafeMutablePointer<UInt8>?
    /// Blocks per block row.
    let blockColumns: Int

    /// Marks the blocks holding columns `first...last` of `row`.
    @inline(__always)
    func mark(row: Int, first: Int, last: Int) {
        guard let blocks else { return }
        let base = (row >> CoverageMask.blockRowShift) &* blockColumns
        let firstBlock = first >> CoverageMask.blockColumnShift, lastBlock = last >> CoverageMask.blockColumnShift
        // The two ends without a loop: a run is mostly within one or two blocks.
        blocks[base &+ firstBlock] = 1
        blocks[base &+ lastBlock] = 1
        var block = firstBlock &+ 1
        while block < lastBlock {
            blocks[base &+ block] = 1
            block &+= 1
        }
    }

    /// Marks the blocks holding rows `firstRow...lastRow` of `column`.
    @inline(__always)
    func mark(column: Int, firstRow: Int, lastRow: Int) {
        guard let blocks else { return }
        let blockColumn = column >> CoverageMask.blockColumnShift
        var index = (firstRow >> CoverageMask.blockRowShift) &* blockColumns &+ blockColumn
        let lastIndex = (lastRow >> CoverageMask.blockRowShift) &* blockColumns &+ blockColumn
        while index <= lastIndex {
            blocks[index] = 1
            index &+= blockColumns
        }
    }

    /// Marks the block holding column `x` of `row`.
    @inline(__always)
    func mark(row: Int, x: Int) {
        guard let blocks else { return }
        blocks[(row >> CoverageMask.blockRowShift) * blockColumns + (x >> CoverageMask.blockColumnShift)] = 1
    }
}

extension CoverageMask {
    /// Runs `body` with a marker for this mask's block map (a no-op marker when it keeps none).
    /// The mask's values must not be borrowed by the caller at the same time as `blocks`: take the
    /// values' pointer inside `body` through the mask passed back.
    mutating func withBlockMarker<Result>(_ body: (inout CoverageMask, BlockMarker) -> Result) -> Result {
        guard tracksBlocks else { return body(&self, BlockMarker(blocks: nil, blockColumns: 0)) }
        var map = blocks
        blocks = []
        defer { blocks = map }
        return map.withUnsafeMutableBufferPointer { map in
            body(&self, BlockMarker(blocks: map.baseAddress!, blockColumns: blockColumns))
        }
    }
}
