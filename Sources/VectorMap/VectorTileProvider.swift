import MapTiles
import VectorTiles

/// What a vector source gave for one tile.
public enum VectorTileLookup: Sendable {
    /// The tile, every layer decoded (features with a problem already skipped and counted).
    case tile(VectorTile.Decoded)
    /// The source has no tile there: the grid shows through, silently.
    case absent
    /// The tile could not be had or decoded (the message names why): the grid shows through and
    /// the reason is recorded.
    case failed(String)
}

/// Where vector tiles come from, for one render at a time: the painter only ever sees this, so
/// drawing stays pure and testable with tiles made in memory (files, SQLite, PMTiles and HTTP live
/// behind it in `TileSources`).
public protocol VectorTileProvider: AnyObject {
    /// Zoom range, coverage and attribution (the tile size does not apply: vectors are drawn at
    /// the image's own scale).
    var sourceDescription: TileSourceDescription { get }
    /// The tile at `coordinate` (already wrapped into 0..<2^z), decoded.
    func vectorTile(_ coordinate: TileCoordinate) -> VectorTileLookup
    /// Called before one image's tiles are asked for (a source may bound the time they take).
    func beginImage()
    /// Called before the images of one track.
    func beginTrack()
}

extension VectorTileProvider {
    /// Nothing: in-memory tiles need no deadline.
    public func beginImage() {}
    /// Nothing: in-memory tiles need no deadline.
    public func beginTrack() {}
}
