import ThumbnailCache

/// One track in `index.json` (schema version 1; see README "index.json"). Field names are the
/// JSON keys.
public struct ListingTrack: Sendable, Equatable, Codable {
    /// The cache key: stable for the same bytes and settings.
    public var id: String
    /// The track's name from the file, or the source file name without its extension.
    public var name: String
    /// The original file name (the archive file's, or the job's for a drop-in).
    public var source: String
    /// Every job name with these bytes (the same track under several names renders once).
    public var jobs: [String]
    /// The format read.
    public var format: String
    /// First fix time, seconds since the Unix epoch; nil when the track has no times.
    public var startTime: Double?
    /// The time the listing sorts by: `start_time`, or the file's modification time.
    public var sortTime: Double
    /// Distance, metres.
    public var distanceM: Double
    /// Duration, seconds.
    public var durationS: Double?
    /// Climb, metres.
    public var elevationGainM: Double?
    /// Fixes read.
    public var fixes: Int
    /// Fixes kept after cleaning.
    public var fixesKept: Int
    /// The published images.
    public var images: [TrackRecord.Image]

    enum CodingKeys: String, CodingKey {
        case id, name, source, jobs, format, fixes, images
        case startTime = "start_time"
        case sortTime = "sort_time"
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case elevationGainM = "elevation_gain_m"
        case fixesKept = "fixes_kept"
    }

    init(record: TrackRecord, source: String, jobs: [String], fileTime: Double) {
        id = record.id
        let stem = source.split(separator: ".").first.map(String.init) ?? source
        name = record.name.flatMap { $0.isEmpty ? nil : $0 } ?? stem
        self.source = source
        self.jobs = jobs
        format = record.format
        startTime = record.startTime
        sortTime = record.startTime ?? fileTime
        distanceM = record.distanceM
        durationS = record.durationS
        elevationGainM = record.elevationGainM
        fixes = record.fixes
        fixesKept = record.fixesKept
        images = record.images
    }
}

/// `index.json`.
public struct ListingDocument: Sendable, Equatable, Codable {
    /// The schema version. Default: 1.
    public var version = 1
    /// Every track, newest first.
    public var tracks: [ListingTrack]
}
