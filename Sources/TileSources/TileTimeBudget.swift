#if canImport(Glibc)
import Glibc
#endif

/// The time and the patience a basemap source gets, whatever it is (a server, an MBTiles file
/// another process locks, a folder on a stalled disk): each image has `imageSeconds` for its
/// tiles (from `beginImage()`), all images of one track together `trackSeconds` (from
/// `beginTrack()`, so a style with many images cannot add up past the job timeout), and after
/// `breakerThreshold` failed reads in a row that may pass (`TileProblem.kind == .unavailable`)
/// the circuit breaker opens: the source is not asked again by this budget's owner (a worker,
/// for the rest of the run). `BasemapTiles` keeps one per source; a source that checks it
/// itself (`TileBudgetedSource`) shares its own.
package final class TileTimeBudget {
    /// Seconds one image may spend on its tiles. Default: 15.
    package var imageSeconds = 15.0
    /// Seconds all images of one track may spend on their tiles. Default: 60.
    package var trackSeconds = 60.0
    /// Failed reads in a row that open the circuit breaker. Default: 3.
    package var breakerThreshold = 3
    /// Failed reads since the last read that worked.
    package private(set) var failuresInARow = 0
    /// Why the circuit breaker is open, nil while it is closed.
    package private(set) var breakerReason: String?
    private var imageDeadline = Double.infinity
    private var trackDeadline = Double.infinity

    /// A budget with the defaults.
    package init() {}

    /// Starts the clock of one track's images.
    package func beginTrack() {
        trackDeadline = Self.monotonicSeconds() + trackSeconds
    }

    /// Starts the clock of one image's tiles.
    package func beginImage() {
        imageDeadline = Self.monotonicSeconds() + imageSeconds
    }

    /// Seconds left for the current image (the earlier of its own and its track's deadline);
    /// infinite before any `beginImage()` or `beginTrack()`.
    package var secondsLeft: Double { min(imageDeadline, trackDeadline) - Self.monotonicSeconds() }

    /// Which time ran out, for messages: "this image's 15 s for tiles" or "this track's 60 s
    /// for tiles".
    package var spentLimit: String {
        trackDeadline < imageDeadline
            ? "this track's \(Self.seconds(trackSeconds)) s for tiles" : "this image's \(Self.seconds(imageSeconds)) s for tiles"
    }

    /// Counts a read that worked (or found no tile): the failures are no longer in a row.
    package func recordSuccess() {
        failuresInARow = 0
    }

    /// Counts a failed read; the last of `breakerThreshold` in a row opens the breaker with a
    /// reason naming `what` failed ("the tile server", "the MBTiles file") and the last problem.
    /// True when this failure opened it.
    @discardableResult
    package func recordFailure(_ problem: TileProblem, what: String) -> Bool {
        failuresInARow += 1
        guard failuresInARow >= breakerThreshold, breakerReason == nil else { return false }
        breakerReason = "\(what) failed \(failuresInARow) times in a row (last: \(problem.description)); it is not asked again in this run"
        return true
    }

    /// Opens the breaker for a reason learnt elsewhere (another worker's breaker).
    package func openBreaker(_ reason: String) {
        if breakerReason == nil { breakerReason = reason }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(min(value, 1e9)))" : String(Double(Int(value * 10)) / 10)
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

/// A source that checks the `TileTimeBudget` itself before it asks (a server with a disk cache:
/// when the time or the breaker says no, a stale cached copy is still better than the grid).
/// `BasemapTiles` then uses the source's budget and leaves the checks to it.
package protocol TileBudgetedSource: RawTileSource {
    /// The budget the source checks and counts its failures in.
    var budget: TileTimeBudget { get }
}
