import MapTiles
import VectorTiles

/// A basemap as the renderer sees it: a raw source, decoded through `TileDecoder`, kept in a
/// `DecodedTileCache`, with its problems reported once, and held to a `TileTimeBudget` (time
/// per image and per track, a circuit breaker) whatever the source is: a locked MBTiles file
/// costs bounded time like a hanging server, and its tiles are failed (the image marked
/// incomplete, drawn again by a later run), never the track. One per worker (not thread-safe:
/// a worker renders one image at a time).
package final class BasemapTiles: TileProvider {
    /// The raw source.
    package let source: any RawTileSource
    /// The source's description with the tile size learnt from a decoded tile (on first use, so
    /// a worker that renders nothing reads no tile). The attribution is the source's own; the
    /// renderer puts the settings' over it (`BasemapSettings.attribution(over:)`).
    package lazy var sourceDescription: TileSourceDescription = {
        var description = declared
        // Vector tiles have no pixels: they are drawn at the image's own scale.
        if declared.kind == .raster { description.tilePixels = Self.tilePixels(of: source, limits: limits) ?? 256 }
        return description
    }()
    private let declared: TileSourceDescription
    /// The decoded-tile cache.
    package let cache: DecodedTileCache
    /// Size limits per tile.
    package let limits: TileLimits
    /// Limits on decoding one vector tile (inflated size, vertices, features). Default: `VectorTileLimits()`.
    package var vectorLimits = VectorTileLimits()
    /// Called with the first problem of each kind this source has ("bad PNG", "HTTP 500"…), so a
    /// batch logs a bad source once, not once per tile; every problem still goes into the
    /// render info.
    package var onFirstProblem: (String) -> Void = { _ in }
    /// Tiles read from the source (not from the cache) since creation.
    package private(set) var tilesRead = 0
    /// The time for tiles and the circuit breaker: the source's own when it checks them itself
    /// (`TileBudgetedSource`), else checked here before each read.
    package let budget: TileTimeBudget
    private let sourceChecksBudget: Bool
    private var kindsReported: Set<String> = []
    /// PNG decoding into reused buffers (libdeflate).
    private let pngReader = PNGTileReader()

    /// Wraps `source`.
    package init(source: any RawTileSource, cache: DecodedTileCache = DecodedTileCache(), limits: TileLimits = TileLimits()) {
        self.source = source
        self.cache = cache
        self.limits = limits
        declared = source.sourceDescription
        let budgeted = source as? any TileBudgetedSource
        budget = budgeted?.budget ?? TileTimeBudget()
        sourceChecksBudget = budgeted != nil
    }

    /// Starts one track: the time all its images may spend on tiles starts now.
    package func beginTrack() {
        budget.beginTrack()
    }

    /// Starts one image: its time for tiles starts now.
    package func beginImage() {
        budget.beginImage()
        source.beginImage()
    }

    /// The tile, from the cache or the source. A failure that may pass (a timeout, an HTTP
    /// error, a tile not asked for) is not remembered: the next image asks again.
    package func tile(_ coordinate: TileCoordinate) -> TileLookup {
        var passing = false
        let lookup = cache.lookup(coordinate) {
            tilesRead += 1
            let lookup: TileLookup
            do throws(TileProblem) {
                lookup = try read(coordinate)
            } catch {
                lookup = .failed(error.description)
                passing = error.kind != .tile || error.isTemporary
                // Not asked (deadline, open breaker): counted in the render info, not logged per tile.
                if error.kind == .notAsked { return lookup }
            }
            if case .failed(let message) = lookup {
                // The kind is the message up to its first colon or digit: "bad PNG", "HTTP 503"…
                let kind = String(message.prefix { $0 != ":" && !$0.isNumber })
                if kindsReported.insert(kind).inserted {
                    let breaker =
                        !passing
                        ? ""
                        : sourceChecksBudget
                            ? "; after \(budget.breakerThreshold) failed requests in a row the server is not asked again in this run"
                            : "; after \(budget.breakerThreshold) failed reads in a row the source is not read again in this run"
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
        if sourceChecksBudget { return try decoded(coordinate) }
        if let reason = budget.breakerReason { throw TileProblem("not read: \(reason)", kind: .notAsked) }
        guard budget.secondsLeft > 0 else { throw TileProblem("not read: \(budget.spentLimit) had run out", kind: .notAsked) }
        do throws(TileProblem) {
            let lookup = try decoded(coordinate)
            budget.recordSuccess()
            return lookup
        } catch {
            guard error.kind == .unavailable, budget.recordFailure(error, what: sourceName) else { throw error }
            var annotated = error
            annotated.description += " (\(budget.breakerThreshold) failures in a row: the source is not read again in this run)"
            throw annotated
        }
    }

    /// What the breaker's reason calls the source.
    private var sourceName: String {
        switch source {
        case is MBTilesSource: "the MBTiles file"
        case is TileFolderSource: "the tile folder"
        default: "the basemap source"
        }
    }

    /// The source's bytes, decoded; a cached copy that does not decode is dropped and read once more.
    private func decoded(_ coordinate: TileCoordinate) throws(TileProblem) -> TileLookup {
        for attempt in 0..<2 {
            guard let bytes = try source.tileBytes(coordinate, limit: limits.maximumTileBytes) else { return .absent }
            let result =
                declared.kind == .vector
                ? Self.decodeVector(bytes, limits: vectorLimits) : TileDecoder.decode(bytes, limits: limits, reader: pngReader).map(TileLookup.image)
            switch result {
            case .success(let lookup): return lookup
            case .failure(let problem):
                if attempt == 0, source.forgetTile(coordinate) { continue }
                return .failed(problem.description)
            }
        }
        return .absent
    }

    /// A vector tile's bytes (gzip-compressed or not), every layer decoded under `limits`; a tile
    /// that is not a vector tile at all (bad gzip, broken protobuf) is a problem naming why.
    static func decodeVector(_ bytes: [UInt8], limits: VectorTileLimits) -> Result<TileLookup, TileProblem> {
        do throws(VectorTileProblem) {
            let plain = try VectorTileBytes.inflateIfNeeded(bytes, limit: limits.maximumTileBytes)
            return .success(.vector(try VectorTile(bytes: plain, limits: limits).decoded()))
        } catch {
            return .failure(TileProblem("bad vector tile: \(error)"))
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
