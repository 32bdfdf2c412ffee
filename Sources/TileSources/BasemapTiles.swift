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

    /// Starts one image: a network source's time for this image's tiles starts now.
    public func beginImage() {
        source.beginImage()
    }

    /// The tile, from the cache or the source. A failure that may pass (a timeout, an HTTP
    /// error, a tile not asked for) is not remembered: the next image asks again.
    public func tile(_ coordinate: TileCoordinate) -> TileLookup {
        var passing = false
        let lookup = cache.lookup(coordinate) {
            tilesRead += 1
            let lookup: TileLookup
            do throws(TileProblem) {
                lookup = try read(coordinate)
            } catch {
                lookup = .failed(error.description)
                passing = error.kind != .tile
                // Not asked (deadline, open breaker): counted in the render info, not logged per tile.
                if error.kind == .notAsked { return lookup }
            }
            if case .failed(let message) = lookup {
                // The kind is the message up to its first colon or digit: "bad PNG", "HTTP 503"…
                let kind = String(message.prefix { $0 != ":" && !$0.isNumber })
                if kindsReported.insert(kind).inserted {
                    let threshold = (source as? URLTileSource)?.breakerThreshold ?? 3
                    let breaker = passing ? "; after \(threshold) failed requests in a row the server is not asked again in this run" : ""
                    onFirstProblem("tile \(coordinate): \(message) (further tiles with this problem are counted in each render's info\(breaker))")
                }
            }
            return lookup
        }
        if passing { cache.forget(coordinate) }
        return lookup
    }

    /// Reads and decodes a tile; a cached copy that does not decode is dropped and fetched once more.
    private func read(_ coordinate: TileCoordinate) throws(TileProblem) -> TileLookup {
        for attempt in 0..<2 {
            guard let bytes = try source.tileBytes(coordinate, limit: limits.maximumTileBytes) else { return .absent }
            switch TileDecoder.decode(bytes, limits: limits) {
            case .success(let image): return .image(image)
            case .failure(let problem):
                if attempt == 0, source.forgetTile(coordinate) { continue }
                return .failed(problem.description)
            }
        }
        return .absent
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
