import MapGeometry

/// An axis-aligned rectangle in canvas pixels: [minX, maxX] × [minY, maxY] (a tile's square, the
/// canvas, a clip window grown by a stroke's reach).
public struct PixelRect: Sendable, Equatable {
    /// Left edge in pixels.
    public var minX: Double
    /// Top edge in pixels.
    public var minY: Double
    /// Right edge in pixels.
    public var maxX: Double
    /// Bottom edge in pixels.
    public var maxY: Double

    /// Creates a rectangle from its edges.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The rectangle grown by `pixels` on every side (shrunk when negative).
    public func grown(byPixels pixels: Double) -> PixelRect {
        PixelRect(minX: minX - pixels, minY: minY - pixels, maxX: maxX + pixels, maxY: maxY + pixels)
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        PixelRect(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// Whether `point` is inside or on the edge.
    @inline(__always)
    public func contains(_ point: PixelPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}
