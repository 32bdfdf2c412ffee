import BatchRun
import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import StyleFile
import ThumbnailCache
import TileSources

extension VectorBenchmark {
    /// `bench --section vector-drawing`: the "drawing alone" figure by itself, `passes` times
    /// (`--queue-runs`), over the tiles and tracks `--section vector` left in WORK/vector: a quick
    /// comparison of two builds without the runs and Mapnik around it.
    static func runDrawingAlone(work: String, passes: Int) throws {
        let folder = work + "/vector", mbtiles = folder + "/liechtenstein.mbtiles"
        guard FileManager.default.fileExists(atPath: mbtiles) else { throw DevToolError("no \(mbtiles): run bench --section vector first") }
        let archive = try writeTracks(folder + "/tracks", count: 24)
        var figures: [Double] = []
        for _ in 0..<max(1, passes) { figures.append(try drawingAlone(archive: archive, mbtiles: mbtiles)) }
        print(
            "TrackSnap vector, drawing alone: \(figures.map { format($0, 1) }.joined(separator: ", ")) ms CPU a track (each the median over the tracks of one pass)"
        )
    }

    /// The four images of each track drawn in this process, as a worker draws them (the track
    /// decoded, cleaned and simplified, its images drawn and encoded, no files written), over
    /// tiles already in the worker's decoded-tile cache: the scope of Mapnik's figures, which time
    /// each image's render and PNG in a warm process. Returns the median CPU milliseconds a track.
    static func drawingAlone(archive: String, mbtiles: String) throws -> Double {
        var settings = ThumbnailSettings()
        var basemap = BasemapSettings(source: mbtiles)
        basemap.contentStamp = BasemapOpener.contentStamp(of: mbtiles)
        settings.options.basemap = basemap
        let renderer = ThumbnailRenderer(root: NSTemporaryDirectory() + "tracksnap-vector-bench", settings: settings)
        let tiles = try BasemapOpener(tileCacheDirectory: NSTemporaryDirectory() + "tracksnap-vector-bench-tiles").open(basemap)
        let scratch = RenderScratch()
        let files = try FileStore.listDirectory(archive).sorted().map { archive + "/" + $0 }
        let tracks = try files.map { (path: $0, bytes: try FileStore.readFile($0)) }
        // One pass to fill the tile cache and the scratch buffers, then the measured pass.
        var perTrack: [Double] = []
        for pass in 0..<2 {
            for track in tracks {
                let key = renderer.store.key(forTrackBytes: track.bytes)
                let start = Benchmark.processCPUSeconds()
                _ = try renderer.render(trackBytes: track.bytes, fileName: track.path, key: key, scratch: scratch, tiles: tiles)
                if pass == 1 { perTrack.append((Benchmark.processCPUSeconds() - start) * 1000) }
            }
        }
        return Benchmark.median(perTrack)
    }
}
