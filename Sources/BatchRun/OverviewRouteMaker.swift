import ArchiveOverview
import SnapshotRendering
import TrackCleaning
import TrackModel

/// The route a track's record keeps for the archive overview: the track cleaned as for its
/// snapshots, projected, simplified (`OverviewOptions.routeToleranceMeters`) and written as
/// `RouteCoding` text. Cleaning again here costs a fraction of the track's render; the renderer's
/// own cleaned track is not part of its product API, and keeping it out keeps that API as it is.
package enum OverviewRouteMaker {
    /// The longest route text kept in a record, bytes.
    package static let maximumTextBytes = 256 << 10

    /// The route text of a decoded track; nil when no fix survives cleaning.
    package static func text(of track: Track, cleaning: CleaningOptions, options: OverviewOptions = OverviewOptions()) -> String? {
        let (cleaned, _) = TrackCleaner.clean(track, options: cleaning)
        let segments = cleaned.segments.map { segment in
            segment.fixes.map { (latitude: $0.latitudeDegrees, longitude: $0.longitudeDegrees) }
        }
        // A record is read back up to 1 MiB (`ThumbnailStore.record`): a route past a quarter of
        // that (a day of GPS jitter in one spot) is simplified more coarsely until it fits.
        var tolerance = options.routeToleranceMeters
        while true {
            guard
                let route = OverviewRoute(
                    id: "", latitudeLongitudeSegments: segments, distanceMeters: 0, startTime: nil, toleranceGroundMeters: tolerance)
            else { return nil }
            let text = RouteCoding.encode(route.segments)
            if text.utf8.count <= maximumTextBytes { return text }
            if tolerance > 10_000 { return nil }
            tolerance *= 4
        }
    }
}
