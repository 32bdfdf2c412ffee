/// A position inside a vector tile layer, in tile units: 0…`extent` across the tile (x to the
/// right, y down), with the tile's buffer slightly below 0 and above `extent`.
public struct TilePoint: Sendable, Equatable, Hashable {
    /// Horizontal position in tile units (0 = the tile's left edge, `extent` = its right edge).
    public var x: Int32
    /// Vertical position in tile units (0 = the tile's top edge, `extent` = its bottom edge).
    public var y: Int32

    /// Creates a point.
    @inlinable public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A feature's geometry type (MVT 2.1 §4.3.4).
public enum VectorTileGeometryType: UInt8, Sendable, Equatable {
    /// No type: the geometry is not decoded.
    case unknown = 0
    /// One or more points.
    case point = 1
    /// One or more lines.
    case lineString = 2
    /// One or more polygons, each an exterior ring and its holes.
    case polygon = 3
}

/// One polygon: an exterior ring and the holes inside it. Rings are not closed (the first point is
/// not repeated at the end) and have at least three points and a non-zero area. The exterior's
/// winding is the tile's (clockwise on screen by the spec, reversed in some tiles); holes wind the
/// other way, so a non-zero or even-odd fill of all rings gives the same result.
public struct VectorTilePolygon: Sendable, Equatable {
    /// The outer boundary.
    public var exterior: [TilePoint]
    /// The holes, each inside `exterior`.
    public var holes: [[TilePoint]]

    /// Creates a polygon.
    public init(exterior: [TilePoint], holes: [[TilePoint]] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}

/// A decoded feature geometry in tile units.
public enum VectorTileGeometry: Sendable, Equatable {
    /// Points (a multi-point feature has several).
    case points([TilePoint])
    /// Lines, each of at least two points (a multi-line feature has several).
    case lines([[TilePoint]])
    /// Polygons, rings grouped by winding (MVT 2.1 §4.3.4.4).
    case polygons([VectorTilePolygon])
    /// A feature of type `unknown`: not decoded.
    case unknown

    /// The number of vertices in the geometry.
    public var vertexCount: Int {
        switch self {
        case .points(let points): points.count
        case .lines(let lines): lines.reduce(0) { $0 + $1.count }
        case .polygons(let polygons): polygons.reduce(0) { $0 + $1.exterior.count + $1.holes.reduce(0) { $0 + $1.count } }
        case .unknown: 0
        }
    }
}
