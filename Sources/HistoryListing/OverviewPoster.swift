#if canImport(Glibc)
import Glibc
#endif
import ArchiveOverview
import ContentHash
import FileStore
import JSONDocument
import MapGeometry
import ThumbnailCache

/// `tracksnap overview`: one heat map of the site's tracks at a size of the user's choosing (a
/// poster, for printing), for a region, a year, or both. It reads what the site lists
/// (`index.json` and its parts) and each track's kept route from its record, so it needs no
/// track file and changes nothing in the site.
package struct OverviewPoster {
    /// What to draw.
    package struct Request: Sendable {
        /// The site folder (`run --output`).
        package var siteDirectory = "Output"
        /// West, south, east, north in degrees: only tracks that touch it, framed on it; nil for
        /// every track, framed on their extent. Default: nil.
        package var regionLonLat: [Double]?
        /// Only tracks the listing files under this year (the year of their start in local time, as
        /// the year pages; of the file time for tracks without times). Default: nil.
        package var year: Int?
        /// Width and height in points (swapped for a frame taller than wide). Default: 3000×2000.
        package var widthPoints = 3000
        /// See `widthPoints`. Default: 2000.
        package var heightPoints = 2000
        /// Device pixels per point. Default: 1.
        package var scale = 1.0
        /// The map drawn under the heat map, with its attribution; nil: the grid paper. Default: nil.
        package var basemap: (any OverviewBasemap)?

        /// A request with the defaults.
        package init() {}
    }

    /// The most pixels a poster may have: 64 megapixels (the counts take 4 bytes a pixel).
    package static let maximumPixels = 64 << 20
    /// The most tiles the map under a poster may read from a file or folder: 4,096. A
    /// 64-megapixel poster of 256-pixel tiles reads about 1,000–2,000 (its pixels over a tile's
    /// 65,536, up to twice that between zooms), so this stops only sources of smaller tiles, whose
    /// decoded tiles would pass a gigabyte.
    package static let maximumMapTiles = 4_096
    /// The most tiles the map under a poster may fetch over the network: 512, a poster of
    /// 16–32 megapixels. Tile servers' usage policies (OpenStreetMap's among them) forbid bulk
    /// downloads, and a 64-megapixel poster is a city's worth of tiles; draw larger posters from
    /// a local MBTiles or PMTiles file.
    package static let maximumRemoteMapTiles = 512

    /// The picture drawn and what went into it.
    package struct Poster {
        /// The PNG's bytes.
        package var png: [UInt8]
        /// Tracks drawn.
        package var trackCount: Int
        /// Tracks listed that matched the year and region but have no kept route (rendered before
        /// the overview existed: a run after `tracksnap forget` + `enqueue` draws them again).
        package var tracksWithoutRoute: Int
        /// The picture's size in device pixels.
        package var widthPixels: Int, heightPixels: Int
        /// Why part of the map is missing (`OverviewMapPicture.problems`); empty without a map.
        package var mapProblems: [String] = []
    }

    /// Why no poster could be drawn.
    package struct Problem: Error, CustomStringConvertible {
        /// What went wrong, naming the file.
        package var description: String
    }

    /// Draws the poster `request` asks for.
    package static func draw(_ request: Request) throws(Problem) -> Poster {
        let listed = try listedTracks(request.siteDirectory)
        // Only records are read: the store's image list and settings fingerprint do not matter.
        var records = RecordReader(store: ThumbnailStore(root: request.siteDirectory, images: [], fingerprint: SHA256.hash("")))
        let region = request.regionLonLat.map(Self.mapRect)
        var routes: [OverviewRoute] = []
        var withoutRoute = 0
        for (id, year) in listed {
            if let wanted = request.year, year != wanted { continue }
            guard records.record(id) != nil else { continue }
            guard let route = records.route(id) else {
                withoutRoute += 1
                continue
            }
            if let region, !Self.intersects(route.bounds, region) { continue }
            routes.append(route)
        }
        guard let first = routes.first else {
            throw Problem(
                description: "no track of the site in '\(request.siteDirectory)' matches"
                    + (withoutRoute > 0 ? " (\(withoutRoute) listed track(s) have no kept route yet)" : ""))
        }
        var options = OverviewOptions()
        options.widthPoints = request.widthPoints
        options.heightPoints = request.heightPoints
        options.scales = [request.scale]
        // The size is the user's: never grown to street scale, never past the pixel limit.
        options.streetMetersPerPoint = .greatestFiniteMagnitude
        options.maximumStateBytes = Self.maximumPixels * 4
        let bounds = region ?? routes.dropFirst().reduce(first.bounds) { union($0, $1.bounds) }
        var overview = RegionOverview(frame: RegionFrame(fitting: bounds, options: options), scales: [request.scale])
        for route in routes { overview.add(route) }
        let viewport = overview.frame.viewport(scale: request.scale)
        if let basemap = request.basemap, let tiles = basemap.tileCount(viewport: viewport, labelScale: request.scale) {
            let limit = basemap.readsOverNetwork ? maximumRemoteMapTiles : maximumMapTiles
            guard tiles <= limit else {
                let remote = basemap.readsOverNetwork ? " from a tile server (a local .mbtiles or .pmtiles file allows \(maximumMapTiles))" : ""
                throw Problem(
                    description:
                        "the map under a \(viewport.widthPixels)x\(viewport.heightPixels)-pixel poster would read \(tiles) tiles; at most \(limit)\(remote): ask for a smaller --size (or --scale, over a raster map: a vector map reads the @1x poster's tiles)"
                )
            }
        }
        var poster = Poster(
            png: [], trackCount: routes.count, tracksWithoutRoute: withoutRoute, widthPixels: viewport.widthPixels,
            heightPixels: viewport.heightPixels)
        do {
            if let basemap = request.basemap {
                (poster.png, poster.mapProblems) = try overview.png(scaleIndex: 0, labelScale: request.scale, basemap: basemap)
            } else {
                poster.png = try overview.png(scaleIndex: 0)
            }
        } catch {
            throw Problem(description: "the poster could not be encoded: \(error)")
        }
        return poster
    }

    /// The tracks `index.json` lists, through its parts: each id with the year of the month the
    /// listing files it under (`ListingTrack.month`), so `--year` takes what the year's page shows.
    static func listedTracks(_ site: String) throws(Problem) -> [(id: String, year: Int)] {
        func read(_ relative: String) throws(Problem) -> JSONValue {
            let path = site + "/" + relative
            do {
                return try JSONValue.parse(try FileStore.readFile(path))
            } catch {
                throw Problem(description: "'\(path)' could not be read as the site's JSON (run `tracksnap run` or `listing` first): \(error)")
            }
        }
        let indexPath = site + "/index.json"
        let indexBytes: [UInt8]
        do {
            indexBytes = try FileStore.readFile(indexPath)
        } catch {
            throw Problem(description: "'\(indexPath)' could not be read as the site's JSON (run `tracksnap run` or `listing` first): \(error)")
        }
        guard let parts = IndexDocument.partPaths(inIndex: indexBytes) else {
            throw Problem(
                description:
                    "'\(indexPath)' is not a TrackSnap index: expected JSON whose \"parts\" lists the parts (version 3) or counts them with a \"part_path\" (version 4)"
            )
        }
        var tracks: [(id: String, year: Int)] = []
        for path in parts {
            for track in try read(path).object?["tracks"]?.array ?? [] {
                guard let fields = track.object, let id = fields["id"]?.string, let sortTime = fields["sort_time"]?.number else { continue }
                // The year of the month the listing files the track under (its year page's).
                let month = ListingTrack.month(
                    sortTime: sortTime, hasStartTime: fields["start_time"]?.number != nil,
                    utcOffsetS: Int(fields["utc_offset_s"]?.number ?? 0))
                tracks.append((id, Int(month.prefix(4)) ?? 0))
            }
        }
        return tracks
    }

    /// West, south, east, north in degrees as a Web-Mercator rectangle.
    static func mapRect(_ lonLat: [Double]) -> MapRect {
        let southWest = WebMercator.project(latitudeDegrees: lonLat[1], longitudeDegrees: lonLat[0])
        let northEast = WebMercator.project(latitudeDegrees: lonLat[3], longitudeDegrees: lonLat[2])
        return MapRect(minX: southWest.xMeters, minY: southWest.yMeters, maxX: northEast.xMeters, maxY: northEast.yMeters)
    }

    /// Whether two rectangles share any point.
    static func intersects(_ a: MapRect, _ b: MapRect) -> Bool { a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY }
}
