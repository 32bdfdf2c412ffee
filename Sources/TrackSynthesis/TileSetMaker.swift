import CLibJPEG
import FileStore
import MapGeometry
import MapTiles
import PNGEncoding
import Raster
import TileSources

/// Writes generated tile sets (`SyntheticTiles`) as MBTiles files or `{z}/{x}/{y}` folders:
/// the tests' sources and the example in docs/basemaps.md (`tracksnap-dev tiles`).
package enum TileSetMaker {
    /// What the tiles show.
    package enum Kind: String, Sendable {
        /// `SyntheticTiles.map`.
        case map
        /// `SyntheticTiles.positionField`.
        case position
    }

    /// The tiles covering `boundsLonLat` ([west, south, east, north]) at `zoom`.
    package static func coordinates(boundsLonLat bounds: [Double], zoom: Int) -> [TileCoordinate] {
        let tiles = 1 << zoom
        func column(_ longitude: Double) -> Int { min(tiles - 1, max(0, Int(((longitude + 180) / 360 * Double(tiles)).rounded(.down)))) }
        func row(_ latitude: Double) -> Int {
            let y = WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: 0).yMeters
            return min(tiles - 1, max(0, Int(((WebMercator.halfWorldMeters - y) / (2 * WebMercator.halfWorldMeters) * Double(tiles)).rounded(.down))))
        }
        var result: [TileCoordinate] = []
        for y in row(bounds[3])...row(bounds[1]) {
            for x in column(bounds[0])...column(bounds[2]) { result.append(TileCoordinate(z: zoom, x: x, y: y)) }
        }
        return result
    }

    /// One tile encoded: PNG, or JPEG at quality 85 when `jpeg`.
    package static func encodedTile(_ coordinate: TileCoordinate, kind: Kind, jpeg: Bool = false) throws -> [UInt8] {
        let pixels =
            kind == .map
            ? SyntheticTiles.map(z: coordinate.z, x: coordinate.x, y: coordinate.y)
            : SyntheticTiles.positionField(z: coordinate.z, x: coordinate.x, y: coordinate.y)
        if jpeg {
            var output: UnsafeMutablePointer<UInt8>?
            var count = 0
            var message = [CChar](repeating: 0, count: 256)
            guard tsnap_jpeg_encode_rgba(pixels, 256, 256, 85, &output, &count, &message, message.count) == 0, let output else {
                throw TileProblem("JPEG encoding failed")
            }
            defer { tsnap_jpeg_free_pixels(output) }
            return Array(UnsafeBufferPointer(start: output, count: count))
        }
        var canvas = Canvas(width: 256, height: 256, fill: RGBAColor(red: 0, green: 0, blue: 0))
        canvas.pixels = pixels
        var settings = PNGSettings()
        settings.layout = .trueColor
        return try PNGEncoder.encode(canvas, settings: settings)
    }

    /// Writes an MBTiles file of `kind` tiles over `boundsLonLat` for each zoom; returns the tile count.
    @discardableResult
    package static func writeMBTiles(
        _ path: String, kind: Kind, boundsLonLat bounds: [Double], zooms: ClosedRange<Int>, attribution: String? = "© TrackSnap test tiles",
        jpeg: Bool = false
    ) throws -> Int {
        var metadata = [
            "name": "TrackSnap \(kind.rawValue) tiles", "format": jpeg ? "jpg" : "png", "minzoom": "\(zooms.lowerBound)",
            "maxzoom": "\(zooms.upperBound)", "bounds": bounds.map { "\($0)" }.joined(separator: ","), "type": "baselayer",
        ]
        if let attribution { metadata["attribution"] = attribution }
        let writer = try MBTilesWriter(path: path, metadata: metadata)
        var count = 0
        for zoom in zooms {
            for coordinate in coordinates(boundsLonLat: bounds, zoom: zoom) {
                try writer.add(coordinate, bytes: try encodedTile(coordinate, kind: kind, jpeg: jpeg))
                count += 1
            }
        }
        try writer.finish()
        return count
    }

    /// Writes a `{z}/{x}/{y}.png` folder; returns the tile count.
    @discardableResult
    package static func writeFolder(_ path: String, kind: Kind, boundsLonLat bounds: [Double], zooms: ClosedRange<Int>) throws -> Int {
        var count = 0
        for zoom in zooms {
            for coordinate in coordinates(boundsLonLat: bounds, zoom: zoom) {
                let folder = "\(path)/\(coordinate.z)/\(coordinate.x)"
                try FileStore.createDirectories(folder)
                try FileStore.writeAtomically(try encodedTile(coordinate, kind: kind), to: "\(folder)/\(coordinate.y).png")
                count += 1
            }
        }
        return count
    }
}
