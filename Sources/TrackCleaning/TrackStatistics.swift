#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrackModel

/// Distance, duration and climb of a cleaned track.
public enum TrackStatistics {
    /// Computes the stats of `track`, which should already be cleaned (see `TrackCleaner`).
    /// Distance and climb are summed within segments only: a gap is not travelled.
    public static func stats(of track: Track, options: CleaningOptions = CleaningOptions()) -> TrackStats {
        var distance = 0.0
        var gain = 0.0
        var sawElevation = false
        var firstTime = Double.nan, lastTime = Double.nan
        var movingSeconds = 0.0, movingDistance = 0.0
        for segment in track.segments {
            let fixes = segment.fixes
            var reference = Double.nan
            var previousLatitude = 0.0, previousCos = 1.0, previousLongitude = 0.0
            var previousTime = Double.nan
            for k in fixes.indices {
                let fix = fixes[k]
                let latitude = fix.latitudeDegrees * (Double.pi / 180), longitude = fix.longitudeDegrees * (Double.pi / 180)
                let cosLatitude = cos(latitude)
                if k > 0 {
                    let step = GreatCircle.distanceMeters(
                        latitude1Radians: previousLatitude, latitude2Radians: latitude, cosLatitude1: previousCos,
                        cosLatitude2: cosLatitude, deltaLongitudeRadians: longitude - previousLongitude)
                    distance += step
                    let seconds = fix.timeSeconds - previousTime
                    if seconds > 0, seconds <= options.movingGapLimitSeconds, step >= options.movingSpeedMetersPerSecond * seconds {
                        movingSeconds += seconds
                        movingDistance += step
                    }
                }
                if fix.hasTime { previousTime = fix.timeSeconds }
                previousLatitude = latitude
                previousCos = cosLatitude
                previousLongitude = longitude
                if fix.hasTime {
                    if firstTime.isNaN || fix.timeSeconds < firstTime { firstTime = fix.timeSeconds }
                    if lastTime.isNaN || fix.timeSeconds > lastTime { lastTime = fix.timeSeconds }
                }
                if fix.hasElevation {
                    sawElevation = true
                    // Hysteresis: count a climb only once it exceeds the noise band, then move the
                    // reference; descents move the reference down without counting.
                    if reference.isNaN {
                        reference = fix.elevationMeters
                    } else if fix.elevationMeters - reference >= options.elevationGainHysteresisMeters {
                        gain += fix.elevationMeters - reference
                        reference = fix.elevationMeters
                    } else if fix.elevationMeters < reference {
                        reference = fix.elevationMeters
                    }
                }
            }
        }
        let timed = !firstTime.isNaN
        var stats = TrackStats(
            distanceMeters: distance,
            durationSeconds: timed ? lastTime - firstTime : nil,
            elevationGainMeters: sawElevation ? gain : nil,
            startTimeSeconds: timed ? firstTime : nil,
            endTimeSeconds: timed ? lastTime : nil)
        if timed {
            stats.movingSeconds = movingSeconds
            stats.movingDistanceMeters = movingDistance
        }
        return stats
    }
}
