import MapTiles

/// A folder of tiles `DIR/{z}/{x}/{y}.png` (or `.jpg`, `.jpeg`; `.pbf` or `.mvt` for vector
/// tiles) in the XYZ order, as `gdal2tiles --xyz`, `mb-util` and MOBAC's "OSMAnd tiles" write
/// them. The zoom range is the numbered subfolders present; the kind is told by the first tile
/// file found in the lowest zoom.
package final class TileFolderSource: RawTileSource {
    /// The folder.
    package let path: String
    /// Zoom range from the subfolders; no bounds; no attribution (give it in the style).
    package let sourceDescription: TileSourceDescription

    /// Opens a folder; throws when it has no numbered zoom subfolder.
    package init(path: String) throws(TileProblem) {
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
        description.kind = Self.kind(ofFolder: "\(path)/\(low)")
        sourceDescription = description
        suffixes = description.kind == .vector ? [".pbf", ".mvt"] : [".png", ".jpg", ".jpeg"]
    }

    /// The file endings tried for a tile, in order.
    private let suffixes: [String]

    /// Vector when the first column folder of `zoomFolder` holds a `.pbf` or `.mvt` file.
    private static func kind(ofFolder zoomFolder: String) -> TileKind {
        guard let column = (try? FileStoreBridge.list(zoomFolder))?.sorted().first(where: { Int($0) != nil }),
            let names = try? FileStoreBridge.list("\(zoomFolder)/\(column)")
        else { return .raster }
        return names.contains { $0.hasSuffix(".pbf") || $0.hasSuffix(".mvt") } ? .vector : .raster
    }

    /// The tile's bytes; nil when no file of a known extension exists there.
    package func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        let stem = "\(path)/\(coordinate.z)/\(coordinate.x)/\(coordinate.y)"
        for suffix in suffixes {
            switch FileStoreBridge.read(stem + suffix, limit: limit) {
            case .missing: continue
            case .bytes(let bytes): return bytes
            case .failed(let message): throw TileProblem(message)
            }
        }
        return nil
    }
}
