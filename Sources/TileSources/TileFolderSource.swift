import MapTiles

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
