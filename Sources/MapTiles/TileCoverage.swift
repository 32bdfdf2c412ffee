import MapGeometry

/// The tiles inside a source's declared bounds at one zoom (MBTiles `bounds`), so tiles a
/// source cannot have are not asked for.
struct TileCoverage {
    let zoom: Int
    let columns: ClosedRange<Int>
    let rows: ClosedRange<Int>

    /// Nil when the bounds are not four finite numbers with west < east and south < north
    /// (bounds across the antimeridian are treated as the whole world).
    init?(boundsLonLat bounds: [Double], zoom: Int) {
        guard bounds.count == 4, bounds.allSatisfy(\.isFinite), bounds[0] < bounds[2], bounds[1] < bounds[3] else { return nil }
        let tiles = Double(1 << zoom)
        let world = 2 * WebMercator.halfWorldMeters
        func column(_ longitude: Double) -> Int {
            let x = WebMercator.project(latitudeDegrees: 0, longitudeDegrees: longitude).xMeters
            return min(Int(tiles) - 1, max(0, Int(((x + WebMercator.halfWorldMeters) / world * tiles).rounded(.down))))
        }
        func row(_ latitude: Double) -> Int {
            let y = WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: 0).yMeters
            return min(Int(tiles) - 1, max(0, Int(((WebMercator.halfWorldMeters - y) / world * tiles).rounded(.down))))
        }
        self.zoom = zoom
        columns = column(bounds[0])...column(bounds[2])
        rows = row(bounds[3])...row(bounds[1])
    }

    func contains(_ tile: TileCoordinate) -> Bool { columns.contains(tile.x) && rows.contains(tile.y) }
}
