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

    /// The tiles of every region's picture, by path, as its tile list names them (one list for
    /// every scale, in the order of the part's `images`).
    private func pictures(_ sandbox: RunSandbox) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for region in try overviewPart(sandbox)["regions"] as? [[String: Any]] ?? [] {
            let listPath = try #require(region["tile_list"] as? String)
            let listBytes = try FileStore.readFile(sandbox.output + "/" + listPath)
            let list = try #require(try JSONSerialization.jsonObject(with: Data(listBytes)) as? [String: Any])
            #expect(list["id"] as? String == region["id"] as? String && list["version"] as? Int == 5)
            let images = region["images"] as? [[String: Any]] ?? []
            let listed = try #require(list["images"] as? [[String: Any]])
            #expect(listed.count == images.count)
            for (image, named) in zip(images, listed) {
                let tiles = try #require(image["tiles"] as? [String: Any])
                let paths = try #require(named["tiles"] as? [String])
                #expect(named["scale"] as? Double == image["scale"] as? Double)
                #expect(["columns", "rows", "tile"].allSatisfy { named[$0] as? Int != nil && named[$0] as? Int == tiles[$0] as? Int })
                #expect(paths.count == (tiles["columns"] as? Int ?? 0) * (tiles["rows"] as? Int ?? 0))
                for path in paths { result[path] = try FileStore.readFile(sandbox.output + "/" + path) }
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
        #expect(first["tracks"] as? Int == 4 && first["version"] as? Int == 5)
        let regions = try #require(first["regions"] as? [[String: Any]])
        #expect(regions.count == 1)
        let before = try pictures(sandbox)
        // One region's picture at @1x and @2x, 8 × 6 tiles each.
        #expect(before.count == 96 && before.values.allSatisfy(RunSandbox.isCompletePNG))
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

        // A picture deleted from the site is drawn again by the next run, the same; its
        // thumbnail, drawn the same, is not written again (the same file, not a new one).
        let lost = try #require(before.keys.sorted().first)
        let thumbnail = try #require(regions[0]["thumbnails"] as? [[String: Any]])[0]["path"] as? String ?? ""
        let thumbnailStatus = try FileStore.status(sandbox.output + "/" + thumbnail)
        try FileStore.remove(sandbox.output + "/" + lost)
        #expect(try sandbox.runQueue().status == 0)
        #expect(try pictures(sandbox) == before)
        #expect(try FileStore.status(sandbox.output + "/" + thumbnail) == thumbnailStatus)

        // So is a picture's tile list.
        let list = sandbox.output + "/" + (regions[0]["tile_list"] as? String ?? "")
        let listBytes = try FileStore.readFile(list)
        try FileStore.remove(list)
        #expect(try sandbox.runQueue().status == 0)
        #expect(try FileStore.readFile(list) == listBytes)
        #expect(sandbox.visibleOutputProblems().isEmpty)
    }

    /// `tracksnap overview`: the site's tracks in one poster of the asked size, a region and a year
    /// choose among them, and nothing in the site changes.
    @Test func thePosterCommandDrawsTheChosenTracksAtTheAskedSize() throws {
        let sandbox = try RunSandbox()
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        try sandbox.writeTracks(3)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let site = try FileManager.default.subpathsOfDirectory(atPath: sandbox.output).sorted()
        let poster = sandbox.root + "/poster.png"

        let all = try sandbox.run(["overview", "--output", sandbox.output, "--poster", poster, "--size", "600x400", "--scale", "2"])
        #expect(all.status == 0, "\(all.stderr)")
        let bytes = try FileStore.readFile(poster)
        #expect(RunSandbox.isCompletePNG(bytes))
        // 600x400 points at @2x; the sides swap when the tracks' extent is taller than wide.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(Set([width, height]) == [1200, 800], "\(width)x\(height)")
        #expect(all.stdout.contains("3 track(s), \(width)x\(height) pixels"), "\(all.stdout)")

        // A box far from every track, and a year before them all, match nothing: a clear error.
        let elsewhere = try sandbox.run(["overview", "--output", sandbox.output, "--poster", poster, "--region", "-80,-40,-79,-39"])
        #expect(elsewhere.status == 2 && elsewhere.stderr.contains("no track of the site"), "\(elsewhere.stderr)")
        let year = try sandbox.run(["overview", "--output", sandbox.output, "--poster", poster, "--year", "1999"])
        #expect(year.status == 2 && year.stderr.contains("no track of the site"), "\(year.stderr)")
        let huge = try sandbox.run(["overview", "--output", sandbox.output, "--size", "9000x9000"])
        #expect(huge.status == 2 && huge.stderr.contains("at most 64"), "\(huge.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: sandbox.output).sorted() == site, "the site is unchanged")
    }
}
