import TrackModel

/// Plausible outdoor activities inside one region, for benchmarks that draw a real map of it
/// (issue 23's vector-map section over the Liechtenstein extract): walks, runs, hikes and rides
/// that start inside the region and come back to their start, so the whole route stays on the map.
public enum RegionTracks {
    /// The kinds generated, in turn: name, speed (m/s), seconds between fixes, fix count range,
    /// heading jitter (degrees) and the chance of a street-corner turn per fix.
    static let kinds: [(name: String, speed: Double, interval: Double, fixes: ClosedRange<Int>, jitter: Double, corners: Double)] = [
        ("walk", 1.3, 3, 900...2_400, 5, 0.006),
        ("run", 3.0, 1, 1_500...3_600, 2.5, 0.004),
        ("hike", 1.1, 5, 1_200...2_800, 6, 0),
        ("ride", 6.5, 2, 900...1_800, 1.8, 0.002),
    ]

    /// `count` GPX files named `region-NNN-KIND.gpx`, each a loop whose every fix lies within
    /// `boundsLonLat` ([west, south, east, north] in degrees). A candidate that strays outside is
    /// replaced by the next seed's (at most 64 tries a track, then the last one is kept), so the
    /// same arguments always give the same files.
    public static func files(boundsLonLat: [Double], count: Int, seed: UInt64 = 23) -> [SampleCatalog.File] {
        precondition(boundsLonLat.count == 4 && boundsLonLat[0] < boundsLonLat[2] && boundsLonLat[1] < boundsLonLat[3])
        let (west, south, east, north) = (boundsLonLat[0], boundsLonLat[1], boundsLonLat[2], boundsLonLat[3])
        var random = SplitMix64(seed: seed)
        var files: [SampleCatalog.File] = []
        for index in 0..<count {
            let kind = kinds[index % kinds.count]
            var fixes: [Fix] = []
            for _ in 0..<64 {
                // Starts in the middle 60% of the region: a loop from its edge would leave it half the time.
                var recipe = RouteRecipe(
                    startLatitude: south + (north - south) * (0.2 + 0.6 * random.uniform()),
                    startLongitude: west + (east - west) * (0.2 + 0.6 * random.uniform()),
                    startTime: SampleCatalog.baseTime + Double(index) * 86_400, fixCount: Int.random(in: kind.fixes, using: &random),
                    intervalSeconds: kind.interval, speedMetersPerSecond: kind.speed, headingDegrees: random.uniform() * 360,
                    headingJitterDegrees: kind.jitter, baseElevation: 450 + random.uniform() * 600, hillAmplitude: 40 + random.uniform() * 200)
                recipe.cornerProbability = kind.corners
                recipe.returnsToStart = true
                fixes = RouteSynthesizer.fixes(recipe, seed: random.next())
                let inside = fixes.allSatisfy {
                    $0.longitudeDegrees >= west && $0.longitudeDegrees <= east && $0.latitudeDegrees >= south && $0.latitudeDegrees <= north
                }
                if inside { break }
            }
            let number = String(index), padded = String(repeating: "0", count: max(0, 3 - number.count)) + number
            let name = "region-\(padded)-\(kind.name).gpx"
            let track = Track(format: .gpx, name: "Region \(kind.name) \(index)", segments: [TrackSegment(fixes: fixes)])
            files.append(SampleCatalog.File(name: name, contents: TrackWriters.gpx11(track, heartRate: false)))
        }
        return files
    }
}
