import FileStore
import Foundation
import MapTiles
import SnapshotRendering
import StyleFile
import TileSources
import TrackModel
import TrackSynthesis

/// `make bench` section "basemap" (issue 15): the default four images per track over an MBTiles
/// basemap against the same tracks on the grid, in this process, without fsync.
///
/// - grid: 200 tracks in one region, the default settings.
/// - warm: the same tracks over an MBTiles file of the region, one worker's tile cache (128 MiB)
///   kept across tracks, as a worker rendering an archive of one region does.
/// - cold: the same tracks with an empty tile cache for every track, so every tile is read from
///   SQLite and decoded: the cost of tracks spread over a continent, where no two tracks share a
///   tile. (A continent's MBTiles at zoom 16 cannot be generated here; emptying the cache gives
///   the same work per track without it.)
enum BasemapBenchmark {
    static let region = (latitude: 46.95, longitude: 7.45)
    static let bounds = [7.15, 46.75, 7.75, 47.15]

    static func run(work: String, trackCount: Int = 200) throws {
        let mbtiles = work + "/region.mbtiles"
        if !FileManager.default.fileExists(atPath: mbtiles) {
            let start = ContinuousClock.now
            let count = try TileSetMaker.writeMBTiles(mbtiles, kind: .map, boundsLonLat: bounds, zooms: 8...16)
            print("generated \(mbtiles): \(count) tiles in \(format(seconds(ContinuousClock.now - start), 1)) s")
        }
        let tracks = (0..<trackCount).map { track(seed: UInt64($0) + 1) }
        let settings = ThumbnailSettings()
        let grid = settings.images.map(settings.options(for:))
        var basemap = BasemapSettings(source: mbtiles)
        basemap.contentStamp = BasemapOpener.contentStamp(of: mbtiles)
        let mapped = grid.map { options -> RenderOptions in
            var options = options
            options.basemap = basemap
            return options
        }
        let opener = BasemapOpener(tileCacheDirectory: work + "/tile-cache")
        let scratch = RenderScratch()
        print("\nBasemap: \(trackCount) tracks (5–30 km) in one region, the default four images each, in-process, no fsync")

        _ = try SnapshotRenderer.render(track: tracks[0], images: grid, scratch: scratch)
        let gridTimes = try tracks.map { track in try time { _ = try SnapshotRenderer.render(track: track, images: grid, scratch: scratch) } }

        let warmTiles = try opener.open(basemap)
        var bytes = 0, drawn = 0, failed = 0
        var rasterSeconds = 0.0, encodeSeconds = 0.0
        let warmTimes = try tracks.map { track in
            try time {
                let snapshots = try SnapshotRenderer.render(track: track, images: mapped, scratch: scratch, tiles: warmTiles)
                bytes += snapshots.reduce(0) { $0 + $1.png.count }
                for snapshot in snapshots {
                    rasterSeconds += snapshot.timings.raster
                    encodeSeconds += snapshot.timings.encode
                    drawn += snapshot.info.basemap?.tiles ?? 0
                    failed += snapshot.info.basemap?.tilesFailed ?? 0
                }
            }
        }
        // The same with a cache four times the default: how much of "warm" is the bound.
        var large = opener
        large.memoryCacheBytes = 512 << 20
        let largeTiles = try large.open(basemap)
        let largeTimes = try tracks.map { track in
            try time { _ = try SnapshotRenderer.render(track: track, images: mapped, scratch: scratch, tiles: largeTiles) }
        }
        var decodedCold = 0
        let coldTimes = try tracks.map { track in
            let tiles = try opener.open(basemap)
            let elapsed = try time { _ = try SnapshotRenderer.render(track: track, images: mapped, scratch: scratch, tiles: tiles) }
            decodedCold += tiles.tilesRead
            return elapsed
        }
        // One tile's cost alone: SQLite read, then decode (libdeflate into reused buffers, as a
        // worker does), over 300 tiles.
        let source = try MBTilesSource(path: mbtiles)
        let sample = Array(TileSetMaker.coordinates(boundsLonLat: bounds, zoom: 15).prefix(300))
        var encoded: [[UInt8]] = []
        let readTime = try time {
            for coordinate in sample { if let bytes = try source.tileBytes(coordinate, limit: 4 << 20) { encoded.append(bytes) } }
        }
        let reader = PNGTileReader()
        let decodeTime = try time { for bytes in encoded { _ = TileDecoder.decode(bytes, reader: reader) } }
        let gridMedian = Benchmark.median(gridTimes), warmMedian = Benchmark.median(warmTimes), coldMedian = Benchmark.median(coldTimes)
        print("  grid:               \(format(gridMedian * 1000, 2)) ms a track (median), \(format(gridTimes.reduce(0, +), 2)) s in all")
        print(
            "  MBTiles, warm:      \(format(warmMedian * 1000, 2)) ms a track, \(format(warmTimes.reduce(0, +), 2)) s in all → \(format(warmMedian / gridMedian, 2))x the grid (goal ≤ 2x)"
        )
        let largeMedian = Benchmark.median(largeTimes)
        print(
            "  MBTiles, warm, 512 MiB tile cache: \(format(largeMedian * 1000, 2)) ms a track → \(format(largeMedian / gridMedian, 2))x the grid; \(largeTiles.cache.misses / trackCount) tiles decoded a track, \(largeTiles.cache.hits / trackCount) from the cache"
        )
        print(
            "  MBTiles, cold:      \(format(coldMedian * 1000, 2)) ms a track, \(format(coldTimes.reduce(0, +), 2)) s in all → \(format(coldMedian / gridMedian, 2))x the grid; \(decodedCold / trackCount) tiles read and decoded a track"
        )
        print(
            "  warm, where the time goes (means a track): drawing \(format(rasterSeconds / Double(trackCount) * 1000, 1)) ms (tiles read, decoded, resampled; grid, route), PNG encoding \(format(encodeSeconds / Double(trackCount) * 1000, 1)) ms"
        )
        print(
            "  one tile (zoom 15, \(encoded.reduce(0) { $0 + $1.count } / max(1, encoded.count) / 1024) KB PNG): read from SQLite \(format(readTime / Double(max(1, encoded.count)) * 1e6, 0)) µs, decoded \(format(decodeTime / Double(max(1, encoded.count)) * 1e6, 0)) µs"
        )
        print(
            "  warm tile cache: \(warmTiles.cache.heldBytes >> 20) MiB held of \(warmTiles.cache.capacityBytes >> 20) MiB, \(warmTiles.cache.hits) hits, \(warmTiles.cache.misses) tiles decoded; \(drawn / trackCount) tiles drawn a track, \(failed) failed; \(bytes / trackCount / 1024) KB of PNG a track"
        )
    }

    /// A wandering route of 5–30 km starting within 0.1° of the region's centre.
    static func track(seed: UInt64) -> Track {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var latitude = region.latitude + (random() - 0.5) * 0.2, longitude = region.longitude + (random() - 0.5) * 0.2
        var heading = random() * 2 * Double.pi
        let steps = Int(500 + random() * 2500)  // 10 m each
        var fixes: [Fix] = []
        for step in 0..<steps {
            heading += (random() - 0.5) * 0.3
            latitude += cos(heading) * 10 / 111_320
            longitude += sin(heading) * 10 / (111_320 * cos(latitude * Double.pi / 180))
            fixes.append(Fix(latitudeDegrees: latitude, longitudeDegrees: longitude, timeSeconds: 1_700_000_000 + Double(step) * 3))
        }
        return Track(format: .gpx, segments: [TrackSegment(fixes: fixes)])
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        return seconds(ContinuousClock.now - start)
    }
}
