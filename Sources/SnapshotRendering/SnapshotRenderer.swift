import MapGeometry
import PNGEncoding
import Raster
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
/// out. Pure apart from the clock: no files, no globals, safe to call from many threads at once.
///
/// ```swift
/// let snapshot = try SnapshotRenderer.render(trackBytes: bytes, fileName: "run.gpx", options: RenderOptions())
/// try write(snapshot.png)
/// ```
public enum SnapshotRenderer {
    /// The renderer's version, part of every cache key. Bump it whenever the same track and
    /// options would give different pixels, so caches re-render everything.
    public static let version = "1"

    /// Decodes, cleans, fits, simplifies, rasterizes and encodes one track.
    public static func render(
        trackBytes: UnsafeBufferPointer<UInt8>, fileName: String? = nil, options: RenderOptions = RenderOptions()
    ) throws(SnapshotError) -> RenderedSnapshot {
        if let problem = options.validationProblem() { throw .invalidOptions(problem) }
        var clock = StageClock()
        let track = try decode(trackBytes: trackBytes, fileName: fileName, options: options)
        let parse = clock.lap()
        var snapshot = try render(track: track, options: options)
        snapshot.timings.parse = parse
        return snapshot
    }

    /// The same, from an array of bytes.
    public static func render(
        trackBytes: [UInt8], fileName: String? = nil, options: RenderOptions = RenderOptions()
    ) throws(SnapshotError) -> RenderedSnapshot {
        try trackBytes.withUnsafeBufferPointer { buffer throws(SnapshotError) in
            try render(trackBytes: buffer, fileName: fileName, options: options)
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

    /// Renders an already decoded track (cleaning included).
    public static func render(track: Track, options: RenderOptions = RenderOptions()) throws(SnapshotError) -> RenderedSnapshot {
        if let problem = options.validationProblem() { throw .invalidOptions(problem) }
        var timings = StageTimings()
        var clock = StageClock()
        let fixesRead = track.fixCount
        let (cleaned, report) = TrackCleaner.clean(track, options: options.cleaning)
        guard cleaned.fixCount > 0 else {
            throw .noValidFixes(
                format: track.format, fixesRead: fixesRead, invalid: report.invalid, duplicates: report.duplicates,
                spikes: report.spikes)
        }
        let stats = TrackStatistics.stats(of: cleaned, options: options.cleaning)
        timings.clean = clock.lap()

        let projection = ProjectedTrack(cleaned)
        let frame = FramePlan(projection: projection, options: options)
        timings.fit = clock.lap()

        let bands = RouteBands(track: cleaned, projection: projection, coloring: options.style.coloring, count: options.style.bandColors.count)
        let pieces = bands?.runs.map(\.points) ?? projection.segments
        let polylines = pieces.map { piece in
            DouglasPeucker.simplify(piece.map(frame.viewport.pixel), tolerancePixels: options.simplificationTolerancePixels)
        }
        timings.simplify = clock.lap()

        let canvas = SnapshotPainter.paint(polylines: polylines, bands: bands?.runs.map(\.band), frame: frame, options: options)
        timings.raster = clock.lap()

        let png: [UInt8]
        do {
            png = try PNGEncoder.encode(canvas, settings: options.png)
        } catch {
            throw .encoding(error)
        }
        timings.encode = clock.lap()

        let rect = frame.viewport.mapRect
        var info = RenderInfo(
            format: track.format.rawValue, name: track.name, fixes: fixesRead, fixesKept: cleaned.fixCount,
            dropped: report, segments: projection.segments.count, verticesDrawn: polylines.reduce(0) { $0 + $1.count },
            distanceM: stats.distanceMeters, durationS: stats.durationSeconds, elevationGainM: stats.elevationGainMeters,
            startTime: stats.startTimeSeconds, width: canvas.width, height: canvas.height, scale: options.scale,
            strokeWidthPx: frame.strokeWidthPixels, viewportEpsg3857: [rect.minX, rect.minY, rect.maxX, rect.maxY])
        info.endTime = stats.endTimeSeconds
        info.movingTimeS = stats.movingSeconds
        info.movingDistanceM = stats.movingDistanceMeters
        info.bbox = projection.boundsLonLat
        if let first = cleaned.segments.first(where: { !$0.fixes.isEmpty })?.fixes.first {
            info.startLonLat = [first.longitudeDegrees, first.latitudeDegrees]
        }
        info.activity = track.activity
        info.compressed = track.wasCompressed ? true : nil
        info.notes = track.notes.isEmpty ? nil : track.notes
        return RenderedSnapshot(png: png, info: info, timings: timings)
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
