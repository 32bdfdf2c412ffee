/// The tiles one image needs, fetched and decoded, with how they map onto the image
/// (`TileResampler.fetch`); `TileResampler.draw(_:into:)` draws them.
public struct FetchedTiles {
    /// What was fetched: the zoom, tiles drawn, absent and failed, problems.
    public var report: BasemapReport
    /// Whether drawing writes every pixel of the image opaque (every tile there and opaque, the
    /// view inside the world, full opacity), so that nothing drawn under it can show: a caller
    /// may then leave the canvas unpainted.
    public var coversEveryPixel: Bool

    /// Everything `draw` needs; nil when no tile is drawn.
    let drawing: Drawing?

    /// The plan, the taps of both axes and the tiles by tile row and slot.
    struct Drawing {
        let plan: TilePlan
        let columns: TapTable, rows: TapTable
        /// Tile rows `firstRow...lastRow`, each the tiles of columns `firstColumn...` (nil where missing).
        let grid: [[TileImage?]]
        let firstColumn: Int, firstRow: Int, lastRow: Int
        let opacity: Float
    }

    init(report: BasemapReport, drawing: Drawing? = nil, coversEveryPixel: Bool = false) {
        self.report = report
        self.drawing = drawing
        self.coversEveryPixel = coversEveryPixel
    }
}
