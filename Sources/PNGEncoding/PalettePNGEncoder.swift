import CLibPNG
import Raster

/// `IndexedCanvas` (or an RGBA canvas reduced to a palette) → PNG bytes: an 8-bit palette PNG,
/// every row with the "up" filter, compressed by `RowDeflater` and written by libpng. Keeps its buffers for the next image, so use one per
/// thread (a worker renders with one for its whole life).
public struct PalettePNGEncoder: Sendable {
    private var deflater = RowDeflater()
    private var quantizer = PaletteQuantizer()
    /// The palette indices of an RGBA canvas reduced to a palette (reused: a 2560×1920 image's
    /// indices were 5 MB of fresh pages each time, two thirds of a raster run's page faults).
    private var indices: [UInt8] = []

    /// An encoder with empty buffers.
    public init() {}

    /// Encodes the canvas (deterministic: the same canvas gives the same bytes).
    public mutating func encode(_ canvas: IndexedCanvas) throws(PNGError) -> [UInt8] {
        let paletteRGB = Self.paletteRGB(of: canvas)
        return try encode(indices: canvas.indices, paletteRGB: paletteRGB, width: canvas.width, height: canvas.height)
    }

    /// Encodes the `width`×`height` pixels of `canvas` whose top-left corner is (`x`, `y`), with
    /// the canvas's whole palette (one tile of a picture cut into several files: its rows are
    /// compressed where they lie, no copy is made). The same pixels and palette give the same bytes.
    public mutating func encode(_ canvas: IndexedCanvas, x: Int, y: Int, width: Int, height: Int) throws(PNGError) -> [UInt8] {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= canvas.width, y + height <= canvas.height else {
            throw PNGError(
                operation: "encode", message: "the rectangle \(x),\(y) \(width)×\(height) is not inside the \(canvas.width)×\(canvas.height) canvas")
        }
        let paletteRGB = Self.paletteRGB(of: canvas)
        let stream = canvas.indices.withUnsafeBufferPointer { indices in
            deflater.compress(indices.baseAddress! + y * canvas.width + x, width: width, height: height, stride: canvas.width)
        }
        return try write(stream: stream, paletteRGB: paletteRGB, width: width, height: height)
    }

    /// The canvas's palette as PNG's PLTE wants it: 3 bytes an entry. Built per call, tiles
    /// included: a few hundred bytes, far below one tile's compression.
    private static func paletteRGB(of canvas: IndexedCanvas) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(canvas.palette.count * 3)
        for color in canvas.palette.colors { bytes += [color.red, color.green, color.blue] }
        return bytes
    }

    /// Encodes an opaque RGBA canvas as a palette PNG: exact when it has at most 256 colours, else
    /// reduced by `PaletteQuantizer` (its stated error). Nil when the canvas is not opaque (then
    /// `PNGEncoder` writes RGBA).
    public mutating func encodeReducingColors(_ canvas: Canvas) throws(PNGError) -> [UInt8]? {
        guard PNGEncoder.isOpaque(canvas) else { return nil }
        var indices = self.indices
        self.indices = []
        defer { self.indices = indices }
        let palette = PaletteImage.palette(of: canvas, indices: &indices) ?? quantizer.quantize(canvas, indices: &indices)
        return try encode(indices: indices, paletteRGB: palette, width: canvas.width, height: canvas.height)
    }

    /// Encodes the first `width`×`height` palette indices (row-major; a reused buffer may hold
    /// more) with a palette of 3 bytes an entry.
    mutating func encode(indices: [UInt8], paletteRGB: [UInt8], width: Int, height: Int) throws(PNGError) -> [UInt8] {
        let paletteCount = paletteRGB.count / 3
        guard width > 0, height > 0, paletteCount > 0, paletteCount <= 256, indices.count >= width * height else {
            throw PNGError(operation: "encode", message: "an empty palette image")
        }
        let stream = indices.withUnsafeBufferPointer { indices in
            deflater.compress(indices.baseAddress!, width: width, height: height, stride: width)
        }
        return try write(stream: stream, paletteRGB: paletteRGB, width: width, height: height)
    }

    /// The PNG of a palette image whose zlib stream (`RowDeflater`) is `stream`.
    private func write(stream: [UInt8], paletteRGB: [UInt8], width: Int, height: Int) throws(PNGError) -> [UInt8] {
        let paletteCount = paletteRGB.count / 3
        guard paletteCount > 0, paletteCount <= 256 else { throw PNGError(operation: "encode", message: "an empty palette image") }
        var buffer = tsnap_png_buffer(bytes: nil, count: 0, capacity: 0, failed_allocation: 0)
        defer { tsnap_png_buffer_free(&buffer) }
        var message = [CChar](repeating: 0, count: 256)
        let status = paletteRGB.withUnsafeBufferPointer { palette in
            stream.withUnsafeBufferPointer { data in
                tsnap_png_write_palette_stream(
                    UInt32(width), UInt32(height), palette.baseAddress, Int32(paletteCount), data.baseAddress, data.count,
                    &buffer, &message, message.count)
            }
        }
        guard status == 0, let bytes = buffer.bytes else {
            throw PNGError(operation: "encode", message: cMessage(message))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
    }
}
