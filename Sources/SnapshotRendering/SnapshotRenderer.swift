import MapGeometry
import MapTiles
import PNGEncoding
import MapStyle
import Raster
import VectorMap
import TrackCleaning
import TrackFormats
import TrackModel

/// A finished render: the PNG, what was drawn, and where the time went.
public struct RenderedSnapshot: Sendable {
    /// The PNG file's bytes (deterministic: same input and options, same bytes).
    public var png: [UInt8]
    /// What was drawn.
    public var info: RenderInfo
    /// Seconds per stage (`read` and `write` are left for the caller).
    public var timings: StageTimings
}

/// The TrackSnap pipeline as a library call: track bytes and options in, PNG bytes and render info
/// out. Pure apart from the clock: no files, no globals, safe to call from many threads at once
/// (each with its own `RenderScratch`, or none).
///
/// ```swift
/// let snapshot = try SnapshotRenderer.render(trackBytes: bytes, fileName: "run.gpx", options: RenderOptions())
/// try write(snapshot.png)
/// ```
public enum SnapshotRenderer {
    /// The renderer's version, part of every cache key. Bump it whenever the same track and
    /// options would give different pixels, so caches re-render everything.
    /// 2: palette images, pixel-snapped grid lines, implausible times dropped.
    public static let version = "2"

    /// Decodes, cleans, fits, simplifies, rasterizes and encodes one track.
    /// `tiles` provides the basemap's tiles when `options.basemap` is set.
    public static func render(
        trackBytes: UnsafeBufferPointer<UInt8>, fileName: String? = nil, options: RenderOptions = RenderOptions(),
        tiles: (any TileProvider)? = nil
    ) throws(SnapshotError) -> RenderedSnapshot {
        if let problem = options.validationProblem() { throw .invalidOptions(problem) }
        var clock = StageClock()
        let track = try decode(trackBytes: trackBytes, fileName: fileName, options: options)
        let parse = clock.lap()
        var snapshot = try render(track: track, options: options, tiles: tiles)
        snapshot.timings.parse = parse
        return snapshot
    }

    /// The same, from an array of bytes.
    public static func render(
        trackBytes: [UInt8], fileName: String? = nil, options: RenderOptions = RenderOptions(), tiles: (any TileProvider)? = nil
    ) throws(SnapshotError) -> RenderedSnapshot {
        try trackBytes.withUnsafeBufferPointer { buffer throws(SnapshotError) in
            try render(trackBytes: buffer, fileName: fileName, options: options, tiles: tiles)
        }
    }

    /// The first stage on its own: sniffs the format and decodes the track. Call it, then
    /// `render(track:options:)`, to release a large file's bytes before rendering (about half the
    /// peak memory of a 100 MB track).
    public static func decode(
        trackBytes: UnsafeBufferPointer<UInt8>, fileName: String? = nil, options: RenderOptions = RenderOptions()
    ) throws(SnapshotError) -> Track {
        do {
            return try TrackDecoder.decode(trackBytes, fileName: fileName, limits: options.limits)
        } catch {
            throw .decoding(error)
        }
    }

    /// The same, from an array of bytes.
    public static func decode(
        trackBytes: [UInt8], fileName: String? = nil, options: RenderOptions = RenderOptions()
    ) throws(SnapshotError) -> Track {
        try trackBytes.withUnsafeBufferPointer { buffer throws(SnapshotError) in
            try decode(trackBytes: buffer, fileName: fileName, options: options)
        }
    }

    /// Renders an already decoded track (cleaning included). `scratch` lends reusable buffers
    /// (see `RenderScratch`); without one, this call allocates its own.
    public static func render(
        track: Track, options: RenderOptions = RenderOptions(), scratch: RenderScratch? = nil, tiles: (any TileProvider)? = nil
    ) throws(SnapshotError) -> RenderedSnapshot {
        try render(track: track, images: [options], scratch: scratch, tiles: tiles)[0]
    }

    /// Renders one track at several sizes with one cleaning, one projection and one
    /// simplification (`SimplificationRanks`) shared by every image. Images that differ in their
    /// cleaning options are rendered separately. `tiles` provides the basemap's tiles for images
    /// whose options set one (one provider per thread: providers are not thread-safe).
    public static func render(
        track: Track, images: [RenderOptions], scratch: RenderScratch? = nil, tiles: (any TileProvider)? = nil
    ) throws(SnapshotError) -> [RenderedSnapshot] {
        guard let first = images.first else { return [] }
        for options in images {
            if let problem = options.validationProblem() { throw .invalidOptions(problem) }
            if options.basemap != nil, tiles == nil {
                throw .invalidOptions("a basemap is set but no tiles were given: pass a TileProvider (TileSources.BasemapOpener opens one)")
            }
        }
        if images.contains(where: { $0.cleaning != first.cleaning }) {
            var snapshots: [RenderedSnapshot] = []
            for options in images { snapshots += try render(track: track, images: [options], scratch: scratch, tiles: tiles) }
            return snapshots
        }
        let scratch = scratch ?? RenderScratch()
        var shared = StageTimings()
        var clock = StageClock()
        let fixesRead = track.fixCount
        let (cleaned, report) = TrackCleaner.clean(track, options: first.cleaning)
        guard cleaned.fixCount > 0 else {
            throw .noValidFixes(
                format: track.format, fixesRead: fixesRead, invalid: report.invalid, duplicates: report.duplicates,
                spikes: report.spikes)
        }
        let stats = TrackStatistics.stats(of: cleaned, options: first.cleaning)
        shared.clean = clock.lap()
        let projection = ProjectedTrack(cleaned)
        let frames = images.map { FramePlan(projection: projection, options: $0) }
        shared.fit = clock.lap()
        // One ranking for every single-colour image, down to the finest tolerance among them.
        let floor = zip(images, frames).filter { $0.0.style.coloring == .single }
            .map { $0.0.simplificationTolerancePixels * $0.1.viewport.metersPerPixel }.min()
        let ranked = floor.map { floor in projection.segments.map { SimplificationRanks($0, floorToleranceMeters: floor) } }
        shared.simplify = clock.lap()

        var snapshots: [RenderedSnapshot] = []
        for (options, frame) in zip(images, frames) {
            var timings = shared
            let bands = RouteBands(track: cleaned, projection: projection, coloring: options.style.coloring, count: options.style.bandColors.count)
            let tolerance = options.simplificationTolerancePixels
            var polylines: [[PixelPoint]]
            if bands == nil, let ranked {
                let toleranceMeters = tolerance * frame.viewport.metersPerPixel
                polylines = ranked.map { $0.vertices(toleranceMeters: toleranceMeters).map(frame.viewport.pixel) }
            } else {
                let pieces = bands?.runs.map(\.points) ?? projection.segments
                polylines = pieces.map { DouglasPeucker.simplify($0.map(frame.viewport.pixel), tolerancePixels: tolerance) }
            }
            let capped = StrokeBudget.cap(
                polylines, strokeWidthPixels: max(frame.strokeWidthPixels, frame.casingWidthPixels) + 1,
                pixelCount: frame.viewport.widthPixels * frame.viewport.heightPixels)
            polylines = capped.polylines
            timings.simplify += clock.lap()

            let png: [UInt8]
            var basemapReport: BasemapReport?
            let mapStyle =
                tiles?.sourceDescription.kind == .vector
                ? try options.basemap.map { settings throws(SnapshotError) in try vectorMapStyle(settings, options: options, scratch: scratch) }
                : nil
            do {
                let basemap = options.basemap.flatMap { settings in tiles.map { (settings: settings, tiles: $0) } }
                let scene = SnapshotScene(
                    polylines: polylines, bands: bands?.runs.map(\.band), frame: frame, options: options, basemap: basemap, mapStyle: mapStyle)
                // Each image gets its own time for tiles (a hanging tile server costs bounded time),
                // once, however many attempts drawing it takes.
                basemap?.tiles.beginImage()
                let palette = options.png.layout == .automatic && SnapshotPainter.paintPalette(scene, scratch: scratch, report: &basemapReport)
                timings.raster = clock.lap()
                if palette {
                    png = try scratch.encoder.encode(scratch.canvas)
                } else {
                    let canvas = SnapshotPainter.paintRGBA(scene, scratch: scratch, report: &basemapReport)
                    // The canvas's memory goes back to the scratch for the next image, encoded or not.
                    defer { scratch.keepRGBA(canvas.pixels) }
                    timings.raster += clock.lap()
                    // A raster map image as a palette PNG (exact when it has ≤ 256 colours, else
                    // quantized at the error ARCHITECTURE.md states): a quarter of the bytes and a
                    // fifth of the encoding time of RGB. Colour by speed or elevation stays RGB:
                    // its smooth ramps would band.
                    if options.png.layout == .automatic && scene.drawsRasterBasemap, let reduced = try scratch.encoder.encodeReducingColors(canvas) {
                        png = reduced
                    } else {
                        png = try PNGEncoder.encode(canvas, settings: options.png)
                    }
                }
            } catch {
                throw .encoding(error)
            }
            timings.encode = clock.lap()
            var renderInfo = info(
                track: track, cleaned: cleaned, report: report, stats: stats, projection: projection, frame: frame, options: options,
                polylines: polylines)
            renderInfo.basemap = basemapReport
            if capped.step > 1 {
                let note =
                    "route thinned to every \(capped.step)th vertex: it covers the image many times over (drawing capped at \(Int(StrokeBudget.pixelPassesPerImage)) passes over the image)"
                renderInfo.notes = (renderInfo.notes ?? []) + [note]
            }
            snapshots.append(RenderedSnapshot(png: png, info: renderInfo, timings: timings))
        }
        return snapshots
    }

    private static func info(
        track: Track, cleaned: Track, report: CleaningReport, stats: TrackStats, projection: ProjectedTrack, frame: FramePlan,
        options: RenderOptions, polylines: [[PixelPoint]]
    ) -> RenderInfo {
        let rect = frame.viewport.mapRect
        var info = RenderInfo(
            format: track.format.rawValue, name: track.name, fixes: track.fixCount, fixesKept: cleaned.fixCount,
            dropped: report, segments: projection.segments.count, verticesDrawn: polylines.reduce(0) { $0 + $1.count },
            distanceM: stats.distanceMeters, durationS: stats.durationSeconds, elevationGainM: stats.elevationGainMeters,
            startTime: stats.startTimeSeconds, width: frame.viewport.widthPixels, height: frame.viewport.heightPixels, scale: options.scale,
            strokeWidthPx: frame.strokeWidthPixels, viewportEpsg3857: [rect.minX, rect.minY, rect.maxX, rect.maxY])
        info.endTime = stats.endTimeSeconds
        info.movingTimeS = stats.movingSeconds
        info.movingDistanceM = stats.movingDistanceMeters
        info.bbox = projection.boundsLonLat
        if let first = cleaned.segments.first(where: { !$0.fixes.isEmpty })?.fixes.first {
            info.startLonLat = [first.longitudeDegrees, first.latitudeDegrees]
        }
        info.activity = track.activity
        info.utcOffsetRecordedS = track.recordedUTCOffsetSeconds
        info.compressed = track.wasCompressed ? true : nil
        info.notes = track.notes.isEmpty ? nil : track.notes
        return info
    }
}

/// Measures consecutive stages with the monotonic clock.
struct StageClock {
    private var last = ContinuousClock.now

    /// Seconds since the previous lap (or creation).
    mutating func lap() -> Double {
        let now = ContinuousClock.now
        let elapsed = now - last
        last = now
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension SnapshotRenderer {
    /// The style a vector basemap is drawn with: the user's document (read once per scratch, so
    /// once per worker), or the built-in one, dark when the map paper is dark.
    static func vectorMapStyle(_ settings: BasemapSettings, options: RenderOptions, scratch: RenderScratch) throws(SnapshotError) -> VectorMapStyle {
        guard let text = settings.mapStyle else {
            let paper = options.style.grid.paper
            let luminance = 0.2126 * Double(paper.red) + 0.7152 * Double(paper.green) + 0.0722 * Double(paper.blue)
            return .builtIn(dark: luminance < 128)
        }
        if let known = scratch.mapStyles[text] { return .document(known) }
        do throws(MapStyleError) {
            let document = try MapStyleDocument(bytes: Array(text.utf8))
            scratch.mapStyles[text] = document
            return .document(document)
        } catch {
            throw .invalidOptions("the map style: \(error)")
        }
    }
}
