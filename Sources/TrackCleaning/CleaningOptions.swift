/// How bad fixes are recognised. Plain values with their defaults in one place.
public struct CleaningOptions: Sendable, Equatable, Codable {
    /// A step is a teleport when its implied speed exceeds this multiple of the track's 90th
    /// percentile step speed. Default: 8.
    public var spikeSpeedFactor: Double = 8
    /// …and also exceeds this speed, so a slow walk's GPS jitter is never called a teleport.
    /// Default: 30 m/s (108 km/h).
    public var minimumSpikeSpeedMetersPerSecond: Double = 30
    /// For fixes without times: a step is a teleport when it exceeds this multiple of the 90th
    /// percentile step length… Default: 20.
    public var spikeDistanceFactor: Double = 20
    /// …and this length. Default: 500 m.
    public var minimumSpikeDistanceMeters: Double = 500
    /// Elevation changes smaller than this are treated as noise when summing the climb.
    /// Default: 3 m (a typical GPS vertical jitter; barometric files would allow less).
    public var elevationGainHysteresisMeters: Double = 3
    /// Whether an exact (0°, 0°) fix is dropped as a receiver's "no position yet" placeholder.
    /// Default: true (no real track records a fix exactly at Null Island).
    public var dropNullIsland: Bool = true
    /// A step between two timed fixes counts as moving time when its speed is at least this.
    /// Default: 0.3 m/s (about 1 km/h: slower is GPS drift while standing).
    public var movingSpeedMetersPerSecond: Double = 0.3
    /// …and when the fixes are at most this far apart in time (a longer gap is a pause even if the
    /// position moved, e.g. the device was switched off on a train). Default: 300 s.
    public var movingGapLimitSeconds: Double = 300

    /// The defaults above.
    /// Times outside this range (Unix seconds) are not believed: the fix keeps its position and
    /// loses its time, so no duration, date or moving time comes from it. Default: 1990-01-01 to
    /// 2100-01-01 (before GPS receivers logged tracks; far enough ahead for any clock). A fixed
    /// range, not "now", so the same file always renders the same.
    public var plausibleTimes: ClosedRange<Double> = 631_152_000...4_102_444_800

    public init() {}
}

/// What cleaning dropped, by reason.
public struct CleaningReport: Sendable, Equatable, Codable {
    /// Fixes with a non-finite or out-of-range coordinate (or at Null Island).
    public var invalid = 0
    /// Fixes identical to the fix before them (same position and time).
    public var duplicates = 0
    /// Fixes whose implied speed was far beyond the rest of the track.
    public var spikes = 0
    /// Times removed (the fix kept, without a time): outside `CleaningOptions.plausibleTimes`,
    /// or earlier than a time before it in the segment. Not in `total`: no fix is dropped.
    public var timesDropped = 0
    /// Every fix dropped.
    public var total: Int { invalid + duplicates + spikes }

    private enum CodingKeys: String, CodingKey {
        case invalid, duplicates, spikes
        case timesDropped = "times_dropped"
    }

    /// Reads a report; records written before `times_dropped` existed read as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        invalid = try container.decode(Int.self, forKey: .invalid)
        duplicates = try container.decode(Int.self, forKey: .duplicates)
        spikes = try container.decode(Int.self, forKey: .spikes)
        timesDropped = try container.decodeIfPresent(Int.self, forKey: .timesDropped) ?? 0
    }

    /// An empty report.
    public init() {}
}
