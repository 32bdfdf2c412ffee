import MapTiles
import SystemLibDeflate

/// Decodes the PNG tiles map servers send (8-bit RGB or RGBA, palette images of 1–8 bits, 8-bit
/// grey; not interlaced) with libdeflate into buffers kept from tile to tile; palette tiles stay
/// palette indices (`TileImage`'s indexed form: a quarter of the bytes in the decoded-tile cache,
/// and no expansion until a row is drawn). Anything else (16-bit, interlaced) returns nil and
/// goes to libpng (`TileDecoder`).
///
/// Why not libpng and zlib: for a 256-px tile zlib's inflate and Adler-32 took ~310 µs of ~470 µs
/// a tile (issue 24's `perf record`), libdeflate inflates the same data in ~86 µs, and libpng
/// allocates its row buffers and state per tile. Chunk CRCs are not checked (libdeflate checks
/// the zlib stream's Adler-32, and a corrupt stream fails to inflate); every length is checked
/// before it is used, so a hostile tile fails with a message, never reads past its bytes.
package final class PNGTileReader {
    private let decompressor: OpaquePointer
    /// The concatenated IDAT data, then the inflated (filtered) rows: reused.
    private var compressed: [UInt8] = []
    private var filtered: [UInt8] = []
    /// A palette tile's indices, one byte a pixel, before `TileImage` keeps its distinct rows:
    /// reused (the cache's tiles are fresh memory, so only their compact form is).
    private var unpacked: [UInt8] = []

    /// A reader with its own libdeflate decompressor.
    package init() {
        guard let made = libdeflate_alloc_decompressor() else { fatalError("libdeflate_alloc_decompressor: out of memory") }
        decompressor = made
    }

    deinit { libdeflate_free_decompressor(decompressor) }

    /// The decoded tile, a problem, or nil when the PNG is of a kind this reader leaves to libpng.
    /// `width` and `height` are the IHDR's, already checked against the limits.
    package func decode(_ bytes: [UInt8], width: Int, height: Int) -> Result<TileImage, TileProblem>? {
        bytes.withUnsafeBufferPointer { input in decode(input, width: width, height: height) }
    }

    private func decode(_ input: UnsafeBufferPointer<UInt8>, width: Int, height: Int) -> Result<TileImage, TileProblem>? {
        let depth = Int(input[24]), colorType = input[25], interlace = input[28]
        let channels: Int
        switch (colorType, depth) {
        case (3, 1), (3, 2), (3, 4), (3, 8): channels = 1
        case (0, 8): channels = 1
        case (2, 8): channels = 3
        case (4, 8): channels = 2
        case (6, 8): channels = 4
        default: return nil
        }
        guard interlace == 0 else { return nil }
        // Chunks after the 8-byte signature: length, type, data, CRC.
        var palette: [UInt32] = []
        var alphas: [UInt8] = []
        compressed.removeAll(keepingCapacity: true)
        var offset = 8
        var ended = false
        while offset + 12 <= input.count {
            let length = Int(read32(input, offset))
            let type = read32(input, offset + 4)
            let data = offset + 8
            guard length <= input.count - data - 4 else {
                return .failure(TileProblem("bad PNG: a chunk at byte \(offset) is \(length) bytes, past the end of the tile"))
            }
            switch type {
            case 0x504C_5445:  // PLTE
                palette = (0..<(min(length, 768) / 3)).map { entry in
                    let at = data + entry * 3
                    return UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16 | 0xFF00_0000
                }
            case 0x7452_4E53:  // tRNS
                if colorType != 3 { return nil }  // a transparent colour key: left to libpng
                alphas = Array(input[data..<(data + length)])
            case 0x4944_4154:  // IDAT
                compressed.append(contentsOf: input[data..<(data + length)])
            case 0x4945_4E44:  // IEND
                ended = true
            default: break
            }
            if ended { break }
            offset = data + length + 4
        }
        guard !compressed.isEmpty else { return .failure(TileProblem("bad PNG: no image data (IDAT)")) }
        let rowBytes = (width * channels * depth + 7) / 8
        let filteredCount = (rowBytes + 1) * height
        if filtered.count < filteredCount + rowBytes { filtered = [UInt8](repeating: 0, count: filteredCount + rowBytes) }
        var produced = 0
        let status = compressed.withUnsafeBytes { source in
            filtered.withUnsafeMutableBytes { target in
                libdeflate_zlib_decompress(decompressor, source.baseAddress, source.count, target.baseAddress, filteredCount, &produced)
            }
        }
        guard status == LIBDEFLATE_SUCCESS, produced == filteredCount else {
            return .failure(
                TileProblem(
                    "bad PNG: the image data does not inflate to \(filteredCount) bytes (libdeflate status \(status.rawValue), \(produced) bytes)"))
        }
        if let problem = unfilter(rowBytes: rowBytes, height: height, bytesPerPixel: max(1, channels * depth / 8)) { return .failure(problem) }
        if colorType == 3 {
            guard !palette.isEmpty else { return .failure(TileProblem("bad PNG: a palette image without a palette (PLTE)")) }
            for (entry, alpha) in zip(palette.indices, alphas) { palette[entry] = premultiplied(palette[entry], alpha: alpha) }
            // Indices past the palette (broken tiles) show as transparent, not as a crash.
            palette += [UInt32](repeating: 0, count: 256 - palette.count)
            unpackIndices(rowBytes: rowBytes, width: width, height: height, depth: depth)
            let image = unpacked.withUnsafeBufferPointer { all in
                TileImage(width: width, height: height, indices: UnsafeBufferPointer(rebasing: all[0..<(width * height)]), palette: palette)
            }
            return .success(image)
        }
        return .success(
            TileImage(width: width, height: height, premultipliedPixels: rgba(rowBytes: rowBytes, width: width, height: height, channels: channels)))
    }

    /// Reverses PNG's per-row filters in place (each row's filter byte first; rows of `rowBytes`).
    private func unfilter(rowBytes: Int, height: Int, bytesPerPixel step: Int) -> TileProblem? {
        filtered.withUnsafeMutableBufferPointer { buffer -> TileProblem? in
            let base = buffer.baseAddress!
            // The row above the first is zeros: the spare row at the end of the buffer.
            let zeros = base + (rowBytes + 1) * height
            zeros.update(repeating: 0, count: rowBytes)
            for row in 0..<height {
                let filter = base[row * (rowBytes + 1)]
                let current = base + row * (rowBytes + 1) + 1
                let above = row == 0 ? UnsafePointer(zeros) : UnsafePointer(current - (rowBytes + 1))
                switch filter {
                case 0: break
                case 1:
                    for x in step..<max(step, rowBytes) { current[x] &+= current[x - step] }
                case 2:
                    for x in 0..<rowBytes { current[x] &+= above[x] }
                case 3:
                    for x in 0..<rowBytes {
                        let left = x >= step ? Int(current[x - step]) : 0
                        current[x] &+= UInt8((left + Int(above[x])) >> 1)
                    }
                case 4:
                    for x in 0..<rowBytes {
                        let left = x >= step ? Int(current[x - step]) : 0
                        let upLeft = x >= step ? Int(above[x - step]) : 0
                        current[x] &+= UInt8(paeth(left, Int(above[x]), upLeft))
                    }
                default:
                    return TileProblem("bad PNG: row \(row) has filter type \(filter) (PNG has 0–4)")
                }
            }
            return nil
        }
    }

    /// Palette indices, one byte a pixel, from rows of `depth`-bit indices, into the first
    /// `width * height` bytes of `unpacked`.
    private func unpackIndices(rowBytes: Int, width: Int, height: Int, depth: Int) {
        if unpacked.count < width * height { unpacked = [UInt8](repeating: 0, count: width * height) }
        unpacked.withUnsafeMutableBufferPointer { output in
            filtered.withUnsafeBufferPointer { rows in
                for row in 0..<height {
                    let source = rows.baseAddress! + row * (rowBytes + 1) + 1
                    let target = output.baseAddress! + row * width
                    if depth == 8 {
                        target.update(from: source, count: width)
                        continue
                    }
                    // Whole bytes with the depth's constant shifts (a division and a modulo per
                    // pixel were most of decoding: a third of OSM-style tiles are 1-bit), then
                    // the row's last pixels.
                    let perByte = 8 / depth, mask = UInt8((1 << depth) - 1), whole = width / perByte
                    switch depth {
                    case 1: Self.unpack(source, whole, into: target, bits: 1)
                    case 2: Self.unpack(source, whole, into: target, bits: 2)
                    default: Self.unpack(source, whole, into: target, bits: 4)
                    }
                    for x in (whole * perByte)..<width {
                        let shift = 8 - depth * (x % perByte + 1)
                        target[x] = (source[x / perByte] >> UInt8(shift)) & mask
                    }
                }
            }
        }
    }

    /// Unpacks `count` bytes of `bits`-bit indices (1, 2 or 4; the first pixel in the high bits),
    /// `8 / bits` a byte.
    @inline(__always)
    private static func unpack(_ source: UnsafePointer<UInt8>, _ count: Int, into target: UnsafeMutablePointer<UInt8>, bits: Int) {
        let perByte = 8 / bits, mask = UInt8((1 << bits) - 1)
        for index in 0..<count {
            let byte = source[index], out = target + index &* perByte
            for pixel in 0..<perByte { out[pixel] = (byte >> UInt8(truncatingIfNeeded: 8 - bits &* (pixel &+ 1))) & mask }
        }
    }

    /// Premultiplied RGBA from rows of 8-bit grey, grey + alpha, RGB or RGBA.
    private func rgba(rowBytes: Int, width: Int, height: Int, channels: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 4) { output, initialized in
            filtered.withUnsafeBufferPointer { rows in
                for row in 0..<height {
                    let source = rows.baseAddress! + row * (rowBytes + 1) + 1
                    let target = output.baseAddress! + row * width * 4
                    for x in 0..<width {
                        let pixel = source + x * channels, out = target + x * 4
                        switch channels {
                        case 1: (out[0], out[1], out[2], out[3]) = (pixel[0], pixel[0], pixel[0], 255)
                        case 2:
                            let grey = UInt8((UInt32(pixel[0]) * UInt32(pixel[1]) + 127) / 255)
                            (out[0], out[1], out[2], out[3]) = (grey, grey, grey, pixel[1])
                        case 3: (out[0], out[1], out[2], out[3]) = (pixel[0], pixel[1], pixel[2], 255)
                        default:
                            let alpha = UInt32(pixel[3])
                            if alpha == 255 {
                                (out[0], out[1], out[2], out[3]) = (pixel[0], pixel[1], pixel[2], 255)
                            } else {
                                out[0] = UInt8((UInt32(pixel[0]) * alpha + 127) / 255)
                                out[1] = UInt8((UInt32(pixel[1]) * alpha + 127) / 255)
                                out[2] = UInt8((UInt32(pixel[2]) * alpha + 127) / 255)
                                out[3] = pixel[3]
                            }
                        }
                    }
                }
            }
            initialized = width * height * 4
        }
    }

    /// A palette colour (little-endian RGBA word, alpha 255) with `alpha`, premultiplied.
    private func premultiplied(_ color: UInt32, alpha: UInt8) -> UInt32 {
        let a = UInt32(alpha)
        let red = ((color & 0xFF) * a + 127) / 255, green = (((color >> 8) & 0xFF) * a + 127) / 255
        let blue = (((color >> 16) & 0xFF) * a + 127) / 255
        return red | green << 8 | blue << 16 | a << 24
    }

    @inline(__always)
    private func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
    }

    @inline(__always)
    private func read32(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
