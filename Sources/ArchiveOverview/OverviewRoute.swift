import MapGeometry

/// What the overview keeps of one track: its route in Web-Mercator metres (simplified, so it is
/// small enough to keep beside the track's record and draw again without reading the track), its
/// extent, distance and start, all a region needs to add it or take it away.
package struct OverviewRoute: Sendable, Equatable {
    /// The track's id (its cache key).
    package var id: String
    /// The route's segments, each a polyline in Mercator metres (longitudes unwrapped across the
    /// antimeridian as the track's snapshot does).
    package var segments: [[MercatorPoint]]
    /// The smallest rectangle holding every point.
    package var bounds: MapRect
    /// Distance over the cleaned fixes, metres (the record's `distance_m`).
    package var distanceMeters: Double
    /// First fix time, seconds since the Unix epoch; nil for a track without times.
    package var startTime: Double?

    /// A route from Mercator segments; nil when they hold no point.
    package init?(id: String, segments: [[MercatorPoint]], distanceMeters: Double, startTime: Double?) {
        guard let bounds = MapRect(bounding: segments.flatMap { $0 }) else { return nil }
        self.id = id
        self.segments = segments.filter { !$0.isEmpty }
        self.bounds = bounds
        self.distanceMeters = distanceMeters
        self.startTime = startTime
    }

    /// A route from segments of `(latitude, longitude)` degrees, projected (a track crossing the
    /// antimeridian is read on its short side) and simplified with Douglas-Peucker to within
    /// `toleranceGroundMeters` on the ground (0 keeps every point); nil when there is no point.
    package init?(
        id: String, latitudeLongitudeSegments: [[(latitude: Double, longitude: Double)]], distanceMeters: Double, startTime: Double?,
        toleranceGroundMeters: Double
    ) {
        let firstLatitude = latitudeLongitudeSegments.lazy.compactMap(\.first).first?.latitude ?? 0
        let toleranceMeters = toleranceGroundMeters * WebMercator.scaleFactor(atLatitudeDegrees: firstLatitude)
        var extremes = LongitudeExtremes()
        for segment in latitudeLongitudeSegments { for fix in segment { extremes.add(fix.longitude) } }
        let unwrapping = LongitudeUnwrapping(extremes)
        let projected = latitudeLongitudeSegments.map { segment in
            segment.map { WebMercator.project(latitudeDegrees: $0.latitude, longitudeDegrees: unwrapping.apply($0.longitude)) }
        }
        let simplified = projected.map { points in
            toleranceMeters > 0 && points.count > 2
                ? SimplificationRanks(points, floorToleranceMeters: toleranceMeters).vertices(toleranceMeters: toleranceMeters) : points
        }
        self.init(id: id, segments: simplified, distanceMeters: distanceMeters, startTime: startTime)
    }

    /// Points kept.
    package var pointCount: Int { segments.reduce(0) { $0 + $1.count } }

    /// The segments in the pixels of `viewport`.
    package func pixelSegments(in viewport: Viewport) -> [[PixelPoint]] {
        segments.map { $0.map(viewport.pixel) }
    }
}
