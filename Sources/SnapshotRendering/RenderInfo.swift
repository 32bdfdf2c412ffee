import MapTiles
import TrackCleaning
import TrackModel

/// What a render did, for `--info`, the listing and tests. Field names are the JSON keys.
public struct RenderInfo: Sendable, Equatable, Codable {
    /// Format read, e.g. "gpx".
    public var format: String
    /// The track's name from the file, if any.
    public var name: String?
    /// The activity or sport the file records (GPX `type`, TCX, FIT, GeoJSON), if any.
    public var activity: String? = nil
    /// The UTC offset written with the file's first time (seconds east), if the file records one.
    public var utcOffsetRecordedS: Int? = nil
    /// Whether the file was gzip-compressed.
    public var compressed: Bool? = nil
    /// What the reader noticed without failing (a FIT CRC mismatch, ignored points…); nil when nothing.
    public var notes: [String]? = nil
    /// Fixes read from the file.
    public var fixes: Int
    /// Fixes left after cleaning.
    public var fixesKept: Int
    /// Fixes dropped by cleaning, by reason.
    public var dropped: CleaningReport
    /// Segments drawn (each a separate polyline; gaps are not drawn).
    public var segments: Int
    /// Vertices of the simplified polylines that were stroked.
    public var verticesDrawn: Int
    /// Distance over the cleaned fixes in metres.
    public var distanceM: Double
    /// First-to-last fix time in seconds, when the track has times.
    public var durationS: Double?
    /// Total climb in metres, when the track has elevations.
    public var elevationGainM: Double?
    /// First fix time, seconds since the Unix epoch.
    public var startTime: Double?
    /// Last fix time, seconds since the Unix epoch.
    public var endTime: Double? = nil
    /// Time spent moving, seconds (steps at walking drift speed or across long gaps excluded).
    public var movingTimeS: Double? = nil
    /// Distance covered while moving, metres.
    public var movingDistanceM: Double? = nil
    /// The cleaned fixes' bounds in degrees, `[west, south, east, north]` as in GeoJSON (RFC 7946
    /// §5): west is greater than east for a track across the antimeridian.
    public var bbox: [Double] = []
    /// The first cleaned fix, `[longitude, latitude]` in degrees.
    public var startLonLat: [Double] = []
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// Device pixels per point.
    public var scale: Double
    /// The route's stroke width in pixels.
    public var strokeWidthPx: Double
    /// The exact map rectangle the image shows, `[minX, minY, maxX, maxY]` in EPSG:3857 metres;
    /// image position (px, py) is x = minX + px·(maxX−minX)/width, y = maxY − py·(maxY−minY)/height;
    /// pixel i spans i...i+1 and shows the map at its centre, i + 0.5.
    /// minX/maxX may exceed ±20,037,508.34 m for a track drawn across the antimeridian.
    public var viewportEpsg3857: [Double]
    /// What the basemap came to (zoom, tiles drawn and missing, attribution, problems); nil
    /// without a basemap.
    public var basemap: BasemapReport? = nil

    enum CodingKeys: String, CodingKey {
        case format, name, activity, compressed, notes, fixes, dropped, segments, width, height, scale, basemap
        case fixesKept = "fixes_kept"
        case verticesDrawn = "vertices_drawn"
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case elevationGainM = "elevation_gain_m"
        case utcOffsetRecordedS = "utc_offset_recorded_s"
        case startTime = "start_time"
        case endTime = "end_time"
        case movingTimeS = "moving_time_s"
        case movingDistanceM = "moving_distance_m"
        case bbox
        case startLonLat = "start_lon_lat"
        case strokeWidthPx = "stroke_width_px"
        case viewportEpsg3857 = "viewport_epsg3857"
    }
}

/// Seconds spent in each stage of one render; the caller fills `read` and `write`.
public struct StageTimings: Sendable, Equatable {
    /// Reading the file (filled by the caller).
    public var read = 0.0
    /// Sniffing and decoding the format.
    public var parse = 0.0
    /// Dropping bad fixes and computing stats.
    public var clean = 0.0
    /// Projecting and fitting the viewport.
    public var fit = 0.0
    /// Projecting to pixels and Douglas-Peucker.
    public var simplify = 0.0
    /// Background, strokes, markers.
    public var raster = 0.0
    /// PNG encoding.
    public var encode = 0.0
    /// Publishing the file (filled by the caller).
    public var write = 0.0

    /// Creates zero timings.
    public init() {}

    /// The sum of all stages.
    public var total: Double { read + parse + clean + fit + simplify + raster + encode + write }
}
