import FileStore
import Foundation
import Testing
import TrackSynthesis

/// The overview over the run's basemap, through real runs: drawn with the map, left alone by an
/// unchanged run, drawn again for another map, back to the grid's very bytes without one; a
/// listing given no settings draws the runs' map, and one whose map is gone says so and keeps the
/// site.
@Suite struct OverviewBasemapRunTests {
    /// Every overview picture (regions, thumbnails, years), by path under Output/.
    private func pictures(_ sandbox: RunSandbox) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in try FileStore.listDirectory(sandbox.output + "/overview") where name.hasSuffix(".png") {
            result["overview/" + name] = try FileStore.readFile(sandbox.output + "/overview/" + name)
        }
        return result
    }

    private func modificationTimes(_ sandbox: RunSandbox) throws -> [String: Int64] {
        var times: [String: Int64] = [:]
        for path in try pictures(sandbox).keys {
            times[path] = try #require(try FileStore.statusFollowingLinks(sandbox.output + "/" + path)).modificationNanoseconds
        }
        return times
    }

    @Test func theMapIsUnderEveryPictureAndDecidesWhenTheyAreDrawn() throws {
        let sandbox = try RunSandbox(detailImages: true)
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        let style = ["--style", sandbox.thumbnailsOnlyStyle]
        #expect(try sandbox.runQueue(style).status == 0)
        let grid = try pictures(sandbox)
        // One region of one year: its picture at @1x and @2x in 8 × 6 tiles each, and its two thumbnails.
        #expect(grid.count == 98 && grid.values.allSatisfy(RunSandbox.isCompletePNG), "\(grid.keys.sorted())")

        // The generated tracks start in Paris.
        let paris = sandbox.root + "/paris.mbtiles", other = sandbox.root + "/other.mbtiles"
        _ = try TileSetMaker.writeMBTiles(paris, kind: .position, boundsLonLat: [2.28, 48.82, 2.42, 48.90], zooms: 13...14)
        _ = try TileSetMaker.writeMBTiles(other, kind: .map, boundsLonLat: [2.28, 48.82, 2.42, 48.90], zooms: 13...13)
        let mapped = try sandbox.runQueue(style + ["--basemap", paris])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        let overParis = try pictures(sandbox)
        #expect(overParis.count == 98 && overParis.values.allSatisfy(RunSandbox.isCompletePNG))
        #expect(Set(overParis.values).isDisjoint(with: Set(grid.values)), "every picture has the map under it")

        // Unchanged: no picture is written again.
        let times = try modificationTimes(sandbox)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(style + ["--basemap", paris, "--quiet"]).status == 0)
        #expect(try modificationTimes(sandbox) == times)

        // A track added and forgotten again: over the map too, the pictures come back byte for byte.
        let added = try sandbox.writeTracks(1, seed: 900, prefix: "new")
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(style + ["--basemap", paris]).status == 0)
        #expect(try pictures(sandbox) != overParis)
        let forget = try sandbox.run(["forget", sandbox.archive + "/" + added[0], "--jobs", sandbox.jobs])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(try sandbox.runQueue(style + ["--basemap", paris]).status == 0)
        #expect(try pictures(sandbox) == overParis)

        // A listing given no settings draws the runs' map: asked to redraw (a picture lost), the same bytes.
        let lost = try #require(overParis.keys.sorted().first)
        try FileStore.remove(sandbox.output + "/" + lost)
        try FileStore.remove(sandbox.output + "/.tracksnap/listing")
        let listing = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(try pictures(sandbox) == overParis)

        // Another map: every picture drawn again.
        let remapped = try sandbox.runQueue(style + ["--basemap", other])
        #expect(remapped.status == 0, "\(remapped.stderr)")
        let overOther = try pictures(sandbox)
        #expect(Set(overOther.values).isDisjoint(with: Set(overParis.values)))

        // Its file gone, a listing keeps the site, draws over the grid and names the file.
        try FileStore.remove(other)
        try FileStore.remove(sandbox.output + "/.tracksnap/listing")
        // (Another map is another cache key: the tracks' ids, and so the regions' file names, changed.)
        try FileStore.remove(sandbox.output + "/" + (try #require(overOther.keys.sorted().first)))
        let orphaned = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(orphaned.status == 0 && orphaned.stderr.contains(other), "\(orphaned.stderr)")
        #expect(try pictures(sandbox).count == 98)
        // Not whole, the overview is drawn again by the next listing, which says so again.
        let again = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(again.status == 0 && again.stderr.contains(other), "\(again.stderr)")

        // Back to the grid: the pictures of the first run, byte for byte.
        #expect(try sandbox.runQueue(style).status == 0)
        #expect(Set(try pictures(sandbox).values) == Set(grid.values))
        #expect(sandbox.visibleOutputProblems().isEmpty)
    }

    /// `tracksnap overview --basemap`: the poster over the map (other bytes than over the grid,
    /// the map's credit in its corner), and a poster that would fetch a tile server's city refused
    /// before any tile is asked for.
    @Test func thePosterDrawsTheMapUnderItAndBoundsItsTiles() throws {
        let sandbox = try RunSandbox()
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let paris = sandbox.root + "/paris.mbtiles"
        _ = try TileSetMaker.writeMBTiles(paris, kind: .position, boundsLonLat: [2.28, 48.82, 2.42, 48.90], zooms: 13...14)
        let gridPoster = sandbox.root + "/grid.png", mapPoster = sandbox.root + "/map.png"
        let size = ["--size", "600x400"]
        let grid = try sandbox.run(["overview", "--output", sandbox.output, "--poster", gridPoster] + size)
        #expect(grid.status == 0, "\(grid.stderr)")
        let map = try sandbox.run(["overview", "--output", sandbox.output, "--poster", mapPoster, "--basemap", paris] + size)
        #expect(map.status == 0 && map.stderr.isEmpty, "\(map.stderr)")
        let gridBytes = try FileStore.readFile(gridPoster), mapBytes = try FileStore.readFile(mapPoster)
        #expect(RunSandbox.isCompletePNG(mapBytes) && mapBytes != gridBytes)
        #expect(map.stdout.contains("3 track(s), "), "\(map.stdout)")

        // 64 megapixels of a tile server's tiles: refused, naming the count and the bound (port 9
        // is discard: were a tile asked for, the poster would fail otherwise).
        let server = "http://127.0.0.1:9/{z}/{x}/{y}.png"
        let city = try sandbox.run(["overview", "--output", sandbox.output, "--poster", mapPoster, "--basemap", server, "--size", "8000x8000"])
        #expect(city.status == 2 && city.stderr.contains("at most 512"), "\(city.stderr)")
        #expect(try FileStore.readFile(mapPoster) == mapBytes, "the earlier poster is left as it was")
    }
}
