import FileStore
import Foundation

/// `make bench` section "raster" (issue 24): the default four images of a region's tracks over
/// OSM-style raster tiles (256-px 8-bit palette PNGs of ~1–3 KB, as OpenStreetMap's tile servers
/// send), against the grid in the same `tracksnap run --workers 1` and against Mapnik drawing the
/// same tiles, viewports and sizes through GDAL's MBTiles driver (scripts/mapnik_raster_bench.py).
///
/// - tiles: `make raster-tiles` (scripts/raster-tiles-from-vector.py draws them with Mapnik from
///   the vector tiles, ~3–10 min; kept in WORK/raster/). Without them the section is skipped.
/// - tracks: the vector section's `RegionTracks` loops in Liechtenstein (WORK/vector/tracks).
/// - grid and raster runs alternate, cold (fresh queue and output), median of `runs`; CPU time of
///   the run and its worker is the figure to compare on a shared machine.
enum RasterBenchmark {
    static func run(work: String, trackCount: Int = 24, runs: Int = 3) throws {
        let tracksnap = ".build/release/tracksnap"
        guard FileManager.default.isExecutableFile(atPath: tracksnap) else { throw DevToolError("build \(tracksnap) first (make bench does)") }
        let folder = work + "/raster"
        let mbtiles = folder + "/liechtenstein-osm.mbtiles"
        guard FileManager.default.fileExists(atPath: mbtiles) else {
            print("\nRaster: no OSM-style raster tiles (\(mbtiles): `make raster-tiles` draws them); section skipped")
            return
        }
        try FileStore.createDirectories(work + "/vector")
        let archive = try VectorBenchmark.writeTracks(work + "/vector/tracks", count: trackCount)
        print(
            "\nRaster: \(trackCount) generated tracks in Liechtenstein over OSM-style palette tiles, the default four images each, cold `tracksnap run --workers 1`, median of \(runs)"
        )
        var grid: [(wall: Double, cpu: Double)] = [], raster: [(wall: Double, cpu: Double)] = []
        let root = folder + "/grid", rasterRoot = folder + "/raster-run"
        for _ in 0..<runs {
            grid.append(try VectorBenchmark.timedRun(tracksnap, archive: archive, root: root, extra: [], tracks: trackCount))
            raster.append(
                try VectorBenchmark.timedRun(tracksnap, archive: archive, root: rasterRoot, extra: ["--basemap", mbtiles], tracks: trackCount))
        }
        let gridCPU = Benchmark.median(grid.map(\.cpu)), rasterCPU = Benchmark.median(raster.map(\.cpu))
        print(
            "  grid, a track (run / tracks):  \(format(Benchmark.median(grid.map(\.wall)), 1)) ms wall, \(format(gridCPU, 1)) ms CPU (runs: \(grid.map { format($0.cpu, 1) }.joined(separator: ", ")) ms CPU), \(try VectorBenchmark.pngKilobytes(root + "/Output", tracks: trackCount)) KB of PNG"
        )
        print(
            "  TrackSnap raster, a track:     \(format(Benchmark.median(raster.map(\.wall)), 1)) ms wall, \(format(rasterCPU, 1)) ms CPU (runs: \(raster.map { format($0.cpu, 1) }.joined(separator: ", ")) ms CPU), \(try VectorBenchmark.pngKilobytes(rasterRoot + "/Output", tracks: trackCount)) KB of PNG (goal ≤ 500); \(format(rasterCPU / gridCPU, 2))x the grid's CPU (goal ≤ 5x)"
        )
        let images = try VectorBenchmark.imagesOfRun(root + "/Output", archive: archive)
        guard let mapnik = VectorBenchmark.mapnikTimes(script: "mapnik_raster_bench.py", mbtiles: mbtiles, images: images, runs: runs, folder: folder)
        else {
            print("  Mapnik: not available (install python3-mapnik and gdal-bin); no figures")
            return
        }
        var perTrack: [String: (cpu: Double, bytes: Int)] = [:]
        for (image, result) in zip(images, mapnik) {
            let sum = perTrack[image.track, default: (0, 0)]
            perTrack[image.track] = (sum.cpu + result.cpu, sum.bytes + result.bytes)
        }
        let cpu = Benchmark.median(perTrack.values.map(\.cpu))
        print(
            "  Mapnik \(Benchmark.mapnikVersion()) + GDAL MBTiles, bilinear, route on top, png8, a track (four images): \(format(cpu, 0)) ms CPU, \(perTrack.values.reduce(0) { $0 + $1.bytes } / max(1, perTrack.count) / 1024) KB of PNG; TrackSnap raster is \(format(cpu / rasterCPU, 1))x faster (goal ≥ 6x)"
        )
    }
}
