import FoundationEssentials

/// What the listing knows about one rendered track: written once per cache key, after its
/// images, as `Output/.tracksnap/records/<key>.json`. Field names are index.json's keys.
public struct TrackRecord: Sendable, Equatable, Codable {
    /// One published image.
    public struct Image: Sendable, Equatable, Codable {
        /// Path relative to Output/, e.g. "thumbs/<key>@2x.png".
        public var path: String
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Device pixels per point.
        public var scale: Double
        /// "thumbnail" or "detail".
        public var role: String
        /// The exact map rect shown, [minX, minY, maxX, maxY] in EPSG:3857 metres.
        public var viewportEpsg3857: [Double]

        enum CodingKeys: String, CodingKey {
            case path, width, height, scale, role
            case viewportEpsg3857 = "viewport_epsg3857"
        }

        /// An image entry.
        public init(path: String, width: Int, height: Int, scale: Double, role: String, viewportEpsg3857: [Double]) {
            self.path = path
            self.width = width
            self.height = height
            self.scale = scale
            self.role = role
            self.viewportEpsg3857 = viewportEpsg3857
        }
    }

    /// What the basemap came to (the renderer's `BasemapReport`, as plain values: the listing
    /// reads records without linking the renderer). Field names are index.json's keys.
    public struct Basemap: Sendable, Equatable, Codable {
        /// The zoom level of the tiles drawn; nil when none could be.
        public var zoom: Int?
        /// Tiles drawn.
        public var tiles: Int
        /// Tiles the source does not have there (its coverage ends).
        public var tilesAbsent: Int
        /// Tiles that could not be had (`problems` says why).
        public var tilesFailed: Int
        /// The attribution drawn, if any.
        public var attribution: String?
        /// Why tiles failed or nothing was drawn, one line each (at most 5).
        public var problems: [String]?
        /// "vector" for a vector map; nil (not encoded) for raster tiles.
        public var kind: String? = nil
        /// Vector maps: features drawn; nil for raster tiles.
        public var featuresDrawn: Int? = nil
        /// Vector maps: vertices of the features drawn; nil for raster tiles.
        public var verticesDrawn: Int? = nil
        /// Vector maps: the style's label layers, not drawn; nil for raster tiles.
        public var labelLayersSkipped: Int? = nil

        enum CodingKeys: String, CodingKey {
            case zoom, tiles, attribution, problems, kind
            case tilesAbsent = "tiles_absent"
            case tilesFailed = "tiles_failed"
            case featuresDrawn = "features_drawn"
            case verticesDrawn = "vertices_drawn"
            case labelLayersSkipped = "label_layers_skipped"
        }

        /// A basemap summary.
        public init(zoom: Int?, tiles: Int, tilesAbsent: Int, tilesFailed: Int, attribution: String?, problems: [String]?) {
            self.zoom = zoom
            self.tiles = tiles
            self.tilesAbsent = tilesAbsent
            self.tilesFailed = tilesFailed
            self.attribution = attribution
            self.problems = problems
        }
    }

    /// The cache key.
    public var id: String
    /// The track's name from the file, if any.
    public var name: String?
    /// The format read ("gpx", "csv", …).
    public var format: String
    /// The activity or sport the file records (GPX `type`, TCX, FIT, GeoJSON), if any.
    public var activity: String?
    /// The UTC offset written with the file's first time (seconds east), if the file records one.
    public var utcOffsetRecordedS: Int?
    /// First fix time, seconds since the Unix epoch, when the track has times.
    public var startTime: Double?
    /// Last fix time, seconds since the Unix epoch, when the track has times.
    public var endTime: Double?
    /// Time spent moving, seconds.
    public var movingTimeS: Double?
    /// Distance covered while moving, metres.
    public var movingDistanceM: Double?
    /// `[west, south, east, north]` in degrees (GeoJSON order; west > east across the antimeridian).
    public var bbox: [Double]
    /// The first fix, `[longitude, latitude]`.
    public var startLonLat: [Double]
    /// Segments drawn.
    public var segments: Int
    /// Vertices drawn after simplification (in the first image).
    public var fixesDrawn: Int
    /// Distance over the cleaned fixes, metres.
    public var distanceM: Double
    /// First to last fix, seconds.
    public var durationS: Double?
    /// Climb, metres.
    public var elevationGainM: Double?
    /// Fixes read.
    public var fixes: Int
    /// Fixes kept after cleaning.
    public var fixesKept: Int
    /// The images, in the settings' order.
    public var images: [Image]
    /// What the basemap came to over all images (tiles summed, the first image's zoom, the
    /// attribution); nil on the grid.
    public var basemap: Basemap?
    /// Set when map tiles that exist could not be had (`basemap.tiles_failed`: offline, a
    /// locked file, a server outage, an unreadable tile): why, in a few words. The images are
    /// published (still useful) but not reused from the cache; the next run draws them again.
    /// Nil when complete (tiles absent by design, outside the source's coverage, do not count).
    public var incomplete: String?

    enum CodingKeys: String, CodingKey {
        case id, name, format, fixes, images, activity, bbox, segments, basemap, incomplete
        case startTime = "start_time"
        case utcOffsetRecordedS = "utc_offset_recorded_s"
        case endTime = "end_time"
        case movingTimeS = "moving_time_s"
        case movingDistanceM = "moving_distance_m"
        case startLonLat = "start_lon_lat"
        case fixesDrawn = "fixes_drawn"
        case distanceM = "distance_m"
        case durationS = "duration_s"
        case elevationGainM = "elevation_gain_m"
        case fixesKept = "fixes_kept"
    }

    /// A record of the fields every render has; the optional ones are set after.
    public init(
        key: CacheKey, format: String, bbox: [Double], startLonLat: [Double], segments: Int, fixesDrawn: Int, distanceM: Double, fixes: Int,
        fixesKept: Int, images: [Image]
    ) {
        id = key.hex
        self.format = format
        self.bbox = bbox
        self.startLonLat = startLonLat
        self.segments = segments
        self.fixesDrawn = fixesDrawn
        self.distanceM = distanceM
        self.fixes = fixes
        self.fixesKept = fixesKept
        self.images = images
    }

    /// Sorted-key JSON.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }

    /// Parses a record; nil when the bytes are not one.
    public static func parse(_ bytes: [UInt8]) -> TrackRecord? {
        try? JSONDecoder().decode(TrackRecord.self, from: Data(bytes))
    }
}

/// What `<key>.incomplete.json` holds: why the key's images lack map tiles (for a person reading
/// the folder; the run only checks that the file exists).
struct IncompleteMarker: Encodable {
    var cause: String
    var tilesFailed: Int

    enum CodingKeys: String, CodingKey {
        case cause
        case tilesFailed = "tiles_failed"
    }

    func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }
}
