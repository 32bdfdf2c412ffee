import MapTiles
import SnapshotRendering
import TileSources

/// `tracksnap render` with its options.
struct RenderRequest {
    /// The track file.
    var input = ""
    /// `-o`: the PNG to write.
    var output = ""
    /// What is drawn, and the decoding limits.
    var options = RenderOptions()
    /// `--info`: print the render's description.
    var printsInfo = false
    /// Opens `options.basemap`'s tiles (nil without a basemap).
    var basemapOpener: BasemapOpener?
}

/// What `render`'s options fill in before they are checked together.
struct RenderArguments {
    /// The request, with the options that go straight into it.
    var request = RenderRequest()
    /// The track file.
    var input: String?
    /// `--style`, `--theme`, `--color-by`: the style file's look under the options.
    var style = StyleChoice()
    /// The basemap options, over the style file's basemap.
    var basemap = BasemapChoice()
    /// `--padding`: wins over the style file's padding.
    var padding: Double?
}

extension RenderCommand {
    /// `render`'s declaration: its options, their help, and where each value goes.
    static var table: CommandTable<RenderArguments> {
        CommandTable(
            name: "render", summary: "Draw one track file as a PNG map snapshot.", forms: ["INPUT"],
            operands: .one("input file", into: \.input, missing: "render needs an input track file"),
            options: options,
            description: """
                Reads INPUT, drops bad fixes, fits a padded Web-Mercator view to the track, simplifies it
                to within half a pixel, draws it on a map-paper grid and writes OUTPUT.png atomically
                (a temporary file renamed into place; nothing is written when the input is bad).
                """,
            defaults: RenderArguments(), finish: { arguments, _ in try finish(arguments) })
    }

    /// `render`'s options in the order the usage and the help show them.
    private static var options: [CommandOption<RenderArguments>] {
        var options: [CommandOption<RenderArguments>] = [
            CommandOption.text("-o", "--output", value: "OUTPUT.png", help: "the PNG to write", into: \.request.output).withRole(.required),
            .custom(
                "--size", value: "WxH",
                help: "image size in points: 16...8192 each, and at most 64 megapixels after --scale (8000x8000 at @1x, 4000x4000 at @2x)",
                default: { "\($0.request.options.widthPoints)x\($0.request.options.heightPoints)" }, parse: parseSize),
            .number("--scale", value: "S", in: 0.5...4, help: "device pixels per point: 1 for @1x, 2 for @2x", into: \.request.options.scale),
            .number(
                "--padding", value: "F", help: "empty margin on each side as a fraction of the frame, at least 0 and under 0.45",
                default: CommandOption<RenderArguments>.decimal(RenderOptions().paddingFraction), into: \.padding),
        ]
        options += StyleChoice.options.map { $0.lifted(\.style) }
        options.append(
            .integer(
                "--memory-limit", value: "MB", in: memoryLimitMebibytes, unit: "MiB",
                help: """
                    the memory ceiling: a track whose input, decompressed text and fixes (~100 bytes each) would need more is \
                    refused (exit 65, "per-job memory limit")
                    """,
                into: \.request.options.limits.maximumMemoryBytes, multiplier: 1 << 20))
        options += BasemapChoice.sourceOptions.map { $0.lifted(\.basemap) }
        let userCache = "$XDG_CACHE_HOME/tracksnap/tiles, else ~/.cache/tracksnap/tiles"
        options += BasemapChoice.fetchOptions(tileCacheDefault: userCache).map { $0.lifted(\.basemap) }
        options.append(
            .flag(
                "--info",
                help: """
                    print one JSON object describing the render on stdout: format, fixes, fixes_kept, segments, vertices_drawn, \
                    distance_m, duration_s, width, height, stroke_width_px, viewport_epsg3857 ([minX, minY, maxX, maxY], metres: \
                    the exact map rect shown), and name, dropped, elevation_gain_m, start_time, scale, and with a basemap: basemap \
                    {zoom, tiles, tiles_absent, tiles_failed, attribution, problems}
                    """,
                sets: \.request.printsInfo))
        return options
    }

    /// `--size WxH`, in points (the renderer checks the range).
    private static func parseSize(_ arguments: inout RenderArguments, text: String, spelling: String) throws {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw UsageError(message: "\(spelling) expects WIDTHxHEIGHT in points, e.g. 512x512, found '\(text)'")
        }
        arguments.request.options.widthPoints = width
        arguments.request.options.heightPoints = height
    }

    /// `--memory-limit`'s range in MiB, for `render` and `run` alike.
    static let memoryLimitMebibytes = 64...1_048_576

    /// The style file under the options, the basemap checked once, the options validated together.
    private static func finish(_ arguments: RenderArguments) throws -> Command {
        var request = arguments.request
        let style = arguments.style, basemap = arguments.basemap
        var styledBasemap: BasemapSettings?
        if !style.isEmpty {
            // The style file's look, padding, span and basemap; size and scale come from --size/--scale.
            let settings = try style.resolve()
            request.options.style = settings.options.style
            request.options.paddingFraction = settings.options.paddingFraction
            request.options.minimumGroundSpanMeters = settings.options.minimumGroundSpanMeters
            styledBasemap = settings.options.basemap
        }
        if let padding = arguments.padding { request.options.paddingFraction = padding }
        request.options.basemap = try basemap.resolve(over: styledBasemap)
        if let settings = request.options.basemap {
            let opener = basemap.opener(fallbackCache: BasemapChoice.userTileCache(), version: TrackSnapVersion.string)
            try BasemapChoice.check(settings, opener: opener)
            request.basemapOpener = opener
        }
        if let problem = request.options.validationProblem() { throw UsageError(message: problem) }
        request.input = arguments.input ?? ""
        return .render(request)
    }
}
