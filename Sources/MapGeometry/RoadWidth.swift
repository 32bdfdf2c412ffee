#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The route's stroke width as a function of zoom, after MapKit's `MKRoadWidthAtZoomScale`.
///
/// Its only public measurement (iOS 6) gives 21, 16, 15, 12, 11, 9, 7, 6, 6, 4 screen points at web
/// zoom 20 down to 11; `width ≈ 20.5 · zoomScale^0.246` fits it, where zoomScale is screen points
/// per map point and the world is 2²⁸ map points wide (performance-notes.md).
public enum RoadWidth {
    /// Mercator metres in one MapKit map point.
    public static let metersPerMapPoint = 2 * WebMercator.halfWorldMeters / Double(1 << 28)
    /// The narrowest stroke, in points. Default rule: 4.
    public static let minimumPoints = 4.0
    /// The widest stroke, in points. Default rule: 21.
    public static let maximumPoints = 21.0

    /// The stroke width in points for a map drawn at `metersPerPoint` Mercator metres per screen point.
    public static func strokeWidthPoints(metersPerPoint: Double) -> Double {
        guard metersPerPoint > 0, metersPerPoint.isFinite else { return minimumPoints }
        let zoomScale = metersPerMapPoint / metersPerPoint
        return min(max(20.5 * pow(zoomScale, 0.246), minimumPoints), maximumPoints)
    }
}
