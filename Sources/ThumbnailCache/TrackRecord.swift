import FoundationEssentials

/// What the listing knows about one rendered track: written once per cache key, after its
/// images, as `Output/.tracksnap/records/<key>.json`. Field names are index.json's keys.
package struct TrackRecord: Sendable, Equatable, Codable {
    /// One published image.
    package struct Image: Sendable, Equatable, Codable {
        /// Path relative to Output/, e.g. "thumbs/<key>@2x.png".
        package var path: String
        /// Width in pixels.
        package var width: Int
        /// Height in pixels.
        package var height: Int
        /// Device pixels per point.
        package var scale: Double
        /// "thumbnail" or "detail".
        package var role: String
        /// The exact map rect shown, [minX, minY, maxX, maxY] in EPSG:3857 metres.
        package var viewportEpsg3857: [Double]

        enum CodingKeys: String, CodingKey {
            case path, width, height, scale, role
            case viewportEpsg3857 = "viewport_epsg3857"
        }

        /// An image entry.
        package init(path: String, width: Int, height: Int, scale: Double, role: String, viewportEpsg3857: [Double]) {
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
    package struct Basemap: Sendable, Equatable, Codable {
        /// The zoom level of the tiles drawn; nil when none could be.
        package var zoom: Int?
        /// Tiles drawn.
        package var tiles: Int
        /// Tiles the source does not have there (its coverage ends).
        package var tilesAbsent: Int
        /// Tiles that could not be had (`problems` says why).
        package var tilesFailed: Int
        /// The attribution drawn, if any.
        package var attribution: String?
        /// Why tiles failed or nothing was drawn, one line each (at most 5).
        package var problems: [String]?
        /// "vector" for a vector map; nil (not encoded) for raster tiles.
        package var kind: String? = nil
        /// Vector maps: features drawn; nil for raster tiles.
        package var featuresDrawn: Int? = nil
        /// Vector maps: vertices of the features drawn; nil for raster tiles.
        package var verticesDrawn: Int? = nil
        /// Vector maps: the style's label layers, not drawn; nil for raster tiles.
        package var labelLayersSkipped: Int? = nil

        enum CodingKeys: String, CodingKey {
            case zoom, tiles, attribution, problems, kind
            case tilesAbsent = "tiles_absent"
            case tilesFailed = "tiles_failed"
            case featuresDrawn = "features_drawn"
            case verticesDrawn = "vertices_drawn"
            case labelLayersSkipped = "label_layers_skipped"
        }

        /// A basemap summary.
        package init(zoom: Int?, tiles: Int, tilesAbsent: Int, tilesFailed: Int, attribution: String?, problems: [String]?) {
            self.zoom = zoom
            self.tiles = tiles
            self.tilesAbsent = tilesAbsent
            self.tilesFailed = tilesFailed
            self.attribution = attribution
            self.problems = problems
        }
    }

    /// The cache key.
    package var id: String
    /// The track's name from the file, if any.
    package var name: String?
    /// The format read ("gpx", "csv", …).
    package var format: String
    /// The activity or sport the file records (GPX `type`, TCX, FIT, GeoJSON), if any.
    package var activity: String?
    /// The UTC offset written with the file's first time (seconds east), if the file records one.
    package var utcOffsetRecordedS: Int?
    /// First fix time, seconds since the Unix epoch, when the track has times.
    package var startTime: Double?
    /// Last fix time, seconds since the Unix epoch, when the track has times.
    package var endTime: Double?
    /// Time spent moving, seconds.
    package var movingTimeS: Double?
    /// Distance covered while moving, metres.
    package var movingDistanceM: Double?
    /// `[west, south, east, north]` in degrees (GeoJSON order; west > east across the antimeridian).
    package var bbox: [Double]
    /// The first fix, `[longitude, latitude]`.
    package var startLonLat: [Double]
    /// Segments drawn.
    package var segments: Int
    /// Vertices drawn after simplification (in the first image).
    package var fixesDrawn: Int
    /// Distance over the cleaned fixes, metres.
    package var distanceM: Double
    /// First to last fix, seconds.
    package var durationS: Double?
    /// Climb, metres.
    package var elevationGainM: Double?
    /// Fixes read.
    package var fixes: Int
    /// Fixes kept after cleaning.
    package var fixesKept: Int
    /// The images, in the settings' order.
    package var images: [Image]
    /// What the basemap came to over all images (tiles summed, the first image's zoom, the
    /// attribution); nil on the grid.
    package var basemap: Basemap?
    /// Set when map tiles that exist could not be had (`basemap.tiles_failed`: offline, a
    /// locked file, a server outage, an unreadable tile): why, in a few words. The images are
    /// published (still useful) but not reused from the cache; the next run draws them again.
    /// Nil when complete (tiles absent by design, outside the source's coverage, do not count).
    package var incomplete: String?
    /// The route the archive overview draws (`ArchiveOverview` `RouteCoding` text: Mercator
    /// decimetres, simplified); nil in records written before the overview, whose tracks it
    /// leaves out until they are rendered again. Not part of index.json.
    package var overviewRoute: String?

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
        case overviewRoute = "overview_route"
    }

    /// A record of the fields every render has; the optional ones are set after.
    package init(
        key: CacheKey, format: String, bbox: [Double], startLonLat: [Double], segments: Int, fixesDrawn: Int, distanceM: Double, fixes: Int,
        fixesKept: Int, images: [Image]
    ) {
        self.init(
            id: key.hex, format: format, bbox: bbox, startLonLat: startLonLat, segments: segments, fixesDrawn: fixesDrawn, distanceM: distanceM,
            fixes: fixes, fixesKept: fixesKept, images: images)
    }

    /// A record of the fields every render has, under the id as written (a parsed record keeps
    /// what it holds, even when that is not a key's 64 hex digits).
    package init(
        id: String, format: String, bbox: [Double], startLonLat: [Double], segments: Int, fixesDrawn: Int, distanceM: Double, fixes: Int,
        fixesKept: Int, images: [Image]
    ) {
        self.id = id
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
    package func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
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
