import FileStore
import FoundationEssentials
import MapTiles
import ThumbnailCache
import TileSources

/// What a run keeps of its overview's map, so that a `listing` given no settings (the fan-in of
/// sharded runs) draws the same map: `Output/.tracksnap/overview-basemap.json`, 0600.
extension OverviewMap {
    /// The runs' overview map as kept.
    package struct Kept: Codable, Sendable, Equatable {
        /// The basemap, its source as it may be stored (`BasemapOpener.displayName`: a URL
        /// template's credentials and query values left out, as everywhere TrackSnap writes).
        package var settings: BasemapSettings
        /// The map's stamp as the run made it from the whole source (`OverviewMap.stamp`), so a
        /// listing shows the runs' pictures as they are.
        package var stamp: String
        /// Whether the source had credentials, left out: the listing cannot draw that map, and
        /// says so for each picture it has to draw.
        package var sourceWithheld: Bool
    }

    static func recordPath(_ store: ThumbnailStore) -> String { store.stateDirectory + "/overview-basemap.json" }

    /// Keeps `settings` (nil removes what was kept) when it differs from what is kept.
    package static func record(_ settings: BasemapSettings?, in store: ThumbnailStore) throws(FileError) {
        let path = recordPath(store)
        guard let settings else { return try FileStore.remove(path) }
        var stored = settings
        stored.source = BasemapOpener.displayName(settings.source)
        let kept = Kept(settings: stored, stamp: stamp(of: settings), sourceWithheld: stored.source != settings.source)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let bytes = try? Array(encoder.encode(kept)) else { return }
        if (try? FileStore.readFile(path, maximumBytes: 8 << 20)) == bytes { return }
        try FileStore.writeAtomically(bytes, to: path, permissions: 0o600)
    }

    /// The basemap the runs kept (`record`); nil when they drew none (no file). A file that cannot
    /// be read or decoded is an error naming it: read as "no map", the listing would redraw every
    /// changed picture over the grid without a word.
    package static func recorded(in store: ThumbnailStore) throws(RecordError) -> Kept? {
        let path = recordPath(store)
        guard FileStore.exists(path) else { return nil }
        do {
            return try JSONDecoder().decode(Kept.self, from: Data(try FileStore.readFile(path, maximumBytes: 8 << 20)))
        } catch {
            throw RecordError(
                description:
                    "the runs' overview map '\(path)' cannot be read (\(error)); give 'tracksnap listing' the runs' --basemap, or remove the file to draw the overview over the grid"
            )
        }
    }

    /// A kept map that cannot be read, naming its file.
    package struct RecordError: Error, CustomStringConvertible {
        /// What went wrong and what to do.
        package var description: String
    }
}
