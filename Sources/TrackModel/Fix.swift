/// One recorded position of a GPS receiver, as a reader found it (nothing is validated here).
///
/// Missing values are `nil`-free on purpose: a track can hold millions of fixes, so elevation and
/// time use NaN for "not recorded", which keeps a `Fix` at 32 bytes with no optional tags.
public struct Fix: Sendable, Equatable {
    /// Latitude in degrees, WGS 84; valid range −90...90.
    public var latitudeDegrees: Double
    /// Longitude in degrees, WGS 84; valid range −180...180.
    public var longitudeDegrees: Double
    /// Elevation above the ellipsoid or sea level in metres, as recorded; NaN when not recorded.
    public var elevationMeters: Double
    /// Time of the fix in seconds since 1970-01-01T00:00:00Z; NaN when not recorded.
    public var timeSeconds: Double

    /// Creates a fix; elevation and time default to "not recorded".
    @inlinable
    public init(
        latitudeDegrees: Double, longitudeDegrees: Double,
        elevationMeters: Double = .nan, timeSeconds: Double = .nan
    ) {
        self.latitudeDegrees = latitudeDegrees
        self.longitudeDegrees = longitudeDegrees
        self.elevationMeters = elevationMeters
        self.timeSeconds = timeSeconds
    }

    /// Whether an elevation was recorded.
    @inlinable public var hasElevation: Bool { !elevationMeters.isNaN }
    /// Whether a time was recorded.
    @inlinable public var hasTime: Bool { !timeSeconds.isNaN }

    /// Field-wise equality that treats two NaNs (missing or unreadable values) as equal.
    @inlinable
    public static func == (a: Fix, b: Fix) -> Bool {
        @inline(__always) func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return same(a.latitudeDegrees, b.latitudeDegrees) && same(a.longitudeDegrees, b.longitudeDegrees)
            && same(a.elevationMeters, b.elevationMeters) && same(a.timeSeconds, b.timeSeconds)
    }
}
