/// A route stroke and its optional casing quantized to one level per pixel, for drawing into a
/// palette image: the pair (casing coverage, route coverage) depends only on the distance to the
/// route, and while the casing's ramp ends before the route's begins, one number says both.
///
/// Levels, with `L` = `levelsPerRamp`: 0 is untouched; with a casing, 1...L is the casing at k/L
/// (no route) and L+1...2L the route at (k−L)/L over a full casing; without one, 1...L is the route
/// at k/L. Larger is always closer, so the maximum over segments is still the union. Coverage is
/// thus quantized to 1/32 (an error of at most 1/64: 3.4 levels of 255 for the default route, at
/// edge pixels only); 64 levels per ramp overflowed the palette where the casing crosses grid lines.
public struct StrokeRamp: Sendable, Equatable {
    /// Coverage steps per ramp.
    public static let levelsPerRamp = 32
    /// Half the route's width, in pixels.
    public let routeRadiusPixels: Double
    /// Half the casing's width, in pixels; nil without a casing.
    public let casingRadiusPixels: Double?

    /// A ramp; nil when the casing's anti-aliased edge would overlap the route's (the casing is
    /// less than one pixel wider on each side), which one level per pixel cannot describe.
    public init?(routeRadiusPixels: Double, casingRadiusPixels: Double?) {
        if let casingRadiusPixels, casingRadiusPixels - routeRadiusPixels < 1 { return nil }
        self.routeRadiusPixels = routeRadiusPixels
        self.casingRadiusPixels = casingRadiusPixels
    }

    /// The farthest radius drawn.
    public var outerRadiusPixels: Double { casingRadiusPixels ?? routeRadiusPixels }

    /// The level at `distance` pixels from the route.
    @inlinable
    public func level(distance: Double) -> UInt8 {
        let steps = Double(StrokeRamp.levelsPerRamp)
        let route = Int((routeRadiusPixels + 0.5 - distance) * steps + 0.5)
        let base = casingRadiusPixels == nil ? 0 : StrokeRamp.levelsPerRamp
        if route >= 1 { return UInt8(base + min(route, StrokeRamp.levelsPerRamp)) }
        guard let casingRadiusPixels else { return 0 }
        let casing = Int((casingRadiusPixels + 0.5 - distance) * steps + 0.5)
        return casing >= 1 ? UInt8(min(casing, StrokeRamp.levelsPerRamp)) : 0
    }

    /// The largest level.
    public var maximumLevel: Int { casingRadiusPixels == nil ? StrokeRamp.levelsPerRamp : 2 * StrokeRamp.levelsPerRamp }

    /// Casing and route coverage (0...1) of a level.
    public func coverages(level: Int) -> (casing: Double, route: Double) {
        let steps = Double(StrokeRamp.levelsPerRamp)
        guard casingRadiusPixels != nil else { return (0, Double(level) / steps) }
        return (Double(min(level, StrokeRamp.levelsPerRamp)) / steps, Double(max(0, level - StrokeRamp.levelsPerRamp)) / steps)
    }
}
