import FileStore
import Foundation
import Testing

/// The archive overview through real runs: built with the site, a new track drawn into its region,
/// a forgotten one taken away again (the pictures back to their bytes before), a lost picture
/// drawn again.
@Suite struct OverviewRunTests {
    private func overviewPart(_ sandbox: RunSandbox) throws -> [String: Any] {
        let bytes = try FileStore.readFile(sandbox.output + "/index/overview.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// The pictures of every region, by path.
    private func pictures(_ sandbox: RunSandbox) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for region in try overviewPart(sandbox)["regions"] as? [[String: Any]] ?? [] {
            for image in region["images"] as? [[String: Any]] ?? [] {
                let path = try #require(image["path"] as? String)
                result[path] = try FileStore.readFile(sandbox.output + "/" + path)
            }
        }
        return result
    }

    @Test func theOverviewFollowsNewAndForgottenTracksAndRepairsALostPicture() throws {
        let sandbox = try RunSandbox()
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        try sandbox.writeTracks(4)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let first = try overviewPart(sandbox)
        #expect(first["tracks"] as? Int == 4 && first["version"] as? Int == 3)
        let regions = try #require(first["regions"] as? [[String: Any]])
        #expect(regions.count == 1)
        let before = try pictures(sandbox)
        #expect(before.count == 2 && before.values.allSatisfy(RunSandbox.isCompletePNG))
        let page = String(decoding: try FileStore.readFile(sandbox.output + "/overview.html"), as: UTF8.self)
        #expect(page.contains("alt=\"Heat map of 4 tracks,"))
        let index = String(decoding: try FileStore.readFile(sandbox.output + "/index.html"), as: UTF8.self)
        #expect(index.contains("href=\"overview.html\""))
        let json = String(decoding: try FileStore.readFile(sandbox.output + "/index.json"), as: UTF8.self)
        #expect(json.hasPrefix("{\"overview\":\"index/overview.json\","))

        // A new track joins the region and changes its pictures.
        let added = try sandbox.writeTracks(1, seed: 900, prefix: "new")
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        #expect(try overviewPart(sandbox)["tracks"] as? Int == 5)
        #expect(try pictures(sandbox) != before)

        // Forgotten, it leaves the pictures as they were before it came, byte for byte.
        let forget = try sandbox.run(["forget", sandbox.archive + "/" + added[0], "--jobs", sandbox.jobs])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(try sandbox.runQueue().status == 0)
        #expect(try overviewPart(sandbox)["tracks"] as? Int == 4)
        #expect(try pictures(sandbox) == before)

        // A picture deleted from the site is drawn again by the next run, the same.
        let lost = try #require(before.keys.sorted().first)
        try FileStore.remove(sandbox.output + "/" + lost)
        #expect(try sandbox.runQueue().status == 0)
        #expect(try pictures(sandbox) == before)
        #expect(sandbox.visibleOutputProblems().isEmpty)
    }
}
