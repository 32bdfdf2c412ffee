/// A continuous run of fixes. Consecutive segments are separated by a recording gap that is
/// never drawn (GPX `trkseg`, a paused TCX lap track, a FIT timer stop).
public struct TrackSegment: Sendable, Equatable {
    /// The fixes in recording order.
    public var fixes: [Fix]

    /// Creates a segment from fixes in recording order.
    public init(fixes: [Fix]) { self.fixes = fixes }
}

/// The file formats TrackSnap can recognise. Reading support per format is listed by
/// `TrackFormats.TrackDecoder`; recognising a format does not imply it can be read yet.
public enum TrackFormat: String, Sendable, CaseIterable, Codable {
    case gpx, csv, tcx, fit, kml, kmz, geojson, gzip
}

/// A recorded activity: its segments and what the file said about it.
public struct Track: Sendable, Equatable {
    /// The format the track was read from.
    public var format: TrackFormat
    /// The name recorded in the file (GPX `trk/name`, …), if any, with entities decoded.
    public var name: String?
    /// The segments in file order; a segment may be empty until cleaning drops it.
    public var segments: [TrackSegment]
    /// The activity or sport the file records (GPX `trk/type`, TCX `Activity/@Sport`, FIT `sport`,
    /// GeoJSON `properties.activity`), if any.
    public var activity: String?
    /// The recording's own identifier (TCX `Activity/Id`), if any.
    public var activityIdentifier: String?
    /// The UTC offset, seconds east, written with the file's first time (`2024-06-15T08:30:00+02:00`);
    /// nil when the file writes UTC (`Z`, `+00:00`), no offset, or no times.
    public var recordedUTCOffsetSeconds: Int?
    /// Whether the file was gzip-compressed around `format`.
    public var wasCompressed = false
    /// Things the reader noticed but did not fail on, one sentence each ("the file CRC does not
    /// match …", "3 Point geometries ignored"), for logs and the listing.
    public var notes: [String] = []

    /// Creates a track.
    public init(format: TrackFormat, name: String? = nil, segments: [TrackSegment], activity: String? = nil) {
        self.format = format
        self.name = name
        self.segments = segments
        self.activity = activity
    }

    /// The number of fixes over all segments.
    public var fixCount: Int { segments.reduce(0) { $0 + $1.fixes.count } }
}
