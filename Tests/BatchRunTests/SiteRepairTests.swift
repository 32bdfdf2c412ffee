import FileStore
import Foundation
import Testing

/// What the listing published is checked against its manifest and repaired (issue 21, item 3);
/// pages no manifest names and index-part temporaries are swept (issue 26, items 2 and 3).
@Suite struct SiteRepairTests {
    /// Five tracks, two per page: index.html, page-1..3, index/part-1..3, five detail pages.
    private func pagedSite() throws -> RunSandbox {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(5, fixCount: 60)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        #expect(sandbox.listedTracks().count == 5)
        return sandbox
    }

    @discardableResult
    private func listing(_ sandbox: RunSandbox) throws -> RunSandbox.Result {
        let result = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output, "--page-size", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        return result
    }

    @Test func aDeletedPartPageOrDetailPageAndAnEditedIndexAreWrittenAgain() throws {
        let sandbox = try pagedSite()
        let paths = [
            "index/part-2.json", "page-2.html", "index.json", "index.html", "tracks/" + (sandbox.listedTracks()[0]["id"] as! String) + ".html",
        ]
        let published = try Dictionary(uniqueKeysWithValues: paths.map { ($0, try FileStore.readFile(sandbox.output + "/" + $0)) })

        try FileStore.remove(sandbox.output + "/index/part-2.json")
        let afterPart = try listing(sandbox)
        #expect(
            afterPart.stderr.contains("listed 5 track(s)") && afterPart.stderr.contains("1 published file(s) were missing or changed"),
            "\(afterPart.stderr)")
        #expect(sandbox.listedTracks().count == 5)

        try FileStore.remove(sandbox.output + "/page-2.html")
        try FileStore.remove(sandbox.output + "/" + paths[4])
        try listing(sandbox)

        // Edited in place to the same size (only the time tells), and replaced by other bytes.
        let indexText = String(decoding: published["index.json"]!, as: UTF8.self)
        #expect(indexText.contains("\"tracks\":5,"))
        let forged = Array(indexText.replacingOccurrences(of: "\"tracks\":5,", with: "\"tracks\":9,").utf8)
        let handle = try #require(FileHandle(forWritingAtPath: sandbox.output + "/index.json"))
        try handle.write(contentsOf: Data(forged))
        try handle.close()
        try FileStore.writeAtomically(Array("<p>defaced</p>".utf8), to: sandbox.output + "/index.html")
        try listing(sandbox)

        for (path, bytes) in published {
            #expect(try FileStore.readFile(sandbox.output + "/" + path) == bytes, "\(path) was not repaired")
        }
        #expect(sandbox.listedTracks().count == 5)
    }

    /// A listing that died after writing detail pages (disk full) left a page no manifest names,
    /// here the old version of an edited track: file name, start time and bounds stay online.
    @Test func aDetailPageNoManifestNamesIsRemoved() throws {
        let sandbox = try pagedSite()
        let listed = sandbox.listedTracks()[0]["id"] as! String
        let orphan = sandbox.output + "/tracks/" + String(repeating: "5e", count: 32) + ".html"
        try FileStore.writeAtomically(try FileStore.readFile(sandbox.output + "/tracks/" + listed + ".html"), to: orphan)
        let strayPage = sandbox.output + "/page-7.html"
        try FileStore.writeAtomically(try FileStore.readFile(sandbox.output + "/page-1.html"), to: strayPage)
        try listing(sandbox)
        #expect(!FileStore.exists(orphan) && !FileStore.exists(strayPage))
        #expect(FileStore.exists(sandbox.output + "/tracks/" + listed + ".html"))
        // The same when something else changed too (the manifest then names other pages).
        try FileStore.writeAtomically(try FileStore.readFile(sandbox.output + "/tracks/" + listed + ".html"), to: orphan)
        try sandbox.writeTracks(1, fixCount: 60, seed: 40, prefix: "new")
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        #expect(!FileStore.exists(orphan))
        #expect(sandbox.listedTracks().count == 6)
    }

    /// kill -9 while index parts were written: their temporaries are swept like the others.
    @Test(arguments: ["index/.part-2.json", "index/overview/.0123456789abcdef.json"])
    func anIndexPartOrTileListTemporaryOfADeadRunIsSwept(name: String) throws {
        let sandbox = try pagedSite()
        let temporary = sandbox.output + "/" + name + ".tmp~otherhost~4242~1234567"
        try FileStore.writeAtomically(Array("{\"part\":2,".utf8), to: temporary)
        sandbox.age(temporary, seconds: 7200)
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        #expect(!FileStore.exists(temporary))
    }

    /// Runs that may not prune (shards, a stopped run, a listing during a run) leave the old
    /// version's images of an edited track; the next run that may prune removes them even when it
    /// has nothing to render (the soak found them kept until the archive changed again).
    @Test func imagesLeftByRunsThatMayNotPruneGoAtTheNextQuietRun() throws {
        let sandbox = try pagedSite()
        func imageKeys() throws -> Set<String> {
            Set(try FileStore.listDirectory(sandbox.output + "/thumbs").filter { !$0.hasPrefix(".") }.map { String($0.prefix(64)) })
        }
        #expect(try imageKeys().count == 5)
        try sandbox.writeTracks(1, fixCount: 60, seed: 99, prefix: "track")  // track-0.gpx edited
        try sandbox.enqueueArchive()
        for shard in ["0/2", "1/2"] { #expect(try sandbox.runQueue(["--page-size", "2", "--shard", shard]).status == 0) }
        #expect(try imageKeys().count == 6, "the shards pruned: the test no longer sets up what it means to")
        let quiet = try sandbox.runQueue(["--page-size", "2"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        let keys = try imageKeys()
        #expect(keys.count == 5, "the old version's images stay: \(keys.count) keys for 5 tracks")
        #expect(sandbox.listedTracks().count == 5)
    }

    /// An unreferenced image newer than a run's start (a superseded or forgotten job's render
    /// that landed while the run was going) is left by that run's prune, and removed by a later
    /// one even when nothing else changes.
    @Test func anOrphanTooNewToPruneIsPrunedByALaterRun() throws {
        let sandbox = try pagedSite()
        let key = String(repeating: "f", count: 64)
        let image = sandbox.output + "/thumbs/" + key + ".png"
        let record = sandbox.output + "/.tracksnap/records/" + key + ".json"
        let published = try #require(try FileStore.listDirectory(sandbox.output + "/thumbs").first { !$0.hasPrefix(".") })
        try FileStore.writeAtomically(try FileStore.readFile(sandbox.output + "/thumbs/" + published), to: image)
        try FileStore.writeAtomically(Array("{}".utf8), to: record)
        for path in [image, record] { sandbox.age(path, seconds: -3600) }  // written "after" the next run starts
        try sandbox.writeTracks(1, fixCount: 60, seed: 50, prefix: "new")  // so the run prunes
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        #expect(FileStore.exists(image), "pruned although newer than the run")
        for path in [image, record] { sandbox.age(path, seconds: 3600) }
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        #expect(!FileStore.exists(image) && !FileStore.exists(record), "an orphan stays once it is old enough to prune")
    }
}
