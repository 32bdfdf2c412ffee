import BatchRun
import FileStore
import HistoryListing

/// `tracksnap overview`: a poster-size heat map of the site's tracks (issue 25), for a region, a
/// year, or the whole archive.
enum OverviewCommand {
    /// `overview`'s declaration: its options, their help, and where each value goes.
    static var table: CommandTable<OverviewArguments> {
        CommandTable(
            name: "overview", summary: "Draw one heat map of the site's tracks as a poster-size PNG.", operands: .none(),
            options: [
                .text("--output", value: "DIR", help: "the site folder whose tracks are drawn (as 'run' wrote it)", into: \.request.siteDirectory),
                .text("--poster", value: "FILE.png", help: "the PNG to write", into: \.posterPath),
                .custom(
                    "--region", value: "W,S,E,N",
                    help: "only tracks that touch this box (degrees: west, south, east, north), framed on it",
                    default: { _ in "every track, framed on their extent" }, parse: parseRegion),
                .custom(
                    "--year", value: "YYYY",
                    help: "only tracks the listing files under this year (their start's local time; the file time without times)",
                    default: { _ in "every year" }, parse: parseYear),
                .custom(
                    "--size", value: "WxH",
                    help: "picture size in points (the sides swap for a frame taller than wide); at most 64 megapixels after --scale",
                    default: { "\($0.request.widthPoints)x\($0.request.heightPoints)" }, parse: parseSize),
                .number("--scale", value: "S", in: 0.5...4, help: "device pixels per point", into: \.request.scale),
            ] + basemapOptions,
            description: """
                Counts, for every pixel, how many of the site's tracks pass through it (each track once,
                however long it stayed) and draws the counts on a log-like colour ramp over the map-paper
                grid, or with --basemap over that map (faded, so the ramp reads over it) with its
                attribution, as the site's overview page does, at a size for printing; the map may read
                at most 4096 tiles from a file (a 64-megapixel poster reads about 1000-2000) and 512
                from a tile server (whose usage policy forbids bulk downloads). It reads the site's
                index.json and each track's kept route from its record (no track file is read), writes
                FILE.png atomically and changes nothing in the site. Tracks rendered before the overview
                existed have no kept route and are counted as missing.
                """,
            defaults: OverviewArguments(), finish: { arguments, _ in try finish(arguments) })
    }

    /// `run`'s basemap options, their help told for a poster (`posterHelp`).
    private static var basemapOptions: [CommandOption<OverviewArguments>] {
        let light = "the built-in style for the tiles' schema (OpenMapTiles or Protomaps), light"
        let chosen = BasemapChoice.sourceOptions.map { option in
            let told = posterHelp[option.longName].map(option.withHelp) ?? option
            return told.longName == "--map-style" ? told.withDefault(light) : told
        }
        return (chosen + BasemapChoice.fetchOptions(tileCacheDefault: BasemapChoice.userTileCache())).map { $0.lifted(\.basemap) }
    }

    /// The basemap options' help where the poster differs from `run`: it keys no image and
    /// writes no page.
    private static let posterHelp = [
        "--basemap": """
        draw the map under the heat map, faded so the colour ramp reads over it, with its attribution: an .mbtiles or \
        .pmtiles file of raster or vector tiles, a folder of {z}/{x}/{y} tiles, an http(s) URL template or the URL of a \
        .pmtiles archive, as for 'run' (the site's own overview has the runs' --basemap under it). Where the source has \
        no tile the grid shows; tiles that could not be read are named in a warning. 'none' draws the grid
        """,
        "--attribution": #"the credit drawn in the bottom-right corner ("" for none, only where the licence allows it)"#,
        "--map-style": "the MapLibre style (JSON) a vector basemap is drawn with: its background, fill and line layers (docs/vector-maps.md)",
    ]

    /// Draws the poster and writes it.
    static func run(_ request: OverviewRequest) throws -> ExitStatus {
        let poster: OverviewPoster.Poster
        do {
            poster = try OverviewPoster.draw(request.poster)
        } catch {
            throw UsageError(message: error.description)
        }
        do {
            try FileStore.writeAtomically(poster.png, to: request.posterPath)
        } catch {
            throw OutputFileError(path: request.posterPath, error: error)
        }
        for problem in poster.mapProblems { StandardError.write("tracksnap: overview: warning: \(problem)\n") }
        let missing = poster.tracksWithoutRoute > 0 ? "; \(poster.tracksWithoutRoute) matching track(s) have no kept route" : ""
        print("\(request.posterPath): \(poster.trackCount) track(s), \(poster.widthPixels)x\(poster.heightPixels) pixels\(missing)")
        return .success
    }

    private static func finish(_ arguments: OverviewArguments) throws -> Command {
        var poster = arguments.request
        poster.year = arguments.year
        let pixels = Double(poster.widthPoints) * Double(poster.heightPoints) * poster.scale * poster.scale
        guard pixels <= Double(OverviewPoster.maximumPixels) else {
            throw UsageError(message: "--size and --scale ask for \(Int(pixels / 1_048_576)) megapixels; at most 64")
        }
        if let settings = try arguments.basemap.resolve(over: nil) {
            var opener = arguments.basemap.opener(fallbackCache: BasemapChoice.userTileCache(), version: TrackSnapVersion.string)
            // One poster is one image of up to `OverviewPoster.maximumRemoteMapTiles` tiles, asked
            // for once, by hand: a run's 15 s an image would leave most of a cold poster to the
            // grid. Ten minutes lets a tile server's 512 tiles arrive at its polite pace.
            opener.imageDeadlineSeconds = 600
            try BasemapChoice.check(settings, opener: opener)
            // Its problems come back with the poster (`mapProblems`), printed once below.
            poster.basemap = OverviewMap(settings: settings, opener: opener) { _ in }
        }
        return .overview(OverviewRequest(poster: poster, posterPath: arguments.posterPath))
    }

    private static func parseRegion(_ arguments: inout OverviewArguments, text: String, spelling: String) throws {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0).filter { $0 != " " }) }
        guard numbers.count == 4, let west = numbers[0], let south = numbers[1], let east = numbers[2], let north = numbers[3],
            (-180...180).contains(west), (-180...180).contains(east), west < east, (-85...85).contains(south), (-85...85).contains(north),
            south < north
        else {
            throw UsageError(
                message: "\(spelling) expects W,S,E,N in degrees (west < east within ±180, south < north within ±85), found '\(text)'")
        }
        arguments.request.regionLonLat = [west, south, east, north]
    }

    private static func parseYear(_ arguments: inout OverviewArguments, text: String, spelling: String) throws {
        guard let year = Int(text), (1990...2100).contains(year) else {
            throw UsageError(message: "\(spelling) expects a year between 1990 and 2100, found '\(text)'")
        }
        arguments.year = year
    }

    private static func parseSize(_ arguments: inout OverviewArguments, text: String, spelling: String) throws {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (16...16_384).contains(width), (16...16_384).contains(height)
        else {
            throw UsageError(message: "\(spelling) expects WIDTHxHEIGHT in points, each 16...16384, e.g. 3000x2000, found '\(text)'")
        }
        arguments.request.widthPoints = width
        arguments.request.heightPoints = height
    }
}

/// What `overview`'s options fill in.
struct OverviewArguments {
    /// The poster's settings.
    var request = OverviewPoster.Request()
    /// `--poster`.
    var posterPath = "overview-poster.png"
    /// `--year`.
    var year: Int?
    /// `--basemap`, `--map-style` and the other basemap options: the map under the poster.
    var basemap = BasemapChoice()
}

/// `tracksnap overview`, parsed.
struct OverviewRequest {
    /// What to draw.
    var poster: OverviewPoster.Request
    /// Where to write it.
    var posterPath: String
}
