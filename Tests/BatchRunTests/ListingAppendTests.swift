import FileStore
import Foundation
import Testing
import TrackSynthesis

/// A refresh that only adds tracks newer than every listed one (`ListingBuilder.appendNewest`):
/// it writes the site a listing from nothing writes, and a kill -9 at any of its steps leaves a
/// site the next listing repairs to it.
@Suite(.serialized) struct ListingAppendTests {
    /// Whether a listing took the short way: it writes `listing-order` in place (the full
    /// refresh replaces it), so the file keeps its inode.
    private static func orderInode(_ sandbox: RunSandbox) throws -> UInt64? {
        try FileStore.status(sandbox.output + "/.tracksnap/listing-order")?.inode
    }

    @Test func newerTracksAddedTheShortWayListAsAListingFromNothingDoes() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(5, fixCount: 60)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        // One newer track (a new month, the last page filled), then two (a new page).
        for (round, count) in [1, 2].enumerated() {
            // The folders the stamp snapshots must have settled (`DirectorySnapshot`).
            Thread.sleep(forTimeInterval: 2.1)
            let inode = try #require(try Self.orderInode(sandbox))
            try writeNewerTracks(sandbox, count, month: round + 6)
            try sandbox.enqueueArchive()
            #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
            #expect(try Self.orderInode(sandbox) == inode, "round \(round): not added the short way")
        }
        let added = try ListingCrashTests.publishedFiles(sandbox.output)
        #expect(sandbox.listedTracks().count == 8)
        #expect(added.keys.contains("page-4.html") && added.keys.contains("index/part-4.json"))

        // The same tracks listed from nothing: the listing's state and pages gone.
        for state in ["listing", "listing-cache", "listing-order", "pages", "pages-tracks", "catalog"] {
            try FileStore.remove(sandbox.output + "/.tracksnap/" + state)
        }
        try FileManager.default.removeItem(atPath: sandbox.output + "/tracks")
        for name in try FileStore.listDirectory(sandbox.output) where name.hasPrefix("page-") || name.hasPrefix("index.") {
            try FileStore.remove(sandbox.output + "/" + name)
        }
        for name in try FileStore.listDirectory(sandbox.output + "/index") where name.hasPrefix("part-") {
            try FileStore.remove(sandbox.output + "/index/" + name)
        }
        try ListingCrashTests.listing(sandbox)
        #expect(try ListingCrashTests.publishedFiles(sandbox.output) == added)
    }

    /// The short way draws the overview over the run's map, as a listing from nothing does (it
    /// once drew the new track's pictures over the grid paper: the map was not handed on).
    @Test func theShortWayDrawsTheOverviewOverTheRunsMap() throws {
        let sandbox = try RunSandbox()
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        // The generated tracks start in Paris.
        let paris = sandbox.root + "/paris.mbtiles"
        _ = try TileSetMaker.writeMBTiles(paris, kind: .position, boundsLonLat: [2.28, 48.82, 2.42, 48.90], zooms: 13...14)
        let arguments = ["--style", sandbox.thumbnailsOnlyStyle, "--basemap", paris]
        try sandbox.writeTracks(3, fixCount: 60)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(arguments).status == 0)
        Thread.sleep(forTimeInterval: 2.1)
        let inode = try #require(try Self.orderInode(sandbox))
        try writeNewerTracks(sandbox, 1, month: 6)
        try sandbox.enqueueArchive()
        let run = try sandbox.runQueue(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.orderInode(sandbox) == inode, "not added the short way")
        let short = try overviewPictures(sandbox.output)
        #expect(short.count >= 4)

        // From nothing: the overview's state, pictures and the listing's stamp gone.
        try FileManager.default.removeItem(atPath: sandbox.output + "/.tracksnap/overview")
        try FileManager.default.removeItem(atPath: sandbox.output + "/overview")
        try FileStore.remove(sandbox.output + "/.tracksnap/listing")
        let listing = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output] + arguments)
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(try overviewPictures(sandbox.output) == short)
    }

    /// Every overview picture under `output`, by name.
    private func overviewPictures(_ output: String) throws -> [String: [UInt8]] {
        var pictures: [String: [UInt8]] = [:]
        for name in try FileStore.listDirectory(output + "/overview") where name.hasSuffix(".png") {
            pictures[name] = try FileStore.readFile(output + "/overview/" + name)
        }
        return pictures
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ListingCrashTests.strace)))
    func killNineAtEveryStepOfAShortRefreshLeavesASiteTheNextListingRepairs() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(5, fixCount: 60)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        let listedFive = sandbox.root + "/listed-five"
        try linkedCopy(sandbox.output, to: listedFive)
        try writeNewerTracks(sandbox, 1, month: 6)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        // The start: the new track acked and published, the site and the listing's state as
        // before it (a run killed before its listing).
        let start = sandbox.root + "/start"
        try linkedCopy(listedFive, to: start)
        for folder in ["thumbs", ".tracksnap/records"] {
            try FileManager.default.removeItem(atPath: start + "/" + folder)
            try ListingCrashTests.copy(sandbox.output + "/" + folder, to: start + "/" + folder)
        }
        try restore(start, into: sandbox)
        let inode = try Self.orderInode(sandbox)
        try ListingCrashTests.listing(sandbox)
        #expect(try Self.orderInode(sandbox) == inode, "the listing did not take the short way")
        let expected = try ListingCrashTests.publishedFiles(sandbox.output)
        #expect(sandbox.listedTracks().count == 6)

        let kills = try ListingCrashTests.killEverywhere(sandbox, expected: expected) { try restore(start, into: sandbox) }
        #expect(kills > 10, "the listing was killed only \(kills) times: the test no longer reaches its writes")
    }

    /// Writes `count` tracks dated in `month` of 2024 (the others are of May), newer than every
    /// track of `RunSandbox.writeTracks`, into the archive.
    private func writeNewerTracks(_ sandbox: RunSandbox, _ count: Int, month: Int) throws {
        let names = try sandbox.writeTracks(count, fixCount: 60, seed: UInt64(100 * month), prefix: "newer-\(month)")
        for name in names {
            let path = sandbox.archive + "/" + name
            let text = String(decoding: try FileStore.readFile(path), as: UTF8.self)
            #expect(text.contains("2024-05-"))
            let dated = text.replacingOccurrences(of: "2024-05-", with: String(format: "2024-%02d-", month))
            try FileStore.writeAtomically(Array(dated.utf8), to: path)
            sandbox.age(path, seconds: 3600)
        }
    }

    /// Replaces the sandbox's Output/ with `folder` (`linkedCopy`), its stamp made to name the
    /// copy (`restamp`).
    private func restore(_ folder: String, into sandbox: RunSandbox) throws {
        try? FileManager.default.removeItem(atPath: sandbox.output)
        try linkedCopy(folder, to: sandbox.output)
        try restamp(sandbox.output)
    }

    /// A copy of an Output/ folder as it is, as far as the listing can tell: its files
    /// hard-linked (the same inodes, which the page manifest checks; every published file is
    /// replaced by rename, never written in place), the journals the listing appends to copied.
    private func linkedCopy(_ source: String, to destination: String) throws {
        try ListingCrashTests.copy(source, to: destination, linking: true)
        for journal in ["catalog", "listing-cache", "listing-order", "pages", "pages-tracks"] {
            let path = destination + "/.tracksnap/" + journal
            let bytes = try FileStore.readFile(path)
            try FileStore.remove(path)
            try FileStore.writeAtomically(bytes, to: path)
        }
    }

    /// A copy has new folders and journals: the stamp's snapshot of `tracks/` and the inodes of
    /// the state files it names are set to the copy's, and the stamp dated 3 s ahead so that the
    /// snapshot counts as settled.
    private func restamp(_ output: String) throws {
        let path = output + "/.tracksnap/listing"
        var lines = String(decoding: try FileStore.readFile(path), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        let state = output + "/.tracksnap/"
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("details ") {
                let folder = try #require(try FileStore.status(output + "/tracks"))
                lines[index] = "details \(folder.modificationNanoseconds) \(folder.statusChangeNanoseconds) \(folder.inode)"
            } else if line.hasPrefix("state ") {
                var fields = line.dropFirst(6).split(separator: " ").map(String.init)
                for (slot, file) in [(1, "catalog"), (3, "listing-cache"), (5, "listing-order")] {
                    fields[slot] = String(try #require(try FileStore.status(state + file)).inode)
                }
                lines[index] = "state " + fields.joined(separator: " ")
            }
        }
        try FileStore.writeAtomically(Array(lines.joined(separator: "\n").utf8), to: path)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3)], ofItemAtPath: path)
    }
}
