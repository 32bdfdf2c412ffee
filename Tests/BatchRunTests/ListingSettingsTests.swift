import FileStore
import Foundation
import Testing
import TrackSynthesis

/// A listing given other settings than the runs rendered with must not unlist and prune the
/// published site (issue 21, item 1): without settings it takes the runs' own; with different
/// ones it refuses (exit 2) and names the difference, unless `--override-settings` asks for it.
@Suite struct ListingSettingsTests {
    /// Image files and detail pages of the site, relative to Output/.
    private func publishedFiles(_ sandbox: RunSandbox) -> [String] {
        let thumbs = ((try? FileStore.listDirectory(sandbox.output + "/thumbs")) ?? []).filter { !$0.hasPrefix(".") }.map { "thumbs/" + $0 }
        let pages = ((try? FileStore.listDirectory(sandbox.output + "/tracks")) ?? []).filter { !$0.hasPrefix(".") }.map { "tracks/" + $0 }
        return (thumbs + pages).sorted()
    }

    /// Three tracks rendered over an MBTiles basemap (the generated tracks start in Paris).
    private func basemapSite(detailImages: Bool) throws -> (sandbox: RunSandbox, mbtiles: String) {
        let sandbox = try RunSandbox(detailImages: detailImages)
        try sandbox.writeTracks(3, fixCount: 60)
        let mbtiles = sandbox.root + "/paris.mbtiles"
        try TileSetMaker.writeMBTiles(mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 13...15)
        sandbox.age(mbtiles, seconds: 600)
        try sandbox.enqueueArchive()
        let run = try sandbox.runQueue(["--basemap", mbtiles])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(sandbox.listedTracks().count == 3)
        return (sandbox, mbtiles)
    }

    @Test func aListingWithoutSettingsListsWhatTheRunsRenderedUnderABasemap() throws {
        let (sandbox, _) = try basemapSite(detailImages: true)
        let before = publishedFiles(sandbox)
        #expect(before.count == 3 * 5)
        // As the Slurm fan-in without TRACKSNAP_ARGS does: no style, no basemap.
        let listing = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(
            listing.stderr.contains("listed 3 track(s) (0 finished job(s) not rendered under these settings, 0 file(s) pruned)"), "\(listing.stderr)")
        #expect(publishedFiles(sandbox) == before)
        #expect(sandbox.listedTracks().count == 3)
    }

    @Test func aListingWithADifferentBasemapStampStyleOrColoringIsRefusedAndNamesIt() throws {
        let (sandbox, mbtiles) = try basemapSite(detailImages: false)
        let before = publishedFiles(sandbox)
        let index = try FileStore.readFile(sandbox.output + "/index.json")
        let listing = ["listing", "--jobs", sandbox.jobs, "--output", sandbox.output]
        // The same settings are accepted.
        let same = try sandbox.run(listing + ["--basemap", mbtiles])
        #expect(same.status == 0 && same.stderr.contains("listed 3 track(s)"), "\(same.stderr)")
        // The map file touched: its content stamp differs from the one the runs keyed images with.
        sandbox.age(mbtiles, seconds: 30)
        let touched = try sandbox.run(listing + ["--basemap", mbtiles])
        #expect(touched.status == 2, "\(touched.stderr)")
        #expect(touched.stderr.contains("basemap.contentStamp") && touched.stderr.contains("--override-settings"), "\(touched.stderr)")
        // No basemap, another colouring.
        let grid = try sandbox.run(listing)
        #expect(grid.status == 2 && grid.stderr.contains("basemap"), "\(grid.stderr)")
        let colored = try sandbox.run(listing + ["--basemap", mbtiles, "--color-by", "speed"])
        #expect(colored.status == 2 && colored.stderr.contains("coloring"), "\(colored.stderr)")
        #expect(publishedFiles(sandbox) == before)
        #expect(try FileStore.readFile(sandbox.output + "/index.json") == index)
        // Asked for explicitly: listed under these settings (nothing was rendered under them).
        let overridden = try sandbox.run(listing + ["--override-settings"])
        #expect(overridden.status == 0 && overridden.stderr.contains("listed 0 track(s) (3 finished job(s) not rendered"), "\(overridden.stderr)")
    }

    @Test func aListingMissingTheRunsColoringIsRefusedAndWithoutOptionsUsesIt() throws {
        let sandbox = try RunSandbox(detailImages: true)
        try sandbox.writeTracks(2, fixCount: 60)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--color-by", "speed"]).status == 0)
        let before = publishedFiles(sandbox)
        let listing = ["listing", "--jobs", sandbox.jobs, "--output", sandbox.output]
        let uncolored = try sandbox.run(listing + ["--theme", "light"])
        #expect(uncolored.status == 2 && uncolored.stderr.contains("coloring"), "\(uncolored.stderr)")
        let dark = try sandbox.run(listing + ["--theme", "dark", "--color-by", "speed"])
        #expect(dark.status == 2 && dark.stderr.contains("style"), "\(dark.stderr)")
        let plain = try sandbox.run(listing)
        #expect(plain.status == 0 && plain.stderr.contains("listed 2 track(s)"), "\(plain.stderr)")
        #expect(publishedFiles(sandbox) == before && sandbox.listedTracks().count == 2)
    }
}
