import MapTiles

/// Where encoded tiles come from: a file, a folder, a server. `BasemapTiles` decodes and
/// caches what these return.
public protocol RawTileSource: AnyObject {
    /// Zoom range, bounds and attribution as the source declares them (tile size is learnt by
    /// `BasemapTiles` from a decoded tile).
    var sourceDescription: TileSourceDescription { get }
    /// The encoded tile, nil when the source has none there; throws when it cannot be had.
    /// `limit` is the largest tile accepted, in bytes.
    func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]?
    /// Called before each image's tiles are read (a network source starts the image's deadline).
    func beginImage()
    /// Called when the bytes of `coordinate` did not decode: drop any cached copy; true when
    /// reading the tile again may give other bytes (the bad ones came from a cache).
    func forgetTile(_ coordinate: TileCoordinate) -> Bool
}

extension RawTileSource {
    /// Nothing: files have no deadline.
    public func beginImage() {}
    /// False: a file gives the same bytes again.
    public func forgetTile(_ coordinate: TileCoordinate) -> Bool { false }
}

/// A folder of tiles `DIR/{z}/{x}/{y}.png` (or `.jpg`, `.jpeg`) in the XYZ order, as
/// `gdal2tiles --xyz`, `mb-util` and MOBAC's "OSMAnd tiles" write them. The zoom range is the
/// numbered subfolders present.
public final class TileFolderSource: RawTileSource {
    /// The folder.
    public let path: String
    /// Zoom range from the subfolders; no bounds; no attribution (give it in the style).
    public let sourceDescription: TileSourceDescription

    /// Opens a folder; throws when it has no numbered zoom subfolder.
    public init(path: String) throws(TileProblem) {
        self.path = path
        let names: [String]
        do {
            names = try FileStoreBridge.list(path)
        } catch {
            throw TileProblem("tile folder '\(path)': \(error)")
        }
        let zooms = names.compactMap { Int($0) }.filter { (0...30).contains($0) }
        guard let low = zooms.min(), let high = zooms.max() else {
            throw TileProblem("tile folder '\(path)' has no zoom subfolders (expected '\(path)/{z}/{x}/{y}.png')")
        }
        var description = TileSourceDescription()
        description.minimumZoom = low
        description.maximumZoom = high
        sourceDescription = description
    }

    /// The tile's bytes; nil when no file of a known extension exists there.
    public func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        let stem = "\(path)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y)"
        for suffix in [".png", ".jpg", ".jpeg"] {
            switch FileStoreBridge.read(stem + suffix, limit: limit) {
            case .missing: continue
            case .bytes(let bytes): return bytes
            case .failed(let message): throw TileProblem(message)
            }
        }
        return nil
    }
}
