import JSONDocument
import FileStore
import MapTiles
import VectorTiles

/// Tiles from a local PMTiles v3 archive (a Protomaps extract, `pmtiles convert` of an MBTiles):
/// the header and root directory read at open, then one directory walk and one read per tile
/// (`PMTilesReader` over `pread`, leaf directories kept decoded; the decoded-tile cache above
/// keeps repeated tiles cheap). The same archive on a server is `RemotePMTilesSource`.
/// Vector (`mvt`) or raster (`png`, `jpeg`) by the header's tile type; zooms and bounds from the
/// header, the attribution from the metadata JSON. A damaged archive (bad header, sections past
/// the end, a directory loop) is refused at open, naming the file.
package final class PMTilesSource: RawTileSource {
    /// The file.
    package let path: String
    /// What the header and metadata say.
    package let sourceDescription: TileSourceDescription
    private let reader: PMTilesReader<FileRanges>

    /// Opens the archive and reads its header, root directory and metadata.
    package init(path: String) throws(TileProblem) {
        self.path = path
        let file: RandomAccessFile
        do {
            file = try RandomAccessFile(path)
        } catch {
            throw TileProblem("PMTiles '\(path)': \(error)")
        }
        (reader, sourceDescription) = try Self.open(FileRanges(file: file), name: path)
    }

    /// The reader over `ranges` and the description its header and metadata give; errors name
    /// the archive as `name`.
    static func open<Ranges: ByteRangeReading>(_ ranges: Ranges, name: String) throws(TileProblem) -> (PMTilesReader<Ranges>, TileSourceDescription) {
        let reader: PMTilesReader<Ranges>
        let attribution: String?
        do throws(PMTilesError) {
            reader = try PMTilesReader(source: ranges)
            attribution = try reader.metadata()["attribution"]?.string
        } catch {
            throw TileProblem("PMTiles '\(name)': \(error)")
        }
        return (reader, try description(reader.header, attribution: attribution, path: name))
    }

    /// Whether `bytes` (a file's first bytes) start a PMTiles archive.
    package static func isPMTiles(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("PMTiles".utf8)) }

    /// The description the header gives; the tile type decides raster or vector.
    static func description(_ header: PMTilesHeader, attribution: String?, path: String) throws(TileProblem) -> TileSourceDescription {
        var description = TileSourceDescription()
        switch header.tileType {
        case .mvt: description.kind = .vector
        case .png, .jpeg: description.kind = .raster
        case .webp, .avif, .unknown:
            throw TileProblem("PMTiles '\(path)' holds tiles of type \(header.tileType); TrackSnap reads mvt (vector), png and jpeg")
        }
        let minimum = Int(header.minimumZoom), maximum = Int(header.maximumZoom)
        guard MBTilesSource.zoomRange.contains(minimum), MBTilesSource.zoomRange.contains(maximum), minimum <= maximum else {
            throw TileProblem("PMTiles '\(path)' has zooms \(minimum)–\(maximum); expected 0–30 with the minimum first")
        }
        description.minimumZoom = minimum
        description.maximumZoom = maximum
        let bounds = [header.minimumLongitudeE7, header.minimumLatitudeE7, header.maximumLongitudeE7, header.maximumLatitudeE7]
        description.boundsLonLat = TileCoverage.boundsClampedToWorld(bounds.map { Double($0) / 1e7 })
        if let attribution, !attribution.isEmpty { description.attribution = TextForImage.plain(attribution) }
        return description
    }

    /// The tile's bytes as stored (gzip-compressed or not), nil when the archive has none there.
    package func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]? {
        try Self.storedTile(coordinate, in: reader, name: path, limit: limit)
    }

    /// The bytes of `coordinate` in `reader` as stored, nil when it has none; errors name the
    /// archive as `name` and keep the kind of a failed read (`readProblem`: a server's failure
    /// passes, a damaged archive does not).
    static func storedTile<Ranges: ByteRangeReading>(
        _ coordinate: TileCoordinate, in reader: PMTilesReader<Ranges>, name: String, limit: Int, readProblem: () -> TileProblem? = { nil }
    ) throws(TileProblem) -> [UInt8]? {
        let bytes: [UInt8]?
        do throws(PMTilesError) {
            bytes = try reader.storedTile(z: coordinate.z, x: coordinate.x, y: coordinate.y)
        } catch {
            if error.kind == .readFailed, let problem = readProblem() {
                throw TileProblem(
                    "PMTiles '\(name)' tile \(coordinate): \(problem.description)", isTemporary: problem.isTemporary, kind: problem.kind)
            }
            throw TileProblem("PMTiles '\(name)' tile \(coordinate): \(error)")
        }
        if let bytes, bytes.count > limit { throw TileProblem("the tile is \(bytes.count) bytes, more than the \(limit >> 20) MiB a tile may have") }
        return bytes
    }
}

/// A `RandomAccessFile` as the byte ranges a `PMTilesReader` asks for.
struct FileRanges: ByteRangeReading {
    /// The archive.
    let file: RandomAccessFile
    /// The archive's size when it was opened.
    var byteCount: UInt64 { UInt64(file.sizeBytes) }
    /// `length` bytes at `offset` (fewer at the end of the file).
    func read(offset: UInt64, length: Int) throws -> [UInt8] { try file.read(offset: Int(offset), length: length) }
}
