import MapStyle
import MapTiles
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
    /// The route's mask. It keeps a block map: blending a 2560×1920 route read the whole mask's
    /// bounding box, of which the route covers a few percent (`perf`: half of that blend).
    var mask = CoverageMask(width: 1, height: 1)
    /// The route casing's mask where the route is drawn as two coverages (RGBA targets).
    var casing = CoverageMask(width: 1, height: 1)
    var encoder = PalettePNGEncoder()
    /// Reduces an RGBA map under the overview's heat map to a palette (`MapBackdrop`).
    var quantizer = PaletteQuantizer()
    /// The RGBA canvases' memory between images (raster maps and colour bands are drawn in RGBA),
    /// by byte count: each of a worker's few image sizes keeps its own, so a canvas is not
    /// zero-filled again whenever a larger size follows a smaller one (`perf`, a raster run: 1%).
    private var rgbaPixels: [Int: [UInt8]] = [:]
    /// A raster basemap's tiles fetched before its canvas was made (`SnapshotPainter.paintRGBA`),
    /// for the basemap layer to draw.
    var prefetchedBasemap: FetchedTiles?

    /// The kept RGBA memory of `byteCount` bytes, or none (the canvas allocates). Not another
    /// size's: one buffer resized from size to size reallocated, and its fresh pages' faults were
    /// a fifth of a raster run.
    func takeRGBA(byteCount: Int) -> [UInt8] { rgbaPixels.removeValue(forKey: byteCount) ?? [] }

    /// Keeps a canvas's memory for the next image of its size; at most four sizes (a worker's
    /// default images), the largest kept.
    func keepRGBA(_ pixels: [UInt8]) {
        rgbaPixels[pixels.count] = pixels
        while rgbaPixels.count > 4, let smallest = rgbaPixels.keys.min() { rgbaPixels[smallest] = nil }
    }
    /// The vector map's buffers (accumulation, masks).
    var vectorMap = VectorMapPainter()
    /// Map style documents read so far, by their text (a worker reads its style once).
    var mapStyles: [String: MapStyleDocument] = [:]

    /// Empty buffers; they grow to the largest image drawn.
    public init() {
        mask.trackBlocks()
    }
}
