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
        let dLon = (b.longitudeDegrees - a.longitudeDegrees) * degreesToRadians
        return distanceMeters(
            latitude1Radians: lat1, latitude2Radians: lat2, cosLatitude1: cos(lat1), cosLatitude2: cos(lat2), deltaLongitudeRadians: dLon)
    }

    /// The haversine distance with the latitudes' cosines supplied, so a pass over consecutive
    /// fixes computes one cosine per fix instead of two per step. For the short steps of a track
    /// (under ~60 km) the sines and arcsine use their Taylor series, exact to ~1e-13 relative.
    @inlinable
    public static func distanceMeters(
        latitude1Radians lat1: Double, latitude2Radians lat2: Double, cosLatitude1: Double, cosLatitude2: Double,
        deltaLongitudeRadians dLon: Double
    ) -> Double {
        let halfLat = (lat2 - lat1) / 2, halfLon = dLon / 2
        let h: Double
        if abs(halfLat) < 5e-3, abs(halfLon) < 5e-3 {
            let sinLat = halfLat * (1 - halfLat * halfLat / 6), sinLon = halfLon * (1 - halfLon * halfLon / 6)
            h = sinLat * sinLat + cosLatitude1 * cosLatitude2 * sinLon * sinLon
            let root = h.squareRoot()
            return 2 * earthRadiusMeters * root * (1 + h / 6 + 3 * h * h / 40)
        }
        let sinLat = sin(halfLat), sinLon = sin(halfLon)
        h = sinLat * sinLat + cosLatitude1 * cosLatitude2 * sinLon * sinLon
        return 2 * earthRadiusMeters * asin(Swift.min(1, h.squareRoot()))
    }
}
