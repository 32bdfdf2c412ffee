import MapStyle
import PNGEncoding
import Raster
import VectorMap

/// Buffers reused from one image to the next: the palette canvas, the stroke mask and the PNG
/// encoder's buffers. A worker keeps one for its life, so drawing a 2560×1920 image costs no fresh
/// 5 MB allocations (and their page faults) after the first. Not thread-safe: one per thread.
/// Everything drawn overwrites or clears what it uses, so nothing of one image reaches the next
/// (`SnapshotRendererTests` renders sizes in turn through one scratch and compares).
public final class RenderScratch {
    var canvas = IndexedCanvas()
    var mask = CoverageMask(width: 1, height: 1)
    /// The route casing's mask where the route is drawn as two coverages (RGBA targets).
    var casing = CoverageMask(width: 1, height: 1)
    var encoder = PalettePNGEncoder()
    /// Reduces an RGBA map under the overview's heat map to a palette (`MapBackdrop`).
    var quantizer = PaletteQuantizer()
    /// The RGBA canvas's memory between images (raster maps and colour bands are drawn in RGBA).
    var rgbaPixels: [UInt8] = []
    /// The vector map's buffers (accumulation, masks).
    var vectorMap = VectorMapPainter()
    /// Map style documents read so far, by their text (a worker reads its style once).
    var mapStyles: [String: MapStyleDocument] = [:]

    /// Empty buffers; they grow to the largest image drawn.
    public init() {}
}
