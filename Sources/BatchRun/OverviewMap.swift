#if canImport(Glibc)
import Glibc
#endif
import ArchiveOverview
import ContentHash
import FileStore
import FoundationEssentials
import MapGeometry
import MapTiles
import Raster
import SnapshotRendering
import Synchronization
import ThumbnailCache
import TileSources

/// The run's basemap under the overview's heat maps (`OverviewBasemap`): each picture's map is
/// a `MapBackdrop`, the snapshot's own map layers, drawn from the same source and settings as
/// the run's snapshots. The overview draws a picture a core at a time and tile providers are
/// not thread-safe, so each thread borrows a backdrop (its source opened once, its decoded tiles
/// kept) from a small pool.
package final class OverviewMap: OverviewBasemap {
    /// The basemap: a run's with its content stamp taken (`RunConfiguration.stampingBasemap`); a
    /// kept one with its source as stored (`Kept`); a poster's as given.
    package let settings: BasemapSettings
    /// See `OverviewBasemap.stamp`.
    package let stamp: String
    private let opener: BasemapOpener
    /// Whether the source is as kept for a listing, its credentials left out (`Kept`): no tile is
    /// asked for, a picture to draw is drawn over the grid and said to be not whole.
    private let sourceWithheld: Bool
    private let warn: @Sendable (String) -> Void
    private let idle = Mutex<[Lent]>([])
    private let warned = Mutex(false)

    /// A backdrop lent to one thread at a time (taken from and given back to the pool under its
    /// lock, so no two threads hold it at once).
    private struct Lent: @unchecked Sendable {
        let backdrop: MapBackdrop
        let openProblem: String?
    }

    /// The map of `settings` opened by `opener`; `warn` gets the first problem of the process
    /// (naming the basemap), for the run's log. `kept` (a listing given no settings) is the map
    /// the runs kept: its stamp stands for their settings, and a source kept without its
    /// credentials is not opened.
    package init(settings: BasemapSettings, opener: BasemapOpener, kept: Kept? = nil, warn: @escaping @Sendable (String) -> Void) {
        self.settings = kept?.settings ?? settings
        self.opener = opener
        self.warn = warn
        sourceWithheld = kept?.sourceWithheld ?? false
        stamp = kept?.stamp ?? Self.stamp(of: settings)
    }

    /// The stamp of `settings`: a digest of every value, the source whole. "map 2" stands for how
    /// the overview fades a map and reduces its colours (`DensityPainter+Map`; 2: in palette
    /// space, a raster map quantized before its heat map); raise it when that changes.
    static func stamp(of settings: BasemapSettings) -> String {
        var hash = SHA256()
        hash.update("overview map 2\n\(settings)\n")
        return hash.finalize().hex
    }

    /// See `OverviewBasemap.draw`: a failed tile or a source that cannot be opened is a problem;
    /// tiles the source does not have are not.
    package func draw(
        viewport: Viewport, latitudeDegrees: Double, labelScale: Double, mapColors: Int, heat: (inout IndexedCanvas) -> Void
    ) -> OverviewMapPicture {
        let lent = borrow()
        defer { idle.withLock { $0.append(lent) } }
        let widthPoints = max(1, Int((Double(viewport.widthPixels) / labelScale).rounded()))
        let (canvas, report) = lent.backdrop.draw(
            viewport: viewport, latitudeDegrees: latitudeDegrees, widthPoints: widthPoints, scale: labelScale, mapColors: mapColors, over: heat)
        // Tiles the source does not have (its coverage ends) or a view outside its zoom range
        // are what the map is, drawn again they would be the same; failed tiles are not.
        var problems = lent.openProblem.map { [$0] } ?? []
        if let report, report.tilesFailed > 0 {
            let name = BasemapOpener.displayName(settings.source)
            problems.append(
                "basemap '\(name)': \(report.tilesFailed) tile(s) failed (\(report.failureCause ?? "unreadable")); the grid shows there")
        }
        if let first = problems.first, isFirstWarning() { warn(first) }
        return OverviewMapPicture(canvas: canvas, problems: problems)
    }

    /// See `OverviewBasemap.readsOverNetwork`: a URL template or the URL of a PMTiles archive.
    package var readsOverNetwork: Bool { BasemapOpener.isURL(settings.source) }

    /// How many tiles the map of `viewport` reads (the zoom it is drawn at, over the view's
    /// extent); nil when the source cannot be opened or the view is outside its zoom range.
    package func tileCount(viewport: Viewport, labelScale: Double) -> Int? {
        let lent = borrow()
        defer { idle.withLock { $0.append(lent) } }
        guard let tiles = lent.backdrop.tiles else { return nil }
        let description = tiles.sourceDescription
        let zoom: Int
        if description.kind == .vector {
            // The vector map draws the tiles of the @1x image's whole zoom (VectorMapPainter).
            let continuous = TilePlan.continuousZoom(viewport, tilePixels: 256) - log2(max(labelScale, 1))
            // Below the source's lowest zoom the painter draws nothing (the grid shows): no tiles.
            guard continuous.isFinite, Int(continuous.rounded(.down)) >= description.minimumZoom else { return nil }
            zoom = min(Int(continuous.rounded(.down)), description.maximumZoom)
        } else {
            guard
                case .success(let plan) = TilePlan.make(
                    viewport: viewport, description: description, maximumOverzoomLevels: settings.maximumOverzoomLevels)
            else { return nil }
            zoom = plan.zoom
        }
        let tileMeters = 2 * WebMercator.halfWorldMeters / Double(1 << zoom)
        let rect = viewport.mapRect
        func span(_ low: Double, _ high: Double) -> Int {
            Int(((high + WebMercator.halfWorldMeters) / tileMeters).rounded(.down))
                - Int(((low + WebMercator.halfWorldMeters) / tileMeters).rounded(.down)) + 1
        }
        return span(rect.minX, rect.maxX) * span(rect.minY, rect.maxY)
    }

    /// True for the process's first problem only.
    private func isFirstWarning() -> Bool {
        warned.withLock { done in
            let first = !done
            done = true
            return first
        }
    }

    /// A backdrop from the pool, or a new one (its source opened now; a source that cannot be
    /// opened gives a backdrop of paper and grid, and the reason).
    private func borrow() -> Lent {
        if let kept = idle.withLock({ $0.popLast() }) { return kept }
        if sourceWithheld {
            let problem =
                "the runs' basemap '\(settings.source)' was kept without its credentials or query values, which TrackSnap writes nowhere: give 'tracksnap listing' the runs' --basemap to draw it"
            return Lent(backdrop: MapBackdrop(withoutTiles: settings), openProblem: problem)
        }
        do {
            let tiles = try opener.open(settings)
            do {
                return Lent(backdrop: try MapBackdrop(settings: settings, tiles: tiles), openProblem: nil)
            } catch {
                return Lent(backdrop: MapBackdrop(withoutTiles: settings), openProblem: "the overview's basemap: \(error)")
            }
        } catch {
            return Lent(backdrop: MapBackdrop(withoutTiles: settings), openProblem: "the overview's basemap: \(error)")
        }
    }
}
