#if canImport(Glibc)
import Glibc
#endif
import BatchRun
import FileStore
import MapTiles
import SnapshotRendering
import TileSources

/// `--basemap SOURCE|none`, `--basemap-opacity X`, `--attribution TEXT`, `--tile-cache DIR` and
/// `--offline`, shared by `render`, `run` and `listing`. Given over the style file's
/// `basemap`, they win.
struct BasemapChoice {
    /// `--basemap`: a source, or "none" to draw the grid whatever the style says.
    var source: String?
    var opacity: Double?
    var attribution: String?
    var tileCache: String?
    var offline = false

    /// Whether an option that changes the images was given (`--tile-cache` and `--offline` do not).
    var givesSettings: Bool { source != nil || opacity != nil || attribution != nil }

    /// Consumes a basemap option; false when `argument` is not one.
    mutating func parse(_ argument: String, _ scanner: inout ArgumentScanner) throws -> Bool {
        switch argument {
        case "--basemap": source = try scanner.value()
        case "--basemap-opacity": opacity = try scanner.number("an opacity from 0 to 1", range: 0...1)
        case "--attribution": attribution = try scanner.value()
        case "--tile-cache": tileCache = try scanner.value()
        case "--offline": offline = true
        default: return false
        }
        return true
    }

    /// The style's basemap with these options over it; nil for the grid.
    func resolve(over styled: BasemapSettings?) throws -> BasemapSettings? {
        if source == "none" { return nil }
        var settings = styled
        if let source { settings = BasemapSettings(source: source, keeping: styled) }
        guard var settings else {
            if opacity != nil || attribution != nil || offline {
                throw UsageError(
                    message: "--basemap-opacity, --attribution and --offline need a basemap (--basemap SOURCE or the style's \"basemap\")")
            }
            return nil
        }
        if let opacity { settings.opacity = opacity }
        if let attribution { settings.attribution = attribution }
        if let problem = settings.validationProblem() { throw UsageError(message: problem) }
        // The content stamp is the library's to take (RunConfiguration.stampingBasemap).
        return settings
    }

    /// The opener for these options (`render`); URL tiles are cached in `--tile-cache`, else `fallbackCache`.
    func opener(fallbackCache: String, version: String) -> BasemapOpener {
        var opener = BasemapOpener(tileCacheDirectory: tileCache ?? fallbackCache)
        opener.offline = offline
        opener.version = version
        return opener
    }

    /// Opens the source once to check it (the file exists, is an MBTiles of raster tiles, the
    /// template is well formed), so a bad `--basemap` fails before any track is read.
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
        }
    }
}
