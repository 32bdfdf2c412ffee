/// Bounds on the work and memory one vector tile may cost, so a hostile or broken tile is a named
/// problem instead of a crash, a stall or an allocation of gigabytes.
///
/// With the defaults, one tile costs at most 32 MiB of bytes, 8 MiB of feature index
/// (`maximumFeaturesPerTile` × 16 bytes), about 12 MiB of key and value tables (plus their
/// strings, which are bounded by the bytes), 32 MiB of decoded vertices
/// (`maximumVerticesPerTile` × 8 bytes), and time linear in those.
public struct VectorTileLimits: Sendable, Equatable {
    /// Most bytes a tile may have: inflated by `VectorTileBytes.inflateIfNeeded` (a gzip bomb stops
    /// here) and opened by `VectorTile`. Real tiles are below 1 MiB inflated. Default: 32 MiB.
    public var maximumTileBytes: Int = 32 << 20
    /// Most features all the layers of a tile may have (a busy zoom-14 tile has tens of thousands).
    /// Default: 500,000.
    public var maximumFeaturesPerTile: Int = 500_000
    /// Most keys and values all the layers of a tile may have together. Default: 500,000.
    public var maximumKeysAndValuesPerTile: Int = 500_000
    /// Largest accepted layer `extent` (tile units per tile side); 4096 is usual, 8192 and 16384 occur.
    /// Keeps every accepted coordinate inside 32 bits. Default: 1 << 20.
    public var maximumExtent: Int = 1 << 20
    /// How far outside the tile a coordinate may lie, in multiples of the layer's extent: a
    /// coordinate outside `-margin…extent + margin` makes its feature a `coordinateOutOfRange`
    /// problem. Clipped tiles' buffers are 1/64 to 1/8 of the extent, but tilemaker 2.2 leaves
    /// boundaries up to 2 extents outside the tile (measured over the Liechtenstein tiles), so the
    /// bound is twice that. Default: 4.
    public var coordinateMarginExtents: Int = 4
    /// Most vertices one feature may decode to; a longer feature is a `limitExceeded` problem
    /// (a real country border at zoom 14 has tens of thousands). Default: 500,000.
    public var maximumVerticesPerFeature: Int = 500_000
    /// Most vertices all the features of one tile may decode to, counted by
    /// `VectorTileVertexBudget`. Default: 4,000,000 (32 MiB of `TilePoint`s).
    public var maximumVerticesPerTile: Int = 4_000_000
    /// Most problems `VectorTile.decoded()` keeps (the rest are counted). Default: 100.
    public var maximumProblemsKept: Int = 100

    /// The defaults above.
    public init() {}
}

/// The vertices a caller may still decode from one tile (`VectorTileLimits.maximumVerticesPerTile`):
/// pass the same budget to every `VectorTileLayer.geometry(of:budget:)` call for the tile.
public struct VectorTileVertexBudget: Sendable, Equatable {
    /// Vertices left.
    public private(set) var remainingVertices: Int

    /// A full budget for one tile under `limits`.
    public init(limits: VectorTileLimits = VectorTileLimits()) {
        remainingVertices = limits.maximumVerticesPerTile
    }

    /// Takes `count` vertices; false (and nothing taken) when fewer are left.
    mutating func take(_ count: Int) -> Bool {
        guard count <= remainingVertices else { return false }
        remainingVertices -= count
        return true
    }
}
