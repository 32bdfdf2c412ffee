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

    /// The basemap the runs kept (`record`); nil when they drew none or nothing is kept.
    package static func recorded(in store: ThumbnailStore) -> Kept? {
        guard let bytes = try? FileStore.readFile(recordPath(store), maximumBytes: 8 << 20) else { return nil }
        return try? JSONDecoder().decode(Kept.self, from: Data(bytes))
    }
}
