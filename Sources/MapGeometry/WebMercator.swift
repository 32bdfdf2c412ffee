#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Spherical Web Mercator, EPSG:3857, on the WGS 84 semi-major axis.
public enum WebMercator {
    /// The sphere radius, metres.
    public static let radiusMeters = 6_378_137.0
    /// Half the world's width, metres (π·R = 20,037,508.342789244).
    public static let halfWorldMeters = Double.pi * radiusMeters
    /// Latitudes are clamped to ±this many degrees, where the projected world becomes square.
    public static let maximumLatitudeDegrees = 85.051_128_78

    /// Projects a latitude/longitude in degrees; latitude is clamped to ±85.05112878°.
    /// Longitude is not wrapped, so a value above 180° (an unwrapped antimeridian track) projects
    /// east of the world's edge.
    @inlinable
    public static func project(latitudeDegrees: Double, longitudeDegrees: Double) -> MercatorPoint {
        let lat = min(max(latitudeDegrees, -maximumLatitudeDegrees), maximumLatitudeDegrees) * (Double.pi / 180)
        let x = radiusMeters * longitudeDegrees * (Double.pi / 180)
        let y = radiusMeters * log(tan(Double.pi / 4 + lat / 2))
        return MercatorPoint(xMeters: x, yMeters: y)
    }

    /// The inverse of `project`, in degrees.
    public static func unproject(_ point: MercatorPoint) -> (latitudeDegrees: Double, longitudeDegrees: Double) {
        let lon = point.xMeters / radiusMeters * (180 / Double.pi)
        let lat = (2 * atan(exp(point.yMeters / radiusMeters)) - Double.pi / 2) * (180 / Double.pi)
        return (lat, lon)
    }

    /// Mercator metres per ground metre at a latitude (the projection's scale factor, sec φ).
    public static func scaleFactor(atLatitudeDegrees latitude: Double) -> Double {
        let clamped = min(max(latitude, -maximumLatitudeDegrees), maximumLatitudeDegrees)
        return 1 / cos(clamped * Double.pi / 180)
    }
}

/// Chooses how to read longitudes so that a track crossing the antimeridian is one short piece:
/// from 179.9°E to 179.9°W spans 0.2°, not 359.8°.
public struct LongitudeUnwrapping: Sendable, Equatable {
    /// Whether western longitudes are shifted by +360° (to 180°...360°).
    public var shiftsWesternLongitudes: Bool

    /// Picks the reading whose longitude span is smaller, from the longitudes' extremes: `minimum`
    /// and `maximum` as recorded (−180...180), and the extremes after shifting western longitudes
    /// by +360° (`LongitudeExtremes` collects all four in one pass).
    public init(_ extremes: LongitudeExtremes) {
        // Only a track with longitudes on both sides of 0° can be shorter shifted. Without this,
        // a track wholly west of Greenwich was shifted one world east whenever adding 360°
        // rounded its span down by an ulp (San Francisco at −122.450…−122.445), and its view,
        // tiles and `viewport_epsg3857` lay outside the world.
        let bothSides = extremes.minimum < 0 && extremes.maximum >= 0
        shiftsWesternLongitudes = bothSides && extremes.maximumShifted - extremes.minimumShifted < extremes.maximum - extremes.minimum
    }

    /// Picks the reading whose longitude span is smaller.
    public init(longitudes: [Double]) {
        var extremes = LongitudeExtremes()
        for longitude in longitudes { extremes.add(longitude) }
        self.init(extremes)
    }

    /// The longitude to project.
    @inlinable
    public func apply(_ longitudeDegrees: Double) -> Double {
        shiftsWesternLongitudes && longitudeDegrees < 0 ? longitudeDegrees + 360 : longitudeDegrees
    }
}

/// The extremes of a set of longitudes as recorded and with western longitudes shifted by +360°.
public struct LongitudeExtremes: Sendable, Equatable {
    public var minimum = Double.infinity, maximum = -Double.infinity
    public var minimumShifted = Double.infinity, maximumShifted = -Double.infinity

    /// No longitudes yet.
    public init() {}

    /// Adds one longitude.
    @inlinable
    public mutating func add(_ longitude: Double) {
        minimum = min(minimum, longitude)
        maximum = max(maximum, longitude)
        let shifted = longitude < 0 ? longitude + 360 : longitude
        minimumShifted = min(minimumShifted, shifted)
        maximumShifted = max(maximumShifted, shifted)
    }
}
