import PNGEncoding
import Raster

/// Buffers reused from one image to the next: the palette canvas, the stroke mask and the PNG
/// encoder's buffers. A worker keeps one for its life, so drawing a 2560×1920 image costs no fresh
/// 5 MB allocations (and their page faults) after the first. Not thread-safe: one per thread.
/// Everything drawn overwrites or clears what it uses, so nothing of one image reaches the next
/// (`SnapshotRendererTests` renders sizes in turn through one scratch and compares).
public final class RenderScratch {
    var canvas = IndexedCanvas()
    var mask = CoverageMask(width: 1, height: 1)
    var encoder = PalettePNGEncoder()

    /// Empty buffers; they grow to the largest image drawn.
    public init() {}
}
