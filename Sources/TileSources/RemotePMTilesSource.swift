import MapTiles
import VectorTiles

/// Tiles from a PMTiles v3 archive on an http(s) server (`--basemap https://…/area.pmtiles`), read
/// by range requests through `HTTPByteRanges`: the head (header and root directory) and the
/// metadata at open, a failure there failing the run before any track, naming the URL; then each
/// tile's leaf directory (kept decoded by `PMTilesReader`) and bytes, every range cached on disk
/// under the archive's identity. The server's politeness rules and time are those of URL tiles:
/// this source checks its `budget` itself, and a range the server does not deliver makes the
/// tile failed (drawn by a later run), never absent.
package final class RemotePMTilesSource: TileBudgetedSource {
    /// The ranges: URL, cache folder, request counts.
    package let ranges: HTTPByteRanges
    /// What the header and metadata say.
    package let sourceDescription: TileSourceDescription
    private let reader: PMTilesReader<HTTPByteRanges>

    /// The time for tiles and the circuit breaker: the ranges'.
    package var budget: TileTimeBudget { ranges.budget }

    /// Opens the archive at `url` (see `HTTPByteRanges.init`) and reads its header, root
    /// directory and metadata.
    package init(url: String, cacheDirectory: String, offline: Bool, version: String, requestTimeoutSeconds: Double = 10) throws(TileProblem) {
        ranges = try HTTPByteRanges(
            url: url, cacheDirectory: cacheDirectory, offline: offline, version: version, requestTimeoutSeconds: requestTimeoutSeconds)
        do throws(TileProblem) {
            (reader, sourceDescription) = try PMTilesSource.open(ranges, name: ranges.displayURL)
        } catch {
            // The reader keeps only the message of a failed read; the server's own words say more.
            guard let problem = ranges.lastProblem else { throw error }
            throw TileProblem("PMTiles '\(ranges.displayURL)': \(problem.description)")
        }
    }

    /// The tile's bytes as stored, nil when the archive has none there; a range the server did
    /// not deliver is a problem of kind `.unavailable` or `.notAsked` (the tile is failed).
    package func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        try PMTilesSource.storedTile(coordinate, in: reader, name: ranges.displayURL, limit: limit) { ranges.lastProblem }
    }

    /// Drops the cached range of a tile that did not decode; true when its bytes had come from
    /// the disk cache (then one fetch is worth trying). Bytes inside the archive's first 16 KiB
    /// come with the head, not from a range of their own: nothing to drop.
    package func forgetTile(_ coordinate: TileCoordinate) -> Bool {
        // Taken before the lookup below, which may read a leaf directory.
        let fromDisk = ranges.lastReadFromDisk
        guard let entry = try? reader.entry(z: coordinate.z, x: coordinate.x, y: coordinate.y) else { return false }
        let (offset, length) = (reader.header.tileDataOffset + entry.offset, Int(entry.length))
        ranges.forget(offset: offset, length: length)
        return fromDisk.map { $0.offset == offset && $0.length == length } == true && !ranges.offline
    }

    /// What identifies the archive's content: its identity (ETag, Last-Modified, size and head).
    package var contentStamp: String { "pmtiles \(ranges.identity)" }
}
