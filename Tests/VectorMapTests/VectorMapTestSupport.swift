import Foundation
import MapGeometry
import MapStyle
import MapTiles
import Raster
import VectorMap
import VectorTiles

/// Tiles held in memory by z/x/y, decoded once.
final class MemoryVectorTiles: TileProvider {
    let sourceDescription: TileSourceDescription
    private let tiles: [TileCoordinate: VectorTile.Decoded]
    /// The tiles asked for, in order.
    private(set) var asked: [TileCoordinate] = []

    init(_ encoded: [TileCoordinate: [UInt8]], minimumZoom: Int = 0, maximumZoom: Int = 14, boundsLonLat: [Double]? = nil) throws {
        var description = TileSourceDescription()
        description.boundsLonLat = boundsLonLat
        description.minimumZoom = minimumZoom
        description.maximumZoom = maximumZoom
        description.kind = .vector
        sourceDescription = description
        var decoded: [TileCoordinate: VectorTile.Decoded] = [:]
        for (coordinate, bytes) in encoded {
            decoded[coordinate] = try VectorTile(bytes: try VectorTileBytes.inflateIfNeeded(bytes)).decoded()
        }
        tiles = decoded
    }

    func tile(_ coordinate: TileCoordinate) -> TileLookup {
        asked.append(coordinate)
        return tiles[coordinate].map { .vector($0) } ?? .absent
    }
}

/// A fixture's bytes from `Tests/Fixtures/vector/`.
func vectorFixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vector").appendingPathComponent(name)
    return [UInt8](try Data(contentsOf: url))
}

/// The viewport showing exactly tile `z/x/y` (plus `zoomOffset` levels closer, centred) at `pixels`².
func viewport(ofTile tile: TileCoordinate, pixels: Int, zoomIn: Double = 0, shift: (x: Double, y: Double) = (0, 0)) -> Viewport {
    let world = 2 * WebMercator.halfWorldMeters
    let tileMeters = world / Double(1 << tile.z)
    let centerX = -WebMercator.halfWorldMeters + (Double(tile.x) + 0.5 + shift.x) * tileMeters
    let centerY = WebMercator.halfWorldMeters - (Double(tile.y) + 0.5 + shift.y) * tileMeters
    let span = tileMeters / pow(2, zoomIn)
    return Viewport(
        mapRect: MapRect(minX: centerX - span / 2, minY: centerY - span / 2, maxX: centerX + span / 2, maxY: centerY + span / 2),
        widthPixels: pixels, heightPixels: pixels)
}

/// A one-layer style document: `layers` is the JSON of the layer list, over one vector source "v".
func style(_ layers: String) throws -> MapStyleDocument {
    try MapStyleDocument(bytes: Array("{\"version\":8,\"sources\":{\"v\":{\"type\":\"vector\"}},\"layers\":\(layers)}".utf8))
}

/// Where tests write the images they draw when `TRACKSNAP_TEST_IMAGES` names a folder (for a look).
enum Environment {
    static var dumpPath: String? { ProcessInfo.processInfo.environment["TRACKSNAP_TEST_IMAGES"] }
}

/// Writes bytes to a file (a test's look-at-it output only).
enum FileStoreLite {
    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
}
