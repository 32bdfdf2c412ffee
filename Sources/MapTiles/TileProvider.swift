import MapGeometry
import VectorTiles

/// A tile's address in the XYZ scheme (the OpenStreetMap / Google order): x grows east from
/// 180°W, y grows south from 85.05°N, both in 0..<2^z.
public struct TileCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// Zoom level, 0...30.
    public var z: Int
    /// Column, 0..<2^z.
    public var x: Int
    /// Row from the north, 0..<2^z.
    public var y: Int

    /// A coordinate.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// The row in the TMS scheme (counted from the south) that MBTiles stores.
    public var tmsRow: Int { (1 << z) - 1 - y }

    /// "z/x/y".
    public var description: String { "\(z)/\(x)/\(y)" }
}

/// A decoded tile: `width`×`height` pixels, rows top to bottom, either premultiplied RGBA8 or,
/// for a palette tile, one palette index a pixel and a palette of premultiplied RGBA words
/// (kept indexed: a quarter of the bytes in a tile cache, expanded a row at a time as it is drawn).
/// A palette tile keeps only the rows that differ from the row above (`rowStarts` points each row
/// at its bytes): in OSM-style tiles three rows in five repeat the one above and nearly half the
/// tiles are one colour, so a cached tile takes 2–30 KB instead of 69, and a cold run's tile cache
/// faults in that many fewer fresh pages.
public struct TileImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 256 premultiplied RGBA colours (little-endian words: red in the low byte) for a palette
    /// tile; empty for an RGBA tile.
    public var palette: [UInt32] { storage.palette }
    /// Whether every pixel is opaque (alpha 255): the resampler then sums a row of such tiles
    /// without testing each pixel's alpha.
    public let isOpaque: Bool
    /// The pixels, in one object: a tile is copied out of the fetched grid for every row it is
    /// drawn in, and one reference to retain instead of six arrays was 1% of a raster run.
    private let storage: Storage

    /// A tile's arrays.
    private final class Storage: Sendable {
        /// `width * height * 4` premultiplied bytes for an RGBA tile; empty for a palette tile.
        let rgba: [UInt8]
        /// A palette tile's distinct rows, `width` indices each (a row equal to the one above is
        /// not kept again); empty for an RGBA tile.
        let indexRows: [UInt8]
        /// Per row of a palette tile, the offset of its indices in `indexRows`; empty for an RGBA
        /// tile.
        let rowStarts: [Int32]
        /// See `TileImage.palette`.
        let palette: [UInt32]
        /// `palette` as float vectors (0...255 a channel), for the resampler: the entries up to
        /// the highest index used (a 1-bit tile's 2 instead of 256, 4 KB less a tile).
        let floatPalette: [SIMD4<Float>]
        /// Per row, which eighths of it equal the row above (`segmentsEqualAbove`).
        let repeatedSegments: [UInt8]

        init(rgba: [UInt8], indexRows: [UInt8], rowStarts: [Int32], palette: [UInt32], floatPalette: [SIMD4<Float>], repeatedSegments: [UInt8]) {
            self.rgba = rgba
            self.indexRows = indexRows
            self.rowStarts = rowStarts
            self.palette = palette
            self.floatPalette = floatPalette
            self.repeatedSegments = repeatedSegments
        }
    }

    /// Wraps decoded pixels; `pixels` must hold `width * height * 4` premultiplied bytes.
    public init(width: Int, height: Int, premultipliedPixels pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "tile pixel count does not match its size")
        self.width = width
        self.height = height
        isOpaque = Self.everyAlphaIs255(pixels)
        storage = Storage(
            rgba: pixels, indexRows: [], rowStarts: [], palette: [], floatPalette: [],
            repeatedSegments: pixels.withUnsafeBytes { Self.repeatedSegments($0, width: width, height: height, bytesPerPixel: 4) })
    }

    /// Wraps a palette tile: `indices` must hold `width * height` bytes and `palette` 256
    /// premultiplied colours (entries no index uses may be anything).
    public init(width: Int, height: Int, indices: [UInt8], palette: [UInt32]) {
        precondition(indices.count == width * height, "palette tile size does not match")
        self = indices.withUnsafeBufferPointer { TileImage(width: width, height: height, indices: $0, palette: palette) }
    }

    /// Wraps a palette tile from `width * height` indices the caller keeps (a decoder's reused
    /// buffer: only the rows that differ from the row above are copied); `palette` holds 256
    /// premultiplied colours (entries no index uses may be anything).
    public init(width: Int, height: Int, indices: UnsafeBufferPointer<UInt8>, palette: [UInt32]) {
        precondition(indices.count == width * height && palette.count == 256, "palette tile size does not match")
        self.width = width
        self.height = height
        let segments = Self.repeatedSegments(UnsafeRawBufferPointer(indices), width: width, height: height, bytesPerPixel: 1)
        var starts = [Int32](repeating: 0, count: height)
        // Row 0's mask is 0 (nothing above it), so it is always kept.
        let keptRows = segments.reduce(0) { $0 + ($1 == 0xFF ? 0 : 1) }
        let indexRows = [UInt8](unsafeUninitializedCapacity: keptRows * width) { kept, initialized in
            var next = 0
            for row in 0..<height {
                if segments[row] == 0xFF {
                    starts[row] = starts[row - 1]
                    continue
                }
                starts[row] = Int32(next)
                if width > 0 { (kept.baseAddress! + next).update(from: indices.baseAddress! + row * width, count: width) }
                next += width
            }
            initialized = next
        }
        // Opaque when every entry up to the highest index used is: the entries past a short
        // palette are transparent padding that no pixel of a sound tile uses.
        let highest = Int(indexRows.reduce(UInt8(0)) { max($0, $1) })
        let floatPalette = palette[0...highest].map { color in
            SIMD4<Float>(Float(color & 0xFF), Float((color >> 8) & 0xFF), Float((color >> 16) & 0xFF), Float(color >> 24))
        }
        isOpaque = palette[0...highest].allSatisfy { $0 >> 24 == 0xFF }
        storage = Storage(
            rgba: [], indexRows: indexRows, rowStarts: starts, palette: palette, floatPalette: floatPalette, repeatedSegments: segments)
    }

    /// Whether every pixel of RGBA bytes has alpha 255 (the AND of all pixels keeps alpha's bits
    /// only if every pixel has them all).
    private static func everyAlphaIs255(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            var all: UInt32 = 0xFFFF_FFFF
            for word in words { all &= word }
            return UInt32(littleEndian: all) >> 24 == 0xFF
        }
    }

    /// Whether the tile is kept as palette indices.
    public var isIndexed: Bool { !storage.rowStarts.isEmpty }

    /// Bytes held (for cache bounds).
    public var byteCount: Int {
        storage.rgba.count + storage.indexRows.count + storage.rowStarts.count * 4 + storage.palette.count * 4 + storage.floatPalette.count * 16
            + storage.repeatedSegments.count
    }

    /// `width * height * 4` premultiplied bytes (a palette tile is expanded: a copy).
    public var pixels: [UInt8] {
        guard isIndexed else { return storage.rgba }
        var expanded = [UInt8](repeating: 0, count: width * height * 4)
        expanded.withUnsafeMutableBufferPointer { target in
            for row in 0..<height { copyRow(row, to: target.baseAddress! + row * width * 4) }
        }
        return expanded
    }

    /// Writes row `row` as `width * 4` premultiplied bytes at `destination`.
    @inline(__always)
    public func copyRow(_ row: Int, to destination: UnsafeMutablePointer<UInt8>) {
        let count = width
        if isIndexed {
            storage.indexRows.withUnsafeBufferPointer { indices in
                storage.palette.withUnsafeBufferPointer { palette in
                    let source = indices.baseAddress! + Int(storage.rowStarts[row])
                    let target = UnsafeMutableRawPointer(destination)
                    for x in 0..<count { target.storeBytes(of: palette[Int(source[x])].littleEndian, toByteOffset: x * 4, as: UInt32.self) }
                }
            }
        } else {
            storage.rgba.withUnsafeBufferPointer { source in
                destination.update(from: source.baseAddress! + row * count * 4, count: count * 4)
            }
        }
    }

    /// Which of row `row`'s eight segments equal the row above (at least 1): bit `s` for pixels
    /// `s·width/8 ..< (s+1)·width/8` (0xFF: the whole row repeats). Finer than whole rows: a
    /// road or a border crossing a field leaves the rest of its row repeating.
    @inline(__always)
    public func segmentsEqualAbove(_ row: Int) -> UInt8 { storage.repeatedSegments[row] }

    /// Per row, its segments equal to the row above (`segmentsEqualAbove`; row 0: none), from
    /// `height` rows of `width · bytesPerPixel` bytes. Found once when a tile is made (a pass over
    /// its bytes), not each time a row is drawn: a tile is drawn into many images.
    private static func repeatedSegments(_ bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        var masks = [UInt8](repeating: 0, count: height)
        let rowBytes = width * bytesPerPixel
        guard height > 1, rowBytes > 0, let base = bytes.baseAddress else { return masks }
        for row in 1..<height {
            let current = base + row * rowBytes, above = base + (row - 1) * rowBytes
            var mask: UInt8 = 0
            for segment in 0..<8 {
                var offset = segment * width / 8 * bytesPerPixel
                let end = (segment + 1) * width / 8 * bytesPerPixel
                var differences: UInt64 = 0
                // Stops at the first difference: on true-colour tiles (photos, shaded relief)
                // nearly every segment differs within its first word.
                while offset + 8 <= end && differences == 0 {
                    differences |=
                        current.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ above.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                while offset < end && differences == 0 {
                    differences |= UInt64(current.load(fromByteOffset: offset, as: UInt8.self) ^ above.load(fromByteOffset: offset, as: UInt8.self))
                    offset += 1
                }
                if differences == 0 { mask |= 1 << UInt8(segment) }
            }
            masks[row] = mask
        }
        return masks
    }

    /// Writes row `row` as `width` premultiplied pixels, float vectors of 0...255 (what the
    /// resampler filters). A palette tile looks each index up in its float palette.
    @inline(__always)
    public func copyRow(_ row: Int, toFloats destination: UnsafeMutablePointer<SIMD4<Float>>) {
        copyRow(row, pixels: 0..<width, toFloats: destination)
    }

    /// Writes pixels `pixels` of row `row` as float vectors to the same positions of
    /// `destination` (which holds the whole row).
    @inline(__always)
    public func copyRow(_ row: Int, pixels: Range<Int>, toFloats destination: UnsafeMutablePointer<SIMD4<Float>>) {
        let count = width
        if isIndexed {
            storage.indexRows.withUnsafeBufferPointer { indices in
                storage.floatPalette.withUnsafeBufferPointer { palette in
                    let source = indices.baseAddress! + Int(storage.rowStarts[row])
                    for x in pixels { destination[x] = palette[Int(source[x])] }
                }
            }
        } else {
            storage.rgba.withUnsafeBufferPointer { source in
                let start = source.baseAddress! + row * count * 4
                for x in pixels {
                    let pixel = start + x * 4
                    destination[x] = SIMD4<Float>(Float(pixel[0]), Float(pixel[1]), Float(pixel[2]), Float(pixel[3]))
                }
            }
        }
    }

    /// Converts straight-alpha RGBA (what PNG and JPEG decoders give) to premultiplied, in place.
    public static func premultiply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                let alpha = UInt32(bytes[index + 3])
                if alpha != 255 {
                    for channel in 0..<3 { bytes[index + channel] = UInt8((UInt32(bytes[index + channel]) * alpha + 127) / 255) }
                }
                index += 4
            }
        }
    }
}

/// What a source gave for one tile.
public enum TileLookup: Sendable {
    /// A raster tile, decoded.
    case image(TileImage)
    /// A vector tile, every layer decoded (features with a problem already skipped and counted).
    case vector(VectorTile.Decoded)
    /// The source has no tile there (outside its coverage): the grid shows through, silently.
    case absent
    /// The tile could not be had (unreadable, undecodable, a network failure): the grid shows
    /// through and the reason is recorded.
    case failed(String)
}

/// What a source says about itself.
public struct TileSourceDescription: Sendable, Equatable {
    /// Lowest zoom with tiles. Default: 0.
    public var minimumZoom = 0
    /// Highest zoom with tiles. Default: 19.
    public var maximumZoom = 19
    /// Coverage `[west, south, east, north]` in degrees, or nil for the whole world.
    public var boundsLonLat: [Double]? = nil
    /// Tile edge in pixels (256, or 512 for "retina" tile sets). Default: 256.
    public var tilePixels = 256
    /// The source's attribution text, if it has one.
    public var attribution: String? = nil
    /// Whether the tiles are images or vectors. Default: raster.
    public var kind = TileKind.raster

    /// The defaults above.
    public init() {}
}

/// What a source's tiles are.
public enum TileKind: String, Sendable, Equatable {
    /// Images (PNG, JPEG): resampled to the image's zoom.
    case raster
    /// Mapbox Vector Tiles: drawn at the image's zoom with a map style.
    case vector
}

/// Where tiles come from, for one render at a time (a worker's renders are sequential). The
/// raster code only ever sees this protocol: reading files, SQLite and HTTP live behind it
/// (`TileSources`), so resampling stays pure and testable with tiles made in memory.
public protocol TileProvider: AnyObject {
    /// Zoom range, coverage, tile size, attribution.
    var sourceDescription: TileSourceDescription { get }
    /// The tile at `coordinate` (already wrapped into 0..<2^z).
    func tile(_ coordinate: TileCoordinate) -> TileLookup
    /// Called by the renderer before it asks for one image's tiles, so a source can bound the
    /// time one image spends on them.
    func beginImage()
    /// Called before the images of one track are rendered, so a source can bound the time all
    /// of them together spend on tiles (a style with many images stays inside a job's time).
    func beginTrack()
}

extension TileProvider {
    /// Nothing: in-memory tiles need no deadline.
    public func beginImage() {}
    /// Nothing: in-memory tiles need no deadline.
    public func beginTrack() {}
}
