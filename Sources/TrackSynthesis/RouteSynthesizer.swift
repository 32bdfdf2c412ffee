#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrackModel

/// A recipe for a plausible recorded activity.
package struct RouteRecipe: Sendable {
    /// Where the recording starts.
    package var startLatitude: Double
    /// Where the recording starts (may step past ±180°; it is wrapped on output).
    package var startLongitude: Double
    /// Unix time of the first fix.
    package var startTime: Double
    /// Number of fixes.
    package var fixCount: Int
    /// Seconds between fixes.
    package var intervalSeconds: Double
    /// Average speed, m/s.
    package var speedMetersPerSecond: Double
    /// Initial heading in degrees (0 = north, 90 = east).
    package var headingDegrees: Double
    /// Standard deviation of the heading change per fix, degrees (how wiggly the path is).
    package var headingJitterDegrees: Double
    /// Probability per fix of a street-corner turn of ±90°.
    package var cornerProbability: Double = 0
    /// Whether the path steers back to its start over its last 40%.
    package var returnsToStart = false
    /// Elevation at the start, metres; NaN writes no elevations.
    package var baseElevation: Double
    /// Amplitude of hills, metres.
    package var hillAmplitude: Double
    /// Horizontal GPS error (standard deviation), metres. The error drifts slowly (correlated over
    /// about half a minute), as a receiver's does, rather than jumping at every fix.
    package var gpsNoiseMeters: Double = 2

    /// Creates a recipe.
    package init(
        startLatitude: Double, startLongitude: Double, startTime: Double, fixCount: Int, intervalSeconds: Double,
        speedMetersPerSecond: Double, headingDegrees: Double, headingJitterDegrees: Double, baseElevation: Double,
        hillAmplitude: Double
    ) {
        self.startLatitude = startLatitude
        self.startLongitude = startLongitude
        self.startTime = startTime
        self.fixCount = fixCount
        self.intervalSeconds = intervalSeconds
        self.speedMetersPerSecond = speedMetersPerSecond
        self.headingDegrees = headingDegrees
        self.headingJitterDegrees = headingJitterDegrees
        self.baseElevation = baseElevation
        self.hillAmplitude = hillAmplitude
    }
}

/// Generates fixes from a recipe with a seeded random walk: smooth heading changes, optional
/// corners, speed variation, GPS jitter and rolling hills. The same recipe and seed always give
/// the same fixes.
package enum RouteSynthesizer {
    /// The fixes of one recorded segment.
    package static func fixes(_ recipe: RouteRecipe, seed: UInt64) -> [Fix] {
        var random = SplitMix64(seed: seed)
        var fixes: [Fix] = []
        fixes.reserveCapacity(recipe.fixCount)
        let metersPerDegreeLatitude = 111_320.0
        var north = 0.0, east = 0.0  // metres from the start
        var heading = recipe.headingDegrees * Double.pi / 180
        var travelled = 0.0
        var finished = false
        let hillPhase = random.uniform() * 10
        var errorNorth = 0.0, errorEast = 0.0
        let persistence = 0.97, innovation = (1 - persistence * persistence).squareRoot()
        for index in 0..<recipe.fixCount {
            let latitude = recipe.startLatitude + north / metersPerDegreeLatitude
            let longitude = recipe.startLongitude + east / (metersPerDegreeLatitude * cos(latitude * Double.pi / 180))
            errorNorth = persistence * errorNorth + innovation * random.gaussian() * recipe.gpsNoiseMeters
            errorEast = persistence * errorEast + innovation * random.gaussian() * recipe.gpsNoiseMeters
            let jitterNorth = errorNorth + 0.3 * random.gaussian(), jitterEast = errorEast + 0.3 * random.gaussian()
            var lon = longitude + jitterEast / (metersPerDegreeLatitude * cos(latitude * Double.pi / 180))
            if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
            let elevation =
                recipe.baseElevation.isNaN
                ? Double.nan
                : recipe.baseElevation + recipe.hillAmplitude * (sin(travelled / 1900 + hillPhase) + 0.4 * sin(travelled / 530 + 2 * hillPhase))
                    + random.gaussian() * 0.8
            fixes.append(
                Fix(
                    latitudeDegrees: latitude + jitterNorth / metersPerDegreeLatitude, longitudeDegrees: lon,
                    elevationMeters: elevation, timeSeconds: recipe.startTime + Double(index) * recipe.intervalSeconds))
            // Advance.
            heading += random.gaussian() * recipe.headingJitterDegrees * Double.pi / 180
            if recipe.cornerProbability > 0, random.uniform() < recipe.cornerProbability {
                heading += (random.uniform() < 0.5 ? -1 : 1) * Double.pi / 2
            }
            if recipe.returnsToStart, index > recipe.fixCount * 6 / 10 {
                let home = atan2(-east, -north)
                var difference = home - heading
                difference = atan2(sin(difference), cos(difference))
                let remaining = Double(recipe.fixCount - index)
                let distanceHome = (north * north + east * east).squareRoot()
                heading += difference * min(1, 4 / remaining + 0.02)
                if distanceHome < recipe.speedMetersPerSecond * recipe.intervalSeconds * 2 { finished = true }
            }
            // Back home: the watch keeps recording while its owner stands at the finish.
            let pace = finished ? 0.02 : 0.85 + 0.3 * random.uniform()
            let step = recipe.speedMetersPerSecond * recipe.intervalSeconds * pace
            north += step * cos(heading)
            east += step * sin(heading)
            travelled += step
        }
        return fixes
    }
}

/// A small, fast, seedable generator (SplitMix64), so generated files and random tests are reproducible.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Standard normal (Box-Muller).
    package mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
