import ThumbnailCache
import TimeZones

/// One track in an `index.json` part (schema version 3; see docs/site.md). Field names are the
/// JSON keys.
package struct ListingTrack: Sendable, Equatable, Codable {
    /// Distance, time and climb.
    package struct Stats: Sendable, Equatable, Codable {
        /// Distance over the cleaned fixes, metres.
        package var distanceM: Double
        /// First to last fix, seconds.
        package var durationS: Double?
        /// Time spent moving, seconds.
        package var movingTimeS: Double?
        /// Distance covered while moving, metres.
        package var movingDistanceM: Double?
        /// Climb, metres.
        package var elevationGainM: Double?

        enum CodingKeys: String, CodingKey {
            case distanceM = "distance_m"
            case durationS = "duration_s"
            case movingTimeS = "moving_time_s"
            case movingDistanceM = "moving_distance_m"
            case elevationGainM = "elevation_gain_m"
        }
    }

    /// Fix counts through the pipeline.
    package struct Fixes: Sendable, Equatable, Codable {
        /// Read from the file.
        package var read: Int
        /// Left after cleaning.
        package var kept: Int
        /// Vertices drawn after simplification (first image).
        package var drawn: Int
    }

    /// The cache key: stable for the same bytes and settings; also the detail page's name.
    package var id: String
    /// The track's name from the file, or the source file name without its extension.
    package var name: String
    /// The original file name (the archive file's, or the job's for a drop-in).
    package var source: String
    /// Every job name with these bytes (the same track under several names renders once).
    package var jobs: [String]
    /// The format read ("gpx", "fit", …).
    package var format: String
    /// The activity or sport the file records, if any.
    package var activity: String?
    /// First fix time, seconds since the Unix epoch (UTC); nil when the track has no times.
    package var startTime: Double?
    /// Last fix time, seconds since the Unix epoch (UTC).
    package var endTime: Double?
    /// The offset of local time at the start, seconds east of UTC (see `utcOffsetSource`).
    package var utcOffsetS: Int
    /// How `utc_offset_s` was decided: "file" (written with the file's first time, `+02:00`),
    /// "zone" (the IANA zone the start lies in, `time_zone`, at the start time) or "nautical"
    /// (15° of longitude an hour: at sea, where no zone is known, or without times).
    package var utcOffsetSource: String
    /// The IANA zone of the start ("Europe/Zurich") when `utc_offset_source` is "zone".
    package var timeZone: String?
    /// The time the listing sorts by: `start_time`, or the file's modification time.
    package var sortTime: Double
    /// Distance, time and climb.
    package var stats: Stats
    /// Fix counts.
    package var fixes: Fixes
    /// `[west, south, east, north]` in degrees (GeoJSON order; west > east across the antimeridian).
    package var bbox: [Double]
    /// The detail page, relative to Output/.
    package var page: String
    /// Every published image: thumbnails, then detail snapshots.
    package var images: [TrackRecord.Image]
    /// The basemap's attribution drawn on the images (its licence asks for it wherever they are
    /// shown); nil on the grid.
    package var attribution: String?

    enum CodingKeys: String, CodingKey {
        case id, name, source, jobs, format, activity, stats, fixes, bbox, page, images, attribution
        case startTime = "start_time"
        case endTime = "end_time"
        case utcOffsetS = "utc_offset_s"
        case timeZone = "time_zone"
        case utcOffsetSource = "utc_offset_source"
        case sortTime = "sort_time"
    }

    init(record: TrackRecord, source: String, jobs: [String], fileTime: Double) {
        id = record.id
        let stem = source.split(separator: ".").first.map(String.init) ?? source
        name = record.name.flatMap { $0.isEmpty ? nil : $0 } ?? stem
        self.source = source
        self.jobs = jobs
        format = record.format
        activity = record.activity
        startTime = record.startTime
        endTime = record.endTime
        if let recorded = record.utcOffsetRecordedS, record.startTime != nil {
            utcOffsetS = recorded
            utcOffsetSource = "file"
        } else {
            let offset = Self.localOffset(startLonLat: record.startLonLat, startTime: record.startTime)
            utcOffsetS = offset.utcOffsetSeconds
            timeZone = offset.zoneName
            utcOffsetSource = offset.zoneName == nil ? "nautical" : "zone"
        }
        sortTime = record.startTime ?? fileTime
        stats = Stats(
            distanceM: record.distanceM, durationS: record.durationS, movingTimeS: record.movingTimeS,
            movingDistanceM: record.movingDistanceM, elevationGainM: record.elevationGainM)
        fixes = Fixes(read: record.fixes, kept: record.fixesKept, drawn: record.fixesDrawn)
        bbox = record.bbox
        page = "tracks/" + record.id + ".html"
        images = record.images
        attribution = record.basemap?.attribution
    }

    /// The local time offset at the start: the start's zone and its rules at the start time, or
    /// the nautical estimate (see `utcOffsetS`).
    static func localOffset(startLonLat: [Double], startTime: Double?) -> LocalTimeOffset {
        let longitude = startLonLat.first ?? 0
        guard startLonLat.count >= 2, let startTime else { return .nautical(longitudeDegrees: longitude) }
        return LocalTimeOffset.at(latitudeDegrees: startLonLat[1], longitudeDegrees: longitude, seconds: startTime)
    }

    /// The month the track is filed under, "2024-05": of its start in local time, or of the file
    /// time (UTC) when it has no times.
    var month: String { Self.month(sortTime: sortTime, hasStartTime: startTime != nil, utcOffsetS: utcOffsetS) }

    /// The month rule itself, for readers of the listing's JSON (`sort_time`, `start_time`,
    /// `utc_offset_s`): the listing's pages, the year pages and the poster's `--year` all file a
    /// track by it.
    static func month(sortTime: Double, hasStartTime: Bool, utcOffsetS: Int) -> String {
        ListingFormat.LocalTime(sortTime, offsetSeconds: hasStartTime ? utcOffsetS : 0).monthKey
    }

    /// The listing's images of one role, smallest scale first.
    func images(_ role: ImageRole) -> [TrackRecord.Image] {
        images.filter { $0.role == role.rawValue }.sorted { $0.scale < $1.scale }
    }
}

/// `index.json`, schema version 4: the entry point of the machine-readable listing. The tracks
/// are in parts (`index/part-N.json`, a `ListingPart` each: the tracks of numbered page N, newest
/// first), counted here with the pattern of their paths, so one new track rewrites this small file
/// and the newest part instead of every track's record (`IndexDocument`). (Version 3 listed every
/// part here; version 2 held every track in this file.)
package struct ListingDocument: Sendable, Equatable, Codable {
    /// The schema version: 4.
    package var version = 4
    /// Cards per numbered index page (`page-1.html` is the oldest), and tracks per part but the newest.
    package var pageSize: Int
    /// How many tracks are listed.
    package var tracks: Int
    /// How many parts there are: part 1 the oldest, part `parts` the newest.
    package var parts: Int
    /// The parts' path relative to `Output/` with `{n}` for the number: "index/part-{n}.json".
    package var partPath: String

    /// The parts' paths, newest first.
    package var partPaths: [String] { IndexDocument.partPaths(count: parts, pattern: partPath) }

    enum CodingKeys: String, CodingKey {
        case version, tracks, parts
        case pageSize = "page_size"
        case partPath = "part_path"
    }
}

/// One part of the listing: `index/part-N.json`.
package struct ListingPart: Sendable, Equatable, Codable {
    /// Its number: the numbered index page with the same tracks.
    package var part: Int
    /// The tracks, newest first.
    package var tracks: [ListingTrack]
    /// The schema version: 3.
    package var version: Int
}
