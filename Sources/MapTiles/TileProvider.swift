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

/// A decoded tile: `width`×`height` pixels, RGBA8 with premultiplied alpha, rows top to bottom.
public struct TileImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes, premultiplied RGBA.
    public let pixels: [UInt8]

    /// Wraps decoded pixels; `pixels` must hold `width * height * 4` premultiplied bytes.
    public init(width: Int, height: Int, premultipliedPixels pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "tile pixel count does not match its size")
        self.width = width
        self.height = height
        self.pixels = pixels
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
