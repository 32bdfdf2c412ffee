import MapGeometry

/// The tiles inside a source's declared bounds at one zoom (MBTiles `bounds`), so tiles a
/// source cannot have are not asked for.
public struct TileCoverage {
    let zoom: Int
    let columns: ClosedRange<Int>
    let rows: ClosedRange<Int>

    /// `[west, south, east, north]` in degrees clamped to the world (longitudes −180...180,
    /// latitudes ±85.0511, Web Mercator's edge); nil unless four finite numbers with west < east
    /// and south < north after clamping (bounds across the antimeridian then mean the whole world).
    public static func boundsClampedToWorld(_ bounds: [Double]) -> [Double]? {
        guard bounds.count == 4, bounds.allSatisfy(\.isFinite) else { return nil }
        let latitude = WebMercator.maximumLatitudeDegrees
        let clamped = [
            min(max(bounds[0], -180), 180), min(max(bounds[1], -latitude), latitude),
            min(max(bounds[2], -180), 180), min(max(bounds[3], -latitude), latitude),
        ]
        guard clamped[0] < clamped[2], clamped[1] < clamped[3] else { return nil }
        return clamped
    }

    /// Nil when the bounds are not four finite numbers with west < east and south < north
    /// (bounds across the antimeridian are treated as the whole world) or the zoom is outside
    /// 0...30. Bounds past the world are clamped to it first: an outside number never reaches
    /// an integer conversion unbounded.
    public init?(boundsLonLat raw: [Double], zoom: Int) {
        guard (0...30).contains(zoom), let bounds = Self.boundsClampedToWorld(raw) else { return nil }
        let tiles = Double(1 << zoom)
        let world = 2 * WebMercator.halfWorldMeters
        // Clamped as Doubles, then converted: the fraction is within 0...1 for clamped bounds,
        // but rounding at the world's edge must not produce tile 2^z.
        func tile(_ fraction: Double) -> Int { Int(min(tiles - 1, max(0, (fraction * tiles).rounded(.down)))) }
        func column(_ longitude: Double) -> Int {
            let x = WebMercator.project(latitudeDegrees: 0, longitudeDegrees: longitude).xMeters
            return tile((x + WebMercator.halfWorldMeters) / world)
        }
        func row(_ latitude: Double) -> Int {
            let y = WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: 0).yMeters
            return tile((WebMercator.halfWorldMeters - y) / world)
        }
        self.zoom = zoom
        columns = column(bounds[0])...column(bounds[2])
        rows = row(bounds[3])...row(bounds[1])
    }

    /// Whether `tile` (of this zoom) is inside the bounds.
    public func contains(_ tile: TileCoordinate) -> Bool { columns.contains(tile.x) && rows.contains(tile.y) }
}
