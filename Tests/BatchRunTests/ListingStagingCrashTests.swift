import FileStore
import Foundation
import Testing

/// A first listing of more tracks than a batch (256) publishes its detail pages through a staging
/// folder (`SiteWriter.writeIntoEmptyDetailFolder`: written under their final names in
/// `.tracksnap/staged-tracks/`, one `syncfs`, one rename over the empty `tracks/`). A kill -9
/// while it stages, at its `syncfs` or at the renames around it leaves nothing half-written in
/// view, and the next listing makes exactly what an uninterrupted one does.
@Suite(.serialized) struct ListingStagingCrashTests {
    static let trackCount = 260

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: ListingCrashTests.strace)))
    func killNineWhileAFirstListingStagesItsDetailPagesLeavesASiteTheNextListingRepairs() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(Self.trackCount, fixCount: 12)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "50"]).status == 0)
        // The start: every track published, no listing yet (its pages and state gone, as before a
        // first listing of an archive rendered elsewhere).
        let start = sandbox.root + "/start"
        try ListingCrashTests.copy(sandbox.output, to: start)
        for name in try FileManager.default.contentsOfDirectory(atPath: start) where name != "thumbs" && name != ".tracksnap" {
            try FileManager.default.removeItem(atPath: start + "/" + name)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: start + "/.tracksnap") where name != "records" && name != "lock" {
            try FileManager.default.removeItem(atPath: start + "/.tracksnap/" + name)
        }
        try restore(start, into: sandbox)
        try listing(sandbox)
        let expected = try ListingCrashTests.publishedFiles(sandbox.output)
        #expect(expected.keys.filter { $0.hasPrefix("tracks/") }.count == Self.trackCount)

        // Kills while pages are staged (the first writes are the staged pages), at the syncfs (the
        // listing's only one: its other files are few enough to be fsynced a batch at a time)
        // and at the first renames (the folder's is among them).
        let points: [(group: String, steps: [Int])] = [
            ("write,pwrite64", [1, Self.trackCount / 2, Self.trackCount - 1]), ("syncfs", [1]), ("rename,renameat,renameat2", Array(1...4)),
        ]
        var missed: [String] = [], killedWhileStaging = 0
        for (group, steps) in points {
            for step in steps {
                try restore(start, into: sandbox)
                let killed = try ListingCrashTests.listingKilled(sandbox, at: group, step: step, pageSize: 50)
                if !killed { missed.append("\(group) #\(step)") }
                if FileStore.exists(sandbox.output + "/.tracksnap/staged-tracks") { killedWhileStaging += 1 }
                #expect(sandbox.visibleOutputProblems() == [], "killed at \(group) #\(step)")
                try listing(sandbox)
                #expect(!FileStore.exists(sandbox.output + "/.tracksnap/staged-tracks"), "staging left after a kill at \(group) #\(step)")
                #expect(try ListingCrashTests.publishedFiles(sandbox.output) == expected, "not repaired after a kill at \(group) #\(step)")
            }
        }
        #expect(missed == [], "the listing finished before these kill points: the test no longer reaches them")
        #expect(killedWhileStaging >= 3, "only \(killedWhileStaging) kills landed while pages were staged")
    }

    private func listing(_ sandbox: RunSandbox) throws {
        let result = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output, "--page-size", "50"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    private func restore(_ folder: String, into sandbox: RunSandbox) throws {
        try? FileManager.default.removeItem(atPath: sandbox.output)
        try ListingCrashTests.copy(folder, to: sandbox.output)
    }
}
