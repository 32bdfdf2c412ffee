import FileStore
import MapTiles

/// Opens what `--basemap` or the style's `basemap.source` names: an http(s) URL template, the
/// URL of a PMTiles archive (no `{z}` fields, a path ending in `.pmtiles`: read by range
/// requests), a folder of `{z}/{x}/{y}` tiles, an MBTiles file or a PMTiles archive (told by its
/// first bytes), of raster or vector tiles.
package struct BasemapOpener: Sendable {
    /// Where URL tiles are cached on disk.
    package var tileCacheDirectory: String
    /// Use only the disk cache for URL tiles (`--offline`).
    package var offline = false
    /// TrackSnap's version, for the User-Agent.
    package var version = ""
    /// Decoded tiles kept per worker, bytes. Default: 128 MiB.
    package var memoryCacheBytes = 128 << 20
    /// Seconds one image may spend on tiles, from any source. Default: 15 (`run` takes it from
    /// the job timeout).
    package var imageDeadlineSeconds = 15.0
    /// Seconds all images of one track may spend on tiles: four image deadlines. `run` gives an
    /// image an eighth of the job timeout, so a track's tiles take at most half of it however
    /// many images the style has.
    package var trackDeadlineSeconds: Double { imageDeadlineSeconds * 4 }
    /// Seconds one tile request may take. Default: 10.
    package var requestTimeoutSeconds = 10.0

    /// An opener caching URL tiles in `tileCacheDirectory`.
    package init(tileCacheDirectory: String) {
        self.tileCacheDirectory = tileCacheDirectory
    }

    /// Whether `source` is meant as a URL template (any scheme, any case: `HTTP://…` and
    /// `ftp://…` are checked as templates and explained, not looked up as files).
    package static func isURL(_ source: String) -> Bool { TileURLTemplate.looksLikeURL(source) }

    /// `source` as it may be shown or stored: a URL without credentials or query values.
    package static func displayName(_ source: String) -> String { TileURLTemplate.redact(source) }

    /// The raw source `settings` name; throws a message naming the source and the problem.
    package func openSource(_ settings: BasemapSettings) throws(TileProblem) -> any RawTileSource {
        let source = settings.source
        if TileURLTemplate.isArchiveURL(source) {
            let archive = try RemotePMTilesSource(
                url: source, cacheDirectory: tileCacheDirectory, offline: offline, version: version,
                requestTimeoutSeconds: min(requestTimeoutSeconds, imageDeadlineSeconds))
            archive.budget.imageSeconds = imageDeadlineSeconds
            return archive
        }
        if Self.isURL(source) {
            let tiles = try URLTileSource(
                template: source, cacheDirectory: tileCacheDirectory, offline: offline, version: version, subdomains: settings.subdomains)
            tiles.imageDeadlineSeconds = imageDeadlineSeconds
            tiles.requestTimeoutSeconds = min(requestTimeoutSeconds, imageDeadlineSeconds)
            return tiles
        }
        let status: FileStatus?
        do {
            status = try FileStore.statusFollowingLinks(source)
        } catch {
            throw TileProblem("basemap '\(source)': \(error)")
        }
        guard let status else {
            throw TileProblem("basemap '\(source)' does not exist (expected an .mbtiles file, a tile folder or an http(s) URL template)")
        }
        if status.isDirectory { return try TileFolderSource(path: source) }
        if let head = try? RandomAccessFile(source).read(offset: 0, length: 7), PMTilesSource.isPMTiles(head) {
            return try PMTilesSource(path: source)
        }
        return try MBTilesSource(path: source)
    }

    /// The provider a renderer uses: the source, decoded and cached; problems go to `report`.
    package func open(_ settings: BasemapSettings, report: @escaping (String) -> Void = { _ in }) throws(TileProblem) -> BasemapTiles {
        let tiles = BasemapTiles(source: try openSource(settings), cache: DecodedTileCache(capacityBytes: memoryCacheBytes))
        tiles.budget.imageSeconds = imageDeadlineSeconds
        tiles.budget.trackSeconds = trackDeadlineSeconds
        let name = Self.displayName(settings.source)
        tiles.onFirstProblem = { report("basemap '\(name)': \($0)") }
        return tiles
    }

    /// What identifies the source's content now, for the cache key: an MBTiles file's size and
    /// modification time (nanoseconds), a folder's modification time (it changes when a zoom
    /// folder is added or removed; edit a tile in place and touch the folder to re-render), a
    /// URL template's nothing (the template is in the key; servers' tiles change without notice,
    /// and re-rendering an archive because a tile server updated would defeat the cache).
    package static func contentStamp(of source: String) -> String {
        if isURL(source) { return "" }
        return fileStamp(of: source)
    }

    /// `contentStamp(of:)`, and for the URL of a PMTiles archive its identity (ETag,
    /// Last-Modified, size and head, `HTTPByteRanges.identity`), from opening it: the head comes
    /// from the tile cache while fresh, so this asks the server at most once a run (none when
    /// the run's check opened it just before); "pmtiles unreachable" when it cannot be opened
    /// (its images fail and are drawn again once it can).
    package func contentStamp(of source: String) -> String {
        guard TileURLTemplate.isArchiveURL(source) else { return Self.contentStamp(of: source) }
        let archive = try? openSource(BasemapSettings(source: source))
        return (archive as? RemotePMTilesSource)?.contentStamp ?? "pmtiles unreachable"
    }

    private static func fileStamp(of source: String) -> String {
        guard let status = (try? FileStore.statusFollowingLinks(source)) ?? nil else { return "missing" }
        return status.isDirectory
            ? "folder mtime \(status.modificationNanoseconds)" : "size \(status.sizeBytes) mtime \(status.modificationNanoseconds)"
    }
}
