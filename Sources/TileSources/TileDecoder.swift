import CLibJPEG
import CLibPNG
import MapTiles

/// Limits on one tile's bytes and pixels, so a hostile or broken source cannot make a worker
/// allocate without bound.
package struct TileLimits: Sendable, Equatable {
    /// Largest encoded tile, bytes. Default: 4 MiB (real tiles are 5–300 KB; 512-pixel aerial
    /// JPEGs stay under 1 MB).
    package var maximumTileBytes = 4 << 20
    /// Largest tile edge, pixels. Default: 1024 (tile sets use 256 or 512).
    package var maximumTilePixels = 1024

    /// The defaults above.
    package init() {}
}

/// Decodes PNG and JPEG tiles (libpng, libjpeg) into premultiplied RGBA; everything else is
/// refused with a message saying what the bytes are.
package enum TileDecoder {
    /// The decoded tile, or a message for the render info. With a `reader`, the PNGs it handles
    /// (map servers' kinds) are decoded by it, libdeflate into reused buffers; the rest by libpng.
    package static func decode(
        _ bytes: [UInt8], limits: TileLimits = TileLimits(), reader: PNGTileReader? = nil
    ) -> Result<TileImage, TileProblem> {
        if bytes.count > limits.maximumTileBytes {
            return .failure(TileProblem("the tile is \(bytes.count) bytes, more than the \(limits.maximumTileBytes >> 20) MiB a tile may have"))
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return decodePNG(bytes, limits: limits, reader: reader) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return decodeJPEG(bytes, limits: limits) }
        return .failure(TileProblem("not a PNG or JPEG image (\(describe(bytes)))"))
    }

    private static func decodePNG(_ bytes: [UInt8], limits: TileLimits, reader: PNGTileReader?) -> Result<TileImage, TileProblem> {
        // IHDR is the first chunk: its size is checked before libpng allocates anything.
        guard bytes.count >= 33 else { return .failure(TileProblem("truncated PNG (\(bytes.count) bytes, no complete header)")) }
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        if width > limits.maximumTilePixels || height > limits.maximumTilePixels {
            return .failure(TileProblem("the PNG is \(width)x\(height) pixels; a tile may be at most \(limits.maximumTilePixels) on a side"))
        }
        guard width > 0, height > 0 else { return .failure(TileProblem("bad PNG: the header says \(width)x\(height) pixels")) }
        if let reader, let decoded = reader.decode(bytes, width: width, height: height) { return decoded }
        var message = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        // Decoded straight into the tile's array, premultiplied in C: no second buffer, no copy.
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            status = bytes.withUnsafeBufferPointer { input in
                tsnap_png_decode_tile(input.baseAddress, input.count, UInt32(width), UInt32(height), buffer.baseAddress, &message, message.count)
            }
            initialized = status == 0 ? width * height * 4 : 0
        }
        guard status == 0 else { return .failure(TileProblem("bad PNG: \(text(message))")) }
        return .success(TileImage(width: width, height: height, premultipliedPixels: pixels))
    }

    private static func decodeJPEG(_ bytes: [UInt8], limits: TileLimits) -> Result<TileImage, TileProblem> {
        var width: UInt32 = 0, height: UInt32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let most = UInt64(limits.maximumTilePixels * limits.maximumTilePixels)
        let status = bytes.withUnsafeBufferPointer { buffer in
            tsnap_jpeg_decode_rgba(buffer.baseAddress, buffer.count, most, &width, &height, &pixels, &message, message.count)
        }
        guard status == 0, let pixels else { return .failure(TileProblem("bad JPEG: \(text(message))")) }
        defer { tsnap_jpeg_free_pixels(pixels) }
        return .success(image(pixels, width: Int(width), height: Int(height)))
    }

    /// A JPEG has no alpha (libjpeg writes 255): its pixels are already premultiplied.
    private static func image(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int) -> TileImage {
        TileImage(width: width, height: height, premultipliedPixels: Array(UnsafeBufferPointer(start: pixels, count: width * height * 4)))
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What unknown bytes look like: WebP and HTML error pages are the usual suspects.
    static func describe(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "0 bytes" }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return "a WebP image, which TrackSnap does not decode"
        }
        if bytes.starts(with: [0x1F, 0x8B]) { return "gzip data: a vector tile (pbf)?" }
        // Only the kind of content, never the bytes: a tile may be a link to any file (a key, a
        // password file), and this message lands in records and pages.
        let head = bytes.prefix(512)
        let lowered = String(decoding: head.prefix(64), as: UTF8.self).lowercased()
        if lowered.contains("<html") || lowered.contains("<!doctype") { return "\(bytes.count) bytes of HTML: an error page?" }
        if lowered.hasPrefix("<?xml") || lowered.hasPrefix("<") { return "\(bytes.count) bytes of XML or HTML" }
        if head.first == UInt8(ascii: "{") || head.first == UInt8(ascii: "[") { return "\(bytes.count) bytes of JSON?" }
        if head.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return "\(bytes.count) bytes of text" }
        return "\(bytes.count) bytes of unknown binary data"
    }
}

/// Why a tile could not be had: one line for the render info and the log.
package struct TileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure: it decides whether the failure is remembered and logged.
    package enum Kind: Sendable, Equatable {
        /// The tile itself is bad or unreadable (remembered per worker, logged once per kind).
        case tile
        /// The source did not deliver (timeout, connection, HTTP error): may pass; not remembered.
        case unavailable
        /// Not asked for at all (the image's time for tiles ran out, the source's circuit breaker
        /// is open): counted as failed in the render info, not remembered, not logged per tile.
        case notAsked
    }

    /// The line.
    package var description: String
    /// Whether the condition passes by itself (an MBTiles file another process holds locked):
    /// retrying later may succeed. Default: false.
    package var isTemporary = false
    /// The kind. Default: `.tile`.
    package var kind: Kind

    /// A problem.
    package init(_ description: String, isTemporary: Bool = false, kind: Kind = .tile) {
        self.description = description
        self.isTemporary = isTemporary
        self.kind = kind
    }
}
