import FileStore
import JSONDocument
import MapTiles
import VectorTiles

/// MBTiles → PMTiles v3 (`tracksnap-dev pmtiles`): every tile of the MBTiles file (raster or
/// vector) into a clustered archive written by `PMTilesWriter`, identical tiles stored once and
/// consecutive ones as one run. The header takes the tile type from `format`, the tile
/// compression from the tiles' bytes (gzip, none, or unknown when mixed), bounds and centre from
/// the metadata; the metadata JSON keeps the other fields (`name`, `attribution`,
/// `description`…) with the members of `json` (`vector_layers`, `tilestats`) merged in, as
/// `pmtiles convert` does.
///
/// Memory: the tiles are held in memory until the archive is written (identical tiles once),
/// then the archive itself: about twice the distinct tiles' bytes.
package enum PMTilesConversion {
    /// What a conversion wrote.
    package struct Summary: Sendable, Equatable {
        /// Tiles read from the MBTiles file (empty tiles are skipped: PMTiles has no empty blob).
        package var tiles = 0
        /// Distinct tile blobs stored.
        package var distinctTiles = 0
        /// Empty tiles skipped.
        package var emptyTiles = 0
        /// The archive's size in bytes.
        package var archiveBytes = 0
    }

    /// Metadata fields the header carries, left out of the JSON.
    static let headerFields: Set<String> = ["bounds", "center", "minzoom", "maxzoom", "format", "json"]

    /// Converts `input` to `output` (replaced atomically). `compressDirectories` gzips
    /// directories and metadata (nil: stored; this target does not deflate). `progress` is
    /// called with tiles read so far and the total. Errors name the file and the problem.
    package static func convert(
        mbtiles input: String, to output: String, compressDirectories: (([UInt8]) -> [UInt8])?, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(TileProblem) -> Summary {
        let source = try MBTilesSource(path: input)
        let total = try source.tileCount()
        var summary = Summary()
        var tiles: [PMTilesWriter.Tile] = []
        tiles.reserveCapacity(total)
        // Identical tiles (ocean, empty land) share one array, so memory holds each blob once.
        var distinct: Set<[UInt8]> = []
        var gzipped = 0
        try source.forEachTile(limit: PMTilesLimits().maximumTileBytes) { coordinate, bytes throws(TileProblem) in
            summary.tiles += 1
            if summary.tiles % 10_000 == 0 { progress(summary.tiles, total) }
            guard !bytes.isEmpty else {
                summary.emptyTiles += 1
                return
            }
            let shared = distinct.insert(bytes).memberAfterInsert
            if shared.starts(with: [0x1F, 0x8B]) { gzipped += 1 }
            tiles.append(PMTilesWriter.Tile(z: coordinate.z, x: coordinate.x, y: coordinate.y, bytes: shared))
        }
        progress(summary.tiles, total)
        summary.distinctTiles = distinct.count
        distinct = []
        var options = PMTilesWriter.Options()
        options.header = try header(source, tileCount: tiles.count, gzipped: gzipped, input: input)
        options.metadata = try metadataJSON(source.metadata, input: input)
        let archive: [UInt8]
        do throws(PMTilesError) {
            archive = try PMTilesWriter.write(tiles, options: options, compressDirectories: compressDirectories)
        } catch {
            throw TileProblem("MBTiles '\(input)': \(error.message)")
        }
        do {
            try FileStore.writeAtomically(archive, to: output)
        } catch {
            throw TileProblem("PMTiles '\(output)': \(error)")
        }
        summary.archiveBytes = archive.count
        return summary
    }

    /// The header fields the writer does not compute.
    static func header(_ source: MBTilesSource, tileCount: Int, gzipped: Int, input: String) throws(TileProblem) -> PMTilesHeader {
        var header = PMTilesHeader()
        switch source.format {
        case "pbf", "mvt": header.tileType = .mvt
        case "png", "": header.tileType = .png
        case "jpg", "jpeg": header.tileType = .jpeg
        default: throw TileProblem("MBTiles '\(input)' has tiles in format '\(source.format)'; expected png, jpg or pbf")
        }
        header.tileCompression = gzipped == tileCount ? (tileCount == 0 ? .none : .gzip) : gzipped == 0 ? .none : .unknown
        let description = source.sourceDescription
        let bounds = description.boundsLonLat ?? [-180, -85.0511287, 180, 85.0511287]
        let e7 = bounds.map { Int32(($0 * 1e7).rounded()) }
        (header.minimumLongitudeE7, header.minimumLatitudeE7, header.maximumLongitudeE7, header.maximumLatitudeE7) = (e7[0], e7[1], e7[2], e7[3])
        // "lon,lat,zoom" when the metadata says; else the middle of the bounds at the lowest zoom.
        let center = (source.metadata["center"] ?? "").split(separator: ",").compactMap { Double($0.trimmingSpaces) }
        let (longitude, latitude) = center.count >= 2 ? (center[0], center[1]) : ((bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2)
        header.centerLongitudeE7 = Int32((min(max(longitude, -180), 180) * 1e7).rounded())
        header.centerLatitudeE7 = Int32((min(max(latitude, -85.0511287), 85.0511287) * 1e7).rounded())
        header.centerZoom = UInt8(center.count == 3 ? min(max(Int(center[2]), 0), 30) : description.minimumZoom)
        return header
    }

    /// The metadata as a JSON object: each field but the header's as a string, then the members
    /// of `json` (which must be an object) as they are written there.
    static func metadataJSON(_ metadata: [String: String], input: String) throws(TileProblem) -> [UInt8] {
        var members = metadata.filter { !headerFields.contains($0.key) }.sorted { $0.key < $1.key }.map {
            "\(JSONValue.quoted($0.key)):\(JSONValue.quoted($0.value))"
        }
        if let json = metadata["json"], !json.allSatisfy(\.isWhitespace) {
            let parsed: JSONValue
            do throws(JSONParseError) {
                parsed = try JSONValue.parse(Array(json.utf8))
            } catch {
                throw TileProblem("MBTiles '\(input)': metadata json is not JSON: \(error)")
            }
            guard parsed.object != nil else { throw TileProblem("MBTiles '\(input)': metadata json is \(parsed), expected a JSON object") }
            // The object's members as written (numbers and nesting kept exactly): its text between the braces.
            let text = json.trimmingCharacters { $0.isWhitespace }
            let inner = text.dropFirst().dropLast().trimmingCharacters { $0.isWhitespace }
            if !inner.isEmpty { members.append(inner) }
        }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }
}

extension StringProtocol {
    /// Without leading and trailing characters that satisfy `drop`.
    fileprivate func trimmingCharacters(_ drop: (Character) -> Bool) -> String {
        String(self.drop(while: drop).reversed().drop(while: drop).reversed())
    }
}
