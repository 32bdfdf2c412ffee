import CLibPNG
import Raster

/// A libpng failure, with libpng's own message.
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// "encode" or "decode".
    public var operation: String
    /// libpng's message.
    public var message: String

    /// One line for users.
    public var description: String { "PNG \(operation) failed: \(message)" }
}

/// Canvas → PNG bytes through libpng (`PalettePNGEncoder` and TileSources' `TileDecoder` are the
/// other Swift callers of the C shim). Every libpng error arrives here as a status from the shim
/// and is thrown, never dropped. No tIME or text chunks
/// are written, so the same canvas always gives the same bytes.
public enum PNGEncoder {
    /// Encodes a canvas.
    public static func encode(_ canvas: Canvas, settings: PNGSettings = PNGSettings()) throws(PNGError) -> [UInt8] {
        let opaque = isOpaque(canvas)
        if settings.layout == .automatic, opaque, let indexed = PaletteImage(canvas) {
            return try indexed.indices.withUnsafeBufferPointer { indices throws(PNGError) in
                try indexed.paletteRGB.withUnsafeBufferPointer { palette throws(PNGError) in
                    var c = cSettings(settings, layout: TSNAP_PNG_PALETTE)
                    c.filter_flags = 0x08  // PNG_FILTER_NONE
                    c.palette_rgb = palette.baseAddress
                    c.palette_count = Int32(indexed.paletteRGB.count / 3)
                    return try run(indices.baseAddress!, canvas.width, canvas.height, canvas.width, &c)
                }
            }
        }
        return try canvas.pixels.withUnsafeBufferPointer { pixels throws(PNGError) in
            var c = cSettings(settings, layout: opaque ? TSNAP_PNG_RGBX_AS_RGB : TSNAP_PNG_RGBA)
            return try run(pixels.baseAddress!, canvas.width, canvas.height, canvas.rowStride, &c)
        }
    }

    /// The version of the libpng linked in.
    public static var libpngVersion: String { String(cString: tsnap_png_libpng_version()) }

    private static func cSettings(_ settings: PNGSettings, layout: tsnap_png_layout) -> tsnap_png_settings {
        tsnap_png_settings(
            layout: layout, compression_level: settings.compressionLevel,
            compression_strategy: settings.compressionStrategy, filter_flags: settings.filterFlags,
            palette_rgb: nil, palette_count: 0)
    }

    private static func run(
        _ pixels: UnsafePointer<UInt8>, _ width: Int, _ height: Int, _ stride: Int, _ settings: inout tsnap_png_settings
    ) throws(PNGError) -> [UInt8] {
        var buffer = tsnap_png_buffer(bytes: nil, count: 0, capacity: 0, failed_allocation: 0)
        defer { tsnap_png_buffer_free(&buffer) }
        var message = [CChar](repeating: 0, count: 256)
        let status = tsnap_png_encode(pixels, UInt32(width), UInt32(height), stride, &settings, &buffer, &message, message.count)
        guard status == 0, let bytes = buffer.bytes else {
            throw PNGError(operation: "encode", message: cMessage(message))
        }
        return Array(UnsafeBufferPointer(start: bytes, count: buffer.count))
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ canvas: Canvas) -> Bool {
        canvas.pixels.withUnsafeBytes { raw in
            // The alpha bytes of two pixels at a time ANDed together (a loop the compiler
            // vectorizes): a byte-wise scan cost ~5 ms at 2560×1920.
            let pairs = raw.count / 8
            var alphas: UInt64 = 0xFF00_0000_FF00_0000
            for pair in 0..<pairs { alphas &= raw.loadUnaligned(fromByteOffset: pair * 8, as: UInt64.self) }
            var opaque = UInt64(littleEndian: alphas) & 0xFF00_0000_FF00_0000 == 0xFF00_0000_FF00_0000
            if raw.count % 8 == 4 { opaque = opaque && raw[raw.count - 1] == 255 }
            return opaque
        }
    }
}

/// PNG bytes → canvas through libpng's decoder (any PNG, converted to RGBA8).
public enum PNGDecoder {
    /// Decodes PNG bytes.
    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> Canvas {
        var width: UInt32 = 0, height: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>? = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buffer in
            tsnap_png_decode_rgba(buffer.baseAddress, buffer.count, &width, &height, &pixels, &message, message.count)
        }
        defer { tsnap_png_free_pixels(pixels) }
        guard status == 0, let pixels, width > 0, height > 0 else {
            throw PNGError(operation: "decode", message: cMessage(message))
        }
        var canvas = Canvas(width: Int(width), height: Int(height), fill: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        canvas.pixels = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
        return canvas
    }
}

/// The text of a NUL-terminated C message buffer.
func cMessage(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}
