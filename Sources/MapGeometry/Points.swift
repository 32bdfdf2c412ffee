/// A position in spherical Web Mercator (EPSG:3857), in metres. x grows east, y grows north.
/// x may exceed ±20,037,508.34 m when a track crossing the antimeridian is unwrapped.
public struct MercatorPoint: Sendable, Equatable {
    /// Easting in metres.
    public var xMeters: Double
    /// Northing in metres.
    public var yMeters: Double

    /// Creates a point.
    @inlinable public init(xMeters: Double, yMeters: Double) {
        self.xMeters = xMeters
        self.yMeters = yMeters
    }
}

/// A position on the output image in device pixels. x grows right, y grows down; pixel (i, j)
/// covers [i, i+1) × [j, j+1), so its centre is at (i + 0.5, j + 0.5).
public struct PixelPoint: Sendable, Equatable {
    /// Horizontal position in pixels.
    public var x: Double
    /// Vertical position in pixels.
    public var y: Double

    /// Creates a point.
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in Web Mercator metres.
public struct MapRect: Sendable, Equatable {
    /// West edge in metres.
    public var minX: Double
    /// South edge in metres.
    public var minY: Double
    /// East edge in metres.
    public var maxX: Double
    /// North edge in metres.
    public var maxY: Double

    /// Creates a rectangle from its edges.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The smallest rectangle holding `points`; nil when there are none.
    public init?(bounding points: [MercatorPoint]) {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for point in points {
            minX = min(minX, point.xMeters)
            maxX = max(maxX, point.xMeters)
            minY = min(minY, point.yMeters)
            maxY = max(maxY, point.yMeters)
        }
        guard minX <= maxX else { return nil }
        self.init(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// Width in metres.
    public var width: Double { maxX - minX }
    /// Height in metres.
    public var height: Double { maxY - minY }
    /// The centre point.
    public var center: MercatorPoint { MercatorPoint(xMeters: (minX + maxX) / 2, yMeters: (minY + maxY) / 2) }
}
