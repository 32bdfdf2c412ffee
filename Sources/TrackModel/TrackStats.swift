/// Figures about a track, always computed from the cleaned fixes (never from the simplified
/// route, which would shorten distances and flatten climbs).
public struct TrackStats: Sendable, Equatable, Codable {
    /// Sum of great-circle distances between consecutive fixes within each segment, in metres.
    /// Gaps between segments are not counted.
    public var distanceMeters: Double
    /// Time from the first to the last timed fix, in seconds; nil when the track has no times.
    public var durationSeconds: Double?
    /// Total climb in metres with a hysteresis (see `TrackStatistics`); nil without elevations.
    public var elevationGainMeters: Double?
    /// Time of the first timed fix, seconds since the Unix epoch; nil without times.
    public var startTimeSeconds: Double?
    /// Time of the last timed fix, seconds since the Unix epoch; nil without times.
    public var endTimeSeconds: Double?
    /// Time spent moving (see `CleaningOptions.movingSpeedMetersPerSecond`), seconds; nil without
    /// times.
    public var movingSeconds: Double? = nil
    /// Distance covered while moving, metres (what a moving pace or speed divides); nil without
    /// times.
    public var movingDistanceMeters: Double? = nil

    /// Creates a stats value.
    public init(
        distanceMeters: Double, durationSeconds: Double?, elevationGainMeters: Double?,
        startTimeSeconds: Double?, endTimeSeconds: Double?
    ) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.elevationGainMeters = elevationGainMeters
        self.startTimeSeconds = startTimeSeconds
        self.endTimeSeconds = endTimeSeconds
    }
}
