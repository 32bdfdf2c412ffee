import CLibPNG
import Raster

/// `IndexedCanvas` → PNG bytes: an 8-bit palette PNG, every row with the "up" filter, compressed
/// by `RowDeflater` and written by libpng. Keeps its buffers for the next image, so use one per
/// thread (a worker renders with one for its whole life).
public struct PalettePNGEncoder: Sendable {
    private var deflater = RowDeflater()

    /// An encoder with empty buffers.
    public init() {}

    /// Encodes the canvas (deterministic: the same canvas gives the same bytes).
    public mutating func encode(_ canvas: IndexedCanvas) throws(PNGError) -> [UInt8] {
        guard canvas.width > 0, canvas.height > 0, canvas.palette.count > 0 else {
            throw PNGError(operation: "encode", message: "an empty palette image")
        }
        let width = canvas.width, height = canvas.height
        let stream = canvas.indices.withUnsafeBufferPointer { indices in
            deflater.compress(indices.baseAddress!, width: width, height: height, stride: width)
        }
        var paletteRGB: [UInt8] = []
        paletteRGB.reserveCapacity(canvas.palette.count * 3)
        for color in canvas.palette.colors { paletteRGB += [color.red, color.green, color.blue] }
        var buffer = tsnap_png_buffer(bytes: nil, count: 0, capacity: 0, failed_allocation: 0)
        defer { tsnap_png_buffer_free(&buffer) }
        var message = [CChar](repeating: 0, count: 256)
        let status = paletteRGB.withUnsafeBufferPointer { palette in
            stream.withUnsafeBufferPointer { data in
                tsnap_png_write_palette_stream(
                    UInt32(width), UInt32(height), palette.baseAddress, Int32(canvas.palette.count), data.baseAddress, data.count,
                    &buffer, &message, message.count)
            }
        }
        guard status == 0, let bytes = buffer.bytes else {
            throw PNGError(operation: "encode", message: cMessage(message))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
    }
}
