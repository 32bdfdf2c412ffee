import FileStore
import Foundation
import Testing

/// The listing's own state (the stamp with its folder snapshots, the catalog and page-manifest
/// journals): a kill -9 at any write, rename, link, unlink or fsync of a refresh leaves a site that the
/// next listing repairs to exactly what an uninterrupted listing writes (issue 24), the overview's
/// pictures and page included (issue 25).
@Suite(.serialized) struct ListingCrashTests {
    static let strace = "/usr/bin/strace"

    /// One group of system calls strace kills the listing at, counted together by position.
    static let syscallGroups = ["write,pwrite64", "rename,renameat,renameat2", "link,linkat", "unlink,unlinkat", "fsync,fdatasync,syncfs"]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: strace)))
    func killNineAtEveryStepOfAListingLeavesASiteTheNextListingRepairs() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(5, fixCount: 60)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        let listedFive = sandbox.root + "/listed-five"
        try Self.copy(sandbox.output, to: listedFive)
        try sandbox.writeTracks(1, fixCount: 60, seed: 40, prefix: "new")
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        // The start: the new track acked and published, the site and the listing's state as
        // before it (a run killed before its listing).
        let start = sandbox.root + "/start"
        try Self.copy(listedFive, to: start)
        for folder in ["thumbs", ".tracksnap/records"] {
            try FileManager.default.removeItem(atPath: start + "/" + folder)
            try Self.copy(sandbox.output + "/" + folder, to: start + "/" + folder)
        }
        try restore(start, into: sandbox)
        try Self.listing(sandbox)
        let expected = try Self.publishedFiles(sandbox.output)
        #expect(sandbox.listedTracks().count == 6 && expected.keys.contains { $0.hasPrefix("tracks/") })
        // The new track changes the overview's pictures too (issue 25), so the kills below also
        // land inside the overview's update.
        let overviewBefore = try Self.publishedFiles(listedFive).filter { $0.key.hasPrefix("overview/") }
        #expect(!overviewBefore.isEmpty && expected.filter { $0.key.hasPrefix("overview/") } != overviewBefore)
        // Tiles are replaced (new names, the old files removed after the pages): kills land between the two.
        let tilesAfter = Set(expected.keys.filter { $0.hasPrefix("overview/") && !$0.contains(".thumb") })
        #expect(!tilesAfter.subtracting(overviewBefore.keys).isEmpty && !Set(overviewBefore.keys).subtracting(tilesAfter).isEmpty)
        #expect(try Self.missingOverviewImages(sandbox.output) == [] && (try Self.missingOverviewImages(listedFive)) == [])
        let oldTile = try #require(overviewBefore.keys.sorted().first { !$0.contains(".thumb") })
        try FileStore.remove(listedFive + "/" + oldTile)
        #expect(try Self.missingOverviewImages(listedFive).contains { $0.hasSuffix(": " + oldTile) }, "the check sees a missing tile")

        let kills = try Self.killEverywhere(sandbox, expected: expected) { try restore(start, into: sandbox) }
        #expect(kills > 20, "the listing was killed only \(kills) times: the test no longer reaches its writes")

        // The state a repair left serves the next refreshes: once the folders have settled, an
        // unchanged listing changes nothing, and a deleted detail page is written again.
        Thread.sleep(forTimeInterval: 2.1)
        try Self.listing(sandbox)
        #expect(try Self.publishedFiles(sandbox.output) == expected)
        let detail = try #require(expected.keys.first { $0.hasPrefix("tracks/") })
        try FileStore.remove(sandbox.output + "/" + detail)
        try Self.listing(sandbox)
        #expect(try Self.publishedFiles(sandbox.output) == expected)
    }

    /// `tracksnap listing` over the sandbox (page size 2), which must succeed.
    static func listing(_ sandbox: RunSandbox) throws {
        let result = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output, "--page-size", "2"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Kills the listing at every step of every group of system calls (`listingKilled`), each
    /// time from the state `restore` puts back; checks that the killed listing left nothing
    /// broken in view and that the next listing makes the site `expected`. Returns the kills.
    static func killEverywhere(_ sandbox: RunSandbox, expected: [String: [UInt8]], restore: () throws -> Void) throws -> Int {
        var kills = 0
        for group in syscallGroups {
            for step in 1...400 {
                try restore()
                let killed = try listingKilled(sandbox, at: group, step: step)
                #expect(sandbox.visibleOutputProblems() == [], "killed at \(group) #\(step)")
                // Old tiles go only after the pages that name the new ones: no page names a tile that is gone.
                #expect(try missingOverviewImages(sandbox.output) == [], "killed at \(group) #\(step)")
                try Self.listing(sandbox)
                #expect(try publishedFiles(sandbox.output) == expected, "not repaired after a kill at \(group) #\(step)")
                guard killed else { break }
                kills += 1
            }
        }
        return kills
    }

    /// `tracksnap listing` under strace, killed (SIGKILL) at the `step`-th call of the system
    /// calls in `group`; false when it finished before that.
    static func listingKilled(_ sandbox: RunSandbox, at group: String, step: Int) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.strace)
        process.arguments =
            ["-o", "/dev/null", "-e", "inject=\(group):signal=KILL:when=\(step)", "--", RunSandbox.binary]
            + ["listing", "--jobs", sandbox.jobs, "--output", sandbox.output, "--page-size", "2", "--style", sandbox.thumbnailsOnlyStyle]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal || process.terminationStatus == 128 + SIGKILL
    }

    /// The overview images (tiles and thumbnails) a page of the overview names in `src` or
    /// `srcset` that are not on disk, as `page: path`.
    static func missingOverviewImages(_ output: String) throws -> [String] {
        var missing: [String] = []
        for name in try FileStore.listDirectory(output) where name.hasSuffix(".html") && (name.hasPrefix("overview") || name.hasPrefix("region-")) {
            let page = String(decoding: try FileStore.readFile(output + "/" + name), as: UTF8.self)
            for piece in page.components(separatedBy: "\"overview/").dropFirst() + page.components(separatedBy: ", overview/").dropFirst() {
                let path = "overview/" + piece.prefix { $0 != "\"" && $0 != " " }
                if !FileStore.exists(output + "/" + path) { missing.append(name + ": " + path) }
            }
        }
        return missing
    }

    /// Every file a reader of `output` can see (no dot-path), by relative path.
    static func publishedFiles(_ output: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: output) else { return files }
        while let relative = enumerator.nextObject() as? String {
            guard !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: output + "/" + relative, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            files[relative] = try FileStore.readFile(output + "/" + relative)
        }
        return files
    }

    /// Replaces the sandbox's Output/ with a copy of `folder`.
    private func restore(_ folder: String, into sandbox: RunSandbox) throws {
        try? FileManager.default.removeItem(atPath: sandbox.output)
        try Self.copy(folder, to: sandbox.output)
    }

    /// `cp -a`: modes and times kept; with `linking`, files hard-linked (`cp -al`).
    static func copy(_ source: String, to destination: String, linking: Bool = false) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cp")
        process.arguments = [linking ? "-al" : "-a", source, destination]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "cp -a \(source) \(destination)")
    }
}
