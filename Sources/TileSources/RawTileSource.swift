import MapTiles

/// Where encoded tiles come from: a file, a folder, a server. `BasemapTiles` decodes and
/// caches what these return.
package protocol RawTileSource: AnyObject {
    /// Zoom range, bounds and attribution as the source declares them (tile size is learnt by
    /// `BasemapTiles` from a decoded tile).
    var sourceDescription: TileSourceDescription { get }
    /// The encoded tile, nil when the source has none there; throws when it cannot be had.
    /// `limit` is the largest tile accepted, in bytes.
    func tileBytes(_ coordinate: TileCoordinate, limit: Int) throws(TileProblem) -> [UInt8]?
    /// Called before each image's tiles are read (a source that keeps its own `TileTimeBudget`,
    /// as URL sources do, starts the image's deadline there).
    func beginImage()
    /// Called when the bytes of `coordinate` did not decode: drop any cached copy; true when
    /// reading the tile again may give other bytes (the bad ones came from a cache).
    func forgetTile(_ coordinate: TileCoordinate) -> Bool
}

extension RawTileSource {
    /// Nothing: `BasemapTiles` keeps the time for sources without a budget of their own.
    package func beginImage() {}
    /// False: a file gives the same bytes again.
    package func forgetTile(_ coordinate: TileCoordinate) -> Bool { false }
}
