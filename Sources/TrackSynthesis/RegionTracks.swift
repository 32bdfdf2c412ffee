import TrackModel

/// Plausible outdoor activities inside one region, for benchmarks that draw a real map of it
/// (issue 23's vector-map section over the Liechtenstein extract): walks, runs, hikes and rides
/// that start inside the region and come back to their start, so the whole route stays on the map.
package enum RegionTracks {
    /// Liechtenstein's border, coarsely (47 vertices, ±300 m), as `[longitude, latitude]` degrees:
    /// traced from the admin_level 2 boundary in the vector tiles of ../shared/maps'
    /// liechtenstein-2013-08-03.osm.pbf (© OpenStreetMap contributors, ODbL). The extract holds
    /// data inside the country only, so a track in the rest of its bounding box (Switzerland west
    /// of the Rhine, Austria) would be drawn over an empty map.
    package static let liechtenstein: [[Double]] = [
        [9.531, 47.271], [9.520, 47.244], [9.503, 47.224], [9.500, 47.211], [9.492, 47.201], [9.486, 47.181], [9.493, 47.160],
        [9.506, 47.144], [9.512, 47.130], [9.518, 47.107], [9.519, 47.095], [9.513, 47.085], [9.492, 47.074], [9.474, 47.066],
        [9.476, 47.052], [9.492, 47.056], [9.517, 47.060], [9.540, 47.065], [9.553, 47.057], [9.557, 47.049], [9.588, 47.055],
        [9.607, 47.061], [9.613, 47.070], [9.621, 47.080], [9.633, 47.083], [9.636, 47.096], [9.629, 47.108], [9.625, 47.119],
        [9.634, 47.128], [9.625, 47.138], [9.623, 47.149], [9.603, 47.154], [9.600, 47.160], [9.579, 47.171], [9.567, 47.170],
        [9.573, 47.177], [9.574, 47.186], [9.573, 47.191], [9.581, 47.200], [9.585, 47.205], [9.576, 47.214], [9.564, 47.221],
        [9.554, 47.224], [9.558, 47.233], [9.567, 47.242], [9.556, 47.253], [9.543, 47.259],
    ]

    /// The kinds generated, in turn: name, speed (m/s), seconds between fixes, fix count range,
    /// heading jitter (degrees) and the chance of a street-corner turn per fix.
    static let kinds: [(name: String, speed: Double, interval: Double, fixes: ClosedRange<Int>, jitter: Double, corners: Double)] = [
        ("walk", 1.3, 3, 900...2_400, 5, 0.006),
        ("run", 3.0, 1, 1_500...3_600, 2.5, 0.004),
        ("hike", 1.1, 5, 1_200...2_800, 6, 0),
        ("ride", 6.5, 2, 900...1_800, 1.8, 0.002),
    ]

    /// `count` GPX files named `region-NNN-KIND.gpx`, each a loop whose every fix lies inside the
    /// polygon `outlineLonLat` (`[longitude, latitude]` vertices, the ring closed implicitly). A
    /// candidate that strays outside is replaced by the next seed's (at most 256 tries a track,
    /// then the last one is kept), so the same arguments always give the same files.
    package static func files(outlineLonLat: [[Double]] = liechtenstein, count: Int, seed: UInt64 = 23) -> [SampleCatalog.File] {
        precondition(outlineLonLat.count >= 3 && outlineLonLat.allSatisfy { $0.count == 2 })
        let longitudes = outlineLonLat.map { $0[0] }, latitudes = outlineLonLat.map { $0[1] }
        let west = longitudes.min()!, east = longitudes.max()!, south = latitudes.min()!, north = latitudes.max()!
        var random = SplitMix64(seed: seed)
        var files: [SampleCatalog.File] = []
        for index in 0..<count {
            let kind = kinds[index % kinds.count]
            var fixes: [Fix] = []
            for _ in 0..<256 {
                var startLatitude = 0.0, startLongitude = 0.0
                repeat {
                    startLatitude = south + (north - south) * random.uniform()
                    startLongitude = west + (east - west) * random.uniform()
                } while !contains(outlineLonLat, longitude: startLongitude, latitude: startLatitude)
                var recipe = RouteRecipe(
                    startLatitude: startLatitude, startLongitude: startLongitude, startTime: SampleCatalog.baseTime + Double(index) * 86_400,
                    fixCount: Int.random(in: kind.fixes, using: &random), intervalSeconds: kind.interval, speedMetersPerSecond: kind.speed,
                    headingDegrees: random.uniform() * 360, headingJitterDegrees: kind.jitter, baseElevation: 450 + random.uniform() * 600,
                    hillAmplitude: 40 + random.uniform() * 200)
                recipe.cornerProbability = kind.corners
                recipe.returnsToStart = true
                fixes = RouteSynthesizer.fixes(recipe, seed: random.next())
                if fixes.allSatisfy({ contains(outlineLonLat, longitude: $0.longitudeDegrees, latitude: $0.latitudeDegrees) }) { break }
            }
            let number = String(index), padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
            let name = "region-\(padded)-\(kind.name).gpx"
            let track = Track(format: .gpx, name: "Region \(kind.name) \(index)", segments: [TrackSegment(fixes: fixes)])
            files.append(SampleCatalog.File(name: name, contents: TrackWriters.gpx11(track, heartRate: false)))
        }
        return files
    }

    /// The outline of a longitude/latitude box, [west, south, east, north] in degrees.
    package static func outline(boundsLonLat bounds: [Double]) -> [[Double]] {
        precondition(bounds.count == 4 && bounds[0] < bounds[2] && bounds[1] < bounds[3])
        return [[bounds[0], bounds[1]], [bounds[2], bounds[1]], [bounds[2], bounds[3]], [bounds[0], bounds[3]]]
    }

    /// Whether the point is inside the polygon (even-odd rule: a ray to the east crosses its edges
    /// an odd number of times).
    package static func contains(_ outline: [[Double]], longitude: Double, latitude: Double) -> Bool {
        var inside = false
        var previous = outline[outline.count - 1]
        for vertex in outline {
            if (vertex[1] > latitude) != (previous[1] > latitude) {
                let crossing = vertex[0] + (latitude - vertex[1]) / (previous[1] - vertex[1]) * (previous[0] - vertex[0])
                if longitude < crossing { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }
}
