import FileStore
import HistoryListing
import JobQueue
import MapTiles
import StyleFile
import ThumbnailCache
import TileSources
import TrackFormats

/// Everything `tracksnap run` needs. Plain values; every default is here.
///
/// The supervisor hands it to its workers whole: it writes it once into the queue
/// (`RunConfigurationFile`) and starts each worker with that file's path, so a worker renders with
/// exactly the settings (style, basemap and its content stamp) the run started with.
package struct RunConfiguration: Sendable, Equatable, Codable {
    /// The encoding's version: a worker refuses a file written in another. Raise it whenever a
    /// field is added, removed or changes meaning (every field is required when decoding), so a
    /// worker of another build says so instead of guessing.
    package static let currentFormatVersion = 1
    /// The version this value was written in. Default: `currentFormatVersion`.
    package var formatVersion = RunConfiguration.currentFormatVersion
    /// The queue folder. Default: "Jobs".
    package var jobsDirectory = "Jobs"
    /// The published site. Default: "Output".
    package var outputDirectory = "Output"
    /// Worker processes. Default: the number of online cores.
    package var workers = RunConfiguration.onlineCores
    /// Which jobs this run takes. Default: all.
    package var shard = ShardSelection.all
    /// A job file in new/ modified this recently (and writable) waits. Default: 3 s.
    package var settleSeconds = 3.0
    /// A claim from another host without a heartbeat for this long is stale. Default: 600 s.
    package var leaseSeconds = 600.0
    /// A job running longer is killed and retried (counts as an attempt). Default: 120 s.
    package var jobTimeoutSeconds = 120.0
    /// After SIGTERM/SIGINT, in-flight jobs get this long to finish before they are returned.
    /// Default: 20 s.
    package var stopDeadlineSeconds = 20.0
    /// Attempts before a crashing job is quarantined. Default: 3.
    package var maxAttempts = 3
    /// Whole-run deaths with a job in flight before that job is quarantined (see
    /// `JobQueue.maxInterruptions`). Default: 6.
    package var maxRunDeaths = 6
    /// Whether the per-host lock is taken. Default: true. (Off only for tests that show
    /// correctness does not depend on it.)
    package var usesLock = true
    /// The per-job memory ceiling (`DecodingLimits.maximumMemoryBytes`, `--memory-limit`): a
    /// track that would need more fails with class `limit`. Default: 512 MiB.
    package var memoryLimitBytes = DecodingLimits().maximumMemoryBytes
    /// What is rendered.
    package var settings = ThumbnailSettings()
    /// Where URL basemap tiles are cached on disk (`--tile-cache`). Default: nil, meaning
    /// `tile-cache/` in the queue folder (`tileCachePath`).
    package var tileCacheDirectory: String? = nil
    /// Use only cached URL tiles, never the network (`--offline`). Default: false.
    package var offlineTiles = false
    /// Whether `listing` may empty a site that lists tracks (`--allow-empty`). Default: false.
    package var allowsEmptySite = false
    /// Whether `listing` was given style or basemap options (`--style`, `--theme`, `--color-by`,
    /// `--basemap`, `--basemap-opacity`, `--attribution`). Without them it lists under the
    /// settings the runs recorded (`RecordedSettings`). Default: false.
    package var listingSettingsGiven = false
    /// Whether `listing` may list under given settings that differ from the runs' recorded ones
    /// (`--override-settings`): what was not rendered under them is unlisted and pruned. Default: false.
    package var overridesRecordedSettings = false
    /// Cards per index page of the listing. Default: 60.
    package var listingPageSize = 60
    /// The version written into failure records.
    package var version = ""

    /// The defaults above.
    package init() {}

    /// The number of online cores (at least 1).
    package static var onlineCores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Why the queue and output folders cannot be used together, or nil: an output folder inside
    /// the queue would be taken for jobs (the site's files moved into failed/), and a queue inside
    /// the output folder would be served to the world with every private track in it.
    package var foldersProblem: String? {
        for (path, role) in [(outputDirectory, "output folder"), (jobsDirectory, "queue")] {
            if let status = (try? FileStore.statusFollowingLinks(path)) ?? nil, !status.isDirectory {
                return "the \(role) '\(path)' is \(status.kindDescription), not a folder"
            }
        }
        let jobs = ArchiveEnqueuer.absolute(jobsDirectory), output = ArchiveEnqueuer.absolute(outputDirectory)
        if jobs == output { return "the queue and the output folder are the same folder ('\(jobsDirectory)')" }
        if output.hasPrefix(jobs + "/") { return "the output folder '\(outputDirectory)' is inside the queue '\(jobsDirectory)'; put it beside it" }
        if jobs.hasPrefix(output + "/") {
            return "the queue '\(jobsDirectory)' is inside the output folder '\(outputDirectory)', which a web server publishes; put it beside it"
        }
        return nil
    }

    /// The queue this configuration names, for this process.
    package func makeQueue() -> JobQueue {
        var queue = JobQueue(root: jobsDirectory)
        queue.maxAttempts = maxAttempts
        queue.maxInterruptions = maxRunDeaths
        queue.settleSeconds = settleSeconds
        queue.version = version
        return queue
    }

    /// The listing builder this configuration names.
    package func makeListing() -> ListingBuilder {
        var builder = ListingBuilder(queue: makeQueue(), store: makeStore())
        builder.pageSize = listingPageSize
        builder.overviewRegions = settings.overviewRegions
        builder.overviewBasemap = renderSettings().options.basemap.map { makeOverviewMap($0) }
        return builder
    }

    /// The overview's map of `basemap` (`OverviewMap`; `kept`: the runs' map, for a listing given
    /// no settings), its tiles opened as the run's are; its first problem goes to standard error.
    package func makeOverviewMap(_ basemap: BasemapSettings, kept: OverviewMap.Kept? = nil) -> OverviewMap {
        OverviewMap(settings: basemap, opener: makeBasemapOpener(), kept: kept) { StandardError.write("tracksnap: overview: \($0)\n") }
    }

    /// The second fence under the memory ceiling: each worker's data segment (heap and private
    /// mappings, `RLIMIT_DATA`) is held to twice the ceiling, so a track whose cost the readers
    /// misjudge stops its own worker with a clear failure instead of pushing the machine into
    /// swap or the OOM killer (which may pick a bystander). Twice: a worker holds one track being
    /// rendered and the images of the one being published, plus its buffers.
    package var workerMemoryFenceBytes: Int { memoryLimitBytes * 2 }

    /// Seconds one image may spend on map tiles, from any source: an eighth of the job timeout, at
    /// most 15; a track's images together get four times that (`TileTimeBudget`), so a tile server
    /// that hangs or an MBTiles file locked mid-run never costs a job its timeout.
    package var imageTileDeadlineSeconds: Double { min(15, jobTimeoutSeconds / 8) }

    /// Where URL tiles are cached.
    package var tileCachePath: String { tileCacheDirectory ?? jobsDirectory + "/tile-cache" }

    /// Opens the configured basemap's sources (URL tiles cached in `tileCachePath`).
    package func makeBasemapOpener() -> BasemapOpener {
        var opener = BasemapOpener(tileCacheDirectory: tileCachePath)
        opener.offline = offlineTiles
        opener.version = version
        opener.imageDeadlineSeconds = imageTileDeadlineSeconds
        return opener
    }

    /// The settings images are keyed and drawn with: `settings` with the memory ceiling, and a
    /// basemap without a content stamp gets one taken now (`stampingBasemap`), so every caller
    /// keys images by what the source holds.
    package func renderSettings() -> ThumbnailSettings {
        var settings = settings
        if let basemap = settings.options.basemap, basemap.contentStamp.isEmpty {
            settings = stampingBasemap().settings
        }
        settings.options.limits.maximumMemoryBytes = memoryLimitBytes
        return settings
    }

    /// The renderer (and its store) this configuration names, with `renderSettings()`.
    package func makeRenderer() -> ThumbnailRenderer { ThumbnailRenderer(root: outputDirectory, settings: renderSettings()) }

    /// The store this configuration names, keyed by `renderSettings()`.
    package func makeStore() -> ThumbnailStore { ThumbnailStore(root: outputDirectory, settings: renderSettings()) }

    /// This configuration with the basemap's content stamp taken now (`BasemapOpener.contentStamp`),
    /// so a replaced MBTiles file or tile folder changes the cache key. A run takes it as it
    /// starts, and its workers use the one it took.
    package func stampingBasemap() -> RunConfiguration {
        var stamped = self
        if let source = settings.options.basemap?.source {
            stamped.settings.options.basemap?.contentStamp = makeBasemapOpener().contentStamp(of: source)
        }
        return stamped
    }
}

#if canImport(Glibc)
import Glibc
#endif
