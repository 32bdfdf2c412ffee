import MapGeometry
import TrackModel

/// A cleaned track in Web Mercator: one polyline per segment, longitudes unwrapped so a track
/// across the antimeridian stays one short piece, plus its bounds.
struct ProjectedTrack {
    /// Mercator points per segment.
    var segments: [[MercatorPoint]]
    /// Bounding rectangle of every point.
    var bounds: MapRect
    /// Latitude of the bounds' centre, for ground distances.
    var centerLatitudeDegrees: Double

    /// Projects every fix. The track must have at least one fix.
    init(_ track: Track) {
        var extremes = LongitudeExtremes()
        for segment in track.segments {
            for fix in segment.fixes { extremes.add(fix.longitudeDegrees) }
        }
        let unwrapping = LongitudeUnwrapping(extremes)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        segments = track.segments.map { segment in
            var points: [MercatorPoint] = []
            points.reserveCapacity(segment.fixes.count)
            for fix in segment.fixes {
                let point = WebMercator.project(latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: unwrapping.apply(fix.longitudeDegrees))
                minX = min(minX, point.xMeters)
                maxX = max(maxX, point.xMeters)
                minY = min(minY, point.yMeters)
                maxY = max(maxY, point.yMeters)
                points.append(point)
            }
            return points
        }
        bounds = MapRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        centerLatitudeDegrees = WebMercator.unproject(bounds.center).latitudeDegrees
    }
}

extension ProjectedTrack {
    /// The bounds in degrees, `[west, south, east, north]`; longitudes back in -180...180, so west
    /// is greater than east when the track crosses the antimeridian.
    var boundsLonLat: [Double] {
        let southWest = WebMercator.unproject(MercatorPoint(xMeters: bounds.minX, yMeters: bounds.minY))
        let northEast = WebMercator.unproject(MercatorPoint(xMeters: bounds.maxX, yMeters: bounds.maxY))
        func wrap(_ longitude: Double) -> Double { longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude }
        return [wrap(southWest.longitudeDegrees), southWest.latitudeDegrees, wrap(northEast.longitudeDegrees), northEast.latitudeDegrees]
    }
}
