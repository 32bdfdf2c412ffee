#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle helpers on a spherical Earth (the same sphere as Web Mercator).
public enum GreatCircle {
    /// The sphere radius used for distances and for EPSG:3857, in metres.
    public static let earthRadiusMeters = 6_378_137.0

    /// Haversine distance between two fixes in metres.
    @inlinable
    public static func distanceMeters(_ a: Fix, _ b: Fix) -> Double {
        let degreesToRadians = Double.pi / 180
        let lat1 = a.latitudeDegrees * degreesToRadians
        let lat2 = b.latitudeDegrees * degreesToRadians
        let dLat = lat2 - lat1
        let dLon = (b.longitudeDegrees - a.longitudeDegrees) * degreesToRadians
        let sinLat = sin(dLat / 2)
        let sinLon = sin(dLon / 2)
        let h = sinLat * sinLat + cos(lat1) * cos(lat2) * sinLon * sinLon
        return 2 * earthRadiusMeters * asin(Swift.min(1, h.squareRoot()))
    }
}
