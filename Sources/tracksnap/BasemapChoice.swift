#if canImport(Glibc)
import Glibc
#endif
import BatchRun
import FileStore
import MapStyle
import MapTiles
import SnapshotRendering
import TileSources

/// `--basemap SOURCE|none`, `--basemap-opacity X`, `--attribution TEXT`, `--map-style FILE`,
/// `--tile-cache DIR` and `--offline`, shared by `render`, `run` and `listing`. Given over the style file's
/// `basemap`, they win.
struct BasemapChoice {
    /// `--basemap`: a source, or "none" to draw the grid whatever the style says.
    var source: String?
    /// `--basemap-opacity`: wins over the style's opacity.
    var opacity: Double?
    /// `--attribution`: wins over the style's and the MBTiles metadata's.
    var attribution: String?
    /// `--tile-cache`: where URL tiles are kept.
    var tileCache: String?
    /// `--offline`: only tiles already cached.
    var offline = false
    /// `--map-style`: the MapLibre style file a vector basemap is drawn with.
    var mapStyleFile: String?

    /// Whether an option that changes the images was given (`--tile-cache` and `--offline` do not).
    var givesSettings: Bool { source != nil || opacity != nil || attribution != nil || mapStyleFile != nil }

    /// The options that choose the map and so the images: `--basemap`, `--basemap-opacity`,
    /// `--attribution` and `--map-style` (part of the cache key).
    static var sourceOptions: [CommandOption<BasemapChoice>] {
        [
            .text(
                "--basemap", value: "SOURCE",
                help: """
                    draw a map under the route instead of the bare grid: an .mbtiles or .pmtiles file of raster (PNG/JPEG) or vector \
                    (pbf) tiles, a folder of {z}/{x}/{y}.png|jpg|pbf tiles, an http(s) URL template with {z}, {x} and {y} (.pbf for \
                    vector tiles; {-y} for TMS, {s} for subdomains a, b, c or \
                    the style's "subdomains"), or the http(s) URL of a .pmtiles archive (read by range requests, cached like \
                    URL tiles); a server that hangs costs each image a bounded time, and after 3 failed requests in a row \
                    it is not asked again in the run. 'none' draws the grid whatever the style says. Where the source has no tile \
                    (outside its zoom range or bounds, or a tile that cannot be read) the grid shows; the reason is in the render info. \
                    Part of the cache key, with the file's size and modification time (a remote .pmtiles archive's ETag and header).
                    """,
                default: "none", into: \.source),
            .number(
                "--basemap-opacity", value: "X", in: 0...1, help: "the map's opacity over the grid",
                default: CommandOption<BasemapChoice>.decimal(BasemapSettings(source: "").opacity), into: \.opacity),
            .text(
                "--attribution", value: "TEXT",
                help: """
                    the credit drawn in the bottom-right corner ("" for none, only where the licence allows it); also written to \
                    index.json and the pages
                    """,
                default: "the source's own (MBTiles or PMTiles metadata; for vector tiles without one, the credit their schema calls for)",
                into: \.attribution),
            .text(
                "--map-style", value: "FILE",
                help: """
                    the MapLibre style (JSON) a vector basemap is drawn with: its background, fill and line layers; labels are not \
                    drawn. Its content is part of the cache key (docs/vector-maps.md)
                    """,
                default: "the built-in style for the tiles' schema (OpenMapTiles or Protomaps), light or dark with the theme",
                into: \.mapStyleFile),
        ]
    }

    /// The options that say how tiles are fetched, not what is drawn: `--tile-cache` (whose
    /// default `tileCacheDefault` describes) and `--offline`.
    static func fetchOptions(tileCacheDefault: String) -> [CommandOption<BasemapChoice>] {
        [
            .text("--tile-cache", value: "DIR", help: "where URL tiles are kept on disk", default: tileCacheDefault, into: \.tileCache),
            .flag("--offline", help: "use only tiles already in the tile cache; never fetch", sets: \.offline),
        ]
    }

    /// The style's basemap with these options over it; nil for the grid.
    func resolve(over styled: BasemapSettings?) throws -> BasemapSettings? {
        if source == "none" {
            if mapStyleFile != nil { throw UsageError(message: "--map-style draws a vector basemap; --basemap none draws none") }
            return nil
        }
        var settings = styled
        if let source { settings = BasemapSettings(source: source, keeping: styled) }
        guard var settings else {
            if opacity != nil || attribution != nil || offline || mapStyleFile != nil {
                throw UsageError(
                    message:
                        "--basemap-opacity, --attribution, --map-style and --offline need a basemap (--basemap SOURCE or the style's \"basemap\")"
                )
            }
            return nil
        }
        if let opacity { settings.opacity = opacity }
        if let attribution { settings.attribution = attribution }
        if let mapStyleFile { settings.mapStyle = try Self.readMapStyle(mapStyleFile, option: "--map-style") }
        if let problem = settings.validationProblem() { throw UsageError(message: problem) }
        // The content stamp is the library's to take (RunConfiguration.stampingBasemap).
        return settings
    }

    /// The text of the map style at `path`, checked by reading it as a MapLibre style, so a bad
    /// style fails before any track is drawn; the message names the file and the key path, after
    /// `option` when given (the style file's reader names its own key).
    static func readMapStyle(_ path: String, option: String?) throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try FileStore.readFile(path, maximumBytes: 4 << 20)
        } catch {
            throw UsageError(message: (option.map { $0 + ": " } ?? "") + "\(error)")
        }
        let document: MapStyleDocument
        do {
            document = try MapStyleDocument(bytes: bytes)
        } catch {
            throw UsageError(message: (option.map { $0 + " " } ?? "") + "'\(path)': \(error)")
        }
        // What the style has that is not drawn, said once at start (the render info has no room
        // for a style's notes on every image).
        for warning in document.warnings { StandardError.write("tracksnap: warning: map style '\(path)': \(warning)\n") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The opener for these options (`render`); URL tiles are cached in `--tile-cache`, else `fallbackCache`.
    func opener(fallbackCache: String, version: String) -> BasemapOpener {
        var opener = BasemapOpener(tileCacheDirectory: tileCache ?? fallbackCache)
        opener.offline = offline
        opener.version = version
        return opener
    }

    /// Opens the source once to check it (the file exists, is an MBTiles or PMTiles file of a tile
    /// format TrackSnap reads, the template is well formed), so a bad `--basemap` fails before any
    /// track is read.
    static func check(_ settings: BasemapSettings, opener: BasemapOpener) throws {
        do {
            _ = try opener.openSource(settings)
        } catch  where error.isTemporary {
            // Locked by a writer: nothing is wrong with the command, it may work in a minute.
            throw error
        } catch {
            throw UsageError(message: "--basemap: \(error)")
        }
    }

    /// Resolves over a configuration's style (these options win) and, when `checking`, opens
    /// the source once so a bad one fails before the run starts.
    func apply(to configuration: inout RunConfiguration, checking: Bool) throws {
        let settings = try resolve(over: configuration.settings.options.basemap)
        configuration.settings.options.basemap = settings
        if let tileCache { configuration.tileCacheDirectory = tileCache }
        configuration.offlineTiles = offline
        if checking, let settings { try Self.check(settings, opener: configuration.makeBasemapOpener()) }
    }

    /// Where `render` caches URL tiles: `$XDG_CACHE_HOME/tracksnap/tiles`, else
    /// `~/.cache/tracksnap/tiles`, else `/tmp/tracksnap-tiles`.
    static func userTileCache() -> String {
        if let cache = environment("XDG_CACHE_HOME"), !cache.isEmpty { return cache + "/tracksnap/tiles" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.cache/tracksnap/tiles" }
        return "/tmp/tracksnap-tiles"
    }

    private static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}

extension BasemapSettings {
    /// A new source with the other settings (opacity, attribution, overzoom) of `styled`.
    init(source: String, keeping styled: BasemapSettings?) {
        self.init(source: source)
        if let styled {
            opacity = styled.opacity
            attribution = styled.attribution
            maximumOverzoomLevels = styled.maximumOverzoomLevels
            subdomains = styled.subdomains
            mapStyle = styled.mapStyle
        }
    }
}
