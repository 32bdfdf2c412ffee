import MapTiles

/// A basemap as the renderer sees it: a raw source, decoded through `TileDecoder`, kept in a
/// `DecodedTileCache`, with its problems reported once. One per worker (not thread-safe: a
/// worker renders one image at a time).
public final class BasemapTiles: TileProvider {
    /// The raw source.
    public let source: any RawTileSource
    /// The source's description with the tile size learnt from a decoded tile (on first use, so
    /// a worker that renders nothing reads no tile). The attribution is the source's own; the
    /// renderer puts the settings' over it (`BasemapSettings.attribution(over:)`).
    public lazy var sourceDescription: TileSourceDescription = {
        var description = declared
        description.tilePixels = Self.tilePixels(of: source, limits: limits) ?? 256
        return description
    }()
    private let declared: TileSourceDescription
    /// The decoded-tile cache.
    public let cache: DecodedTileCache
    /// Size limits per tile.
    public let limits: TileLimits
    /// Called with the first problem of each kind this source has ("bad PNG", "HTTP 500"…), so a
    /// batch logs a bad source once, not once per tile; every problem still goes into the
    /// render info.
    public var onFirstProblem: (String) -> Void = { _ in }
    /// Tiles read from the source (not from the cache) since creation.
    public private(set) var tilesRead = 0
    private var kindsReported: Set<String> = []

    /// Wraps `source`.
    public init(source: any RawTileSource, cache: DecodedTileCache = DecodedTileCache(), limits: TileLimits = TileLimits()) {
        self.source = source
        self.cache = cache
        self.limits = limits
        declared = source.sourceDescription
    }

    /// The tile, from the cache or the source.
    public func tile(_ coordinate: TileCoordinate) -> TileLookup {
        cache.lookup(coordinate) {
            tilesRead += 1
            let lookup: TileLookup
            do throws(TileProblem) {
                guard let bytes = try source.tileBytes(coordinate, limit: limits.maximumTileBytes) else { return .absent }
                switch TileDecoder.decode(bytes, limits: limits) {
                case .success(let image): lookup = .image(image)
                case .failure(let problem): lookup = .failed(problem.description)
                }
            } catch {
                lookup = .failed(error.description)
            }
            if case .failed(let message) = lookup {
                // The kind is the message up to its first colon or digit: "bad PNG", "HTTP 503"…
                let kind = String(message.prefix { $0 != ":" && !$0.isNumber })
                if kindsReported.insert(kind).inserted {
                    onFirstProblem("tile \(coordinate): \(message) (further tiles with this problem are counted in each render's info)")
                }
            }
            return lookup
        }
    }

    /// The edge of the source's tiles, from one decoded tile (MBTiles), or nil.
    private static func tilePixels(of source: any RawTileSource, limits: TileLimits) -> Int? {
        guard let mbtiles = source as? MBTilesSource, let bytes = mbtiles.anyTile(limit: limits.maximumTileBytes),
            case .success(let image) = TileDecoder.decode(bytes, limits: limits), image.width == image.height,
            [256, 512].contains(image.width)
        else { return nil }
        return image.width
    }
}

