import MapTiles
import SnapshotRendering
import StyleFile
import ThumbnailCache

/// Draws every image of a track under a run's settings, named for its store, with the record the
/// listing reads (pure: no files; `ThumbnailStore.publish` writes them).
// Here in BatchRun, not beside `SnapshotRenderer.render(track:images:)`: it makes the cache's
// record and image names, and SnapshotRendering (the product library) must not know the cache,
// nor ThumbnailCache the renderer (HistoryListing reads records without linking it). BatchRun
// sits above both, so every edge still runs one way.
package struct ThumbnailRenderer: Sendable {
    /// What is drawn.
    package let settings: ThumbnailSettings
    /// Where the images go (its image list and fingerprint are the settings').
    package let store: ThumbnailStore

    /// A renderer for `settings` publishing into the output folder `root`.
    package init(root: String, settings: ThumbnailSettings) {
        self.settings = settings
        store = ThumbnailStore(root: root, settings: settings)
    }

    /// Renders every image of a track. Decodes, cleans and simplifies once; `scratch` lends
    /// buffers kept from the previous track (one per thread). `tiles` provides the basemap when
    /// the settings have one.
    package func render(
        trackBytes: [UInt8], fileName: String, key: CacheKey, scratch: RenderScratch? = nil, tiles: (any TileProvider)? = nil
    ) throws(SnapshotError) -> (pngs: [[UInt8]], record: TrackRecord) {
        let track = try SnapshotRenderer.decode(trackBytes: trackBytes, fileName: fileName, options: settings.options)
        // One time for tiles across all the track's images, however many the style has.
        tiles?.beginTrack()
        let snapshots = try SnapshotRenderer.render(
            track: track, images: settings.images.map(settings.options(for:)), scratch: scratch, tiles: tiles)
        var pngs: [[UInt8]] = []
        var images: [TrackRecord.Image] = []
        for ((image, path), snapshot) in zip(zip(settings.images, store.imagePaths(key)), snapshots) {
            pngs.append(snapshot.png)
            images.append(
                TrackRecord.Image(
                    path: path, width: snapshot.info.width, height: snapshot.info.height, scale: image.scale, role: image.role.rawValue,
                    viewportEpsg3857: snapshot.info.viewportEpsg3857))
        }
        var record = TrackRecord(key: key, info: snapshots[0].info, images: images)
        let basemap = BasemapReport.combined(snapshots.compactMap(\.info.basemap))
        record.basemap = basemap.map(TrackRecord.Basemap.init(report:))
        record.incomplete = basemap?.failureCause
        record.overviewRoute = OverviewRouteMaker.text(of: track, cleaning: settings.options.cleaning)
        return (pngs, record)
    }
}

extension TrackRecord {
    /// A record from a render's info (the first image's) and the image entries.
    init(key: CacheKey, info: RenderInfo, images: [Image]) {
        self.init(
            key: key, format: info.format, bbox: info.bbox, startLonLat: info.startLonLat, segments: info.segments, fixesDrawn: info.verticesDrawn,
            distanceM: info.distanceM, fixes: info.fixes, fixesKept: info.fixesKept, images: images)
        name = info.name
        activity = info.activity
        utcOffsetRecordedS = info.utcOffsetRecordedS
        startTime = info.startTime
        endTime = info.endTime
        movingTimeS = info.movingTimeS
        movingDistanceM = info.movingDistanceM
        durationS = info.durationS
        elevationGainM = info.elevationGainM
    }
}

extension TrackRecord.Basemap {
    /// The renderer's report as the record keeps it.
    init(report: BasemapReport) {
        self.init(
            zoom: report.zoom, tiles: report.tiles, tilesAbsent: report.tilesAbsent, tilesFailed: report.tilesFailed, attribution: report.attribution,
            problems: report.problems)
        kind = report.kind
        featuresDrawn = report.featuresDrawn
        verticesDrawn = report.verticesDrawn
        labelLayersSkipped = report.labelLayersSkipped
    }
}
