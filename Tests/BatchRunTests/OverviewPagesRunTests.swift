import FileStore
import Foundation
import Testing

/// The overview's region and year pages through real runs: each region's page lists its tracks
/// newest first, each year has its pictures and page (a region of one year shows its own), a new
/// track rewrites only its region's page and pictures and its year's, a forgotten one leaves every overview file as before, and a cold
/// overview equals the incremental one.
@Suite struct OverviewPagesRunTests {
    /// A straight walk of 40 fixes eastwards from (`latitude`, `longitude`), starting at `start`
    /// (ISO 8601, UTC).
    static func walk(name: String, latitude: Double, longitude: Double, start: String) -> String {
        let formatter = ISO8601DateFormatter()
        let first = formatter.date(from: start)!
        var points = ""
        for index in 0..<40 {
            let time = formatter.string(from: first.addingTimeInterval(Double(index) * 10))
            let lon = String(format: "%.6f", longitude + Double(index) * 0.0004), lat = String(format: "%.6f", latitude + Double(index % 3) * 0.0001)
            points += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>\(time)</time></trkpt>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>\(name)</name><trkseg>
            \(points)</trkseg></trk></gpx>

            """
    }

    private func write(_ sandbox: RunSandbox, _ file: String, latitude: Double, longitude: Double, start: String) throws {
        let path = sandbox.archive + "/" + file
        try FileStore.writeAtomically(Array(Self.walk(name: file, latitude: latitude, longitude: longitude, start: start).utf8), to: path)
        sandbox.age(path, seconds: 3600)
    }

    /// Every published file of the overview (pictures, its pages, its part and tile lists), by path.
    private func overviewFiles(_ sandbox: RunSandbox) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileStore.listDirectory(sandbox.output) where name.hasPrefix("region-") || name.hasPrefix("overview") {
            if name == "overview" {
                for picture in try FileStore.listDirectory(sandbox.output + "/overview") where !picture.hasPrefix(".") {
                    files["overview/" + picture] = try FileStore.readFile(sandbox.output + "/overview/" + picture)
                }
            } else {
                files[name] = try FileStore.readFile(sandbox.output + "/" + name)
            }
        }
        files["index/overview.json"] = try FileStore.readFile(sandbox.output + "/index/overview.json")
        for list in try FileStore.listDirectory(sandbox.output + "/index/overview") where !list.hasPrefix(".") {
            files["index/overview/" + list] = try FileStore.readFile(sandbox.output + "/index/overview/" + list)
        }
        return files
    }

    private func part(_ sandbox: RunSandbox) throws -> [String: Any] {
        let bytes = try FileStore.readFile(sandbox.output + "/index/overview.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// A PNG's width and height.
    private func size(_ bytes: [UInt8]) -> [Int] {
        [bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }]
    }

    @Test func regionAndYearPagesFollowTheirTracks() throws {
        let sandbox = try RunSandbox()
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        try write(sandbox, "zurich-old-a.gpx", latitude: 47.37, longitude: 8.53, start: "2023-04-02T08:00:00Z")
        try write(sandbox, "zurich-old-b.gpx", latitude: 47.38, longitude: 8.54, start: "2023-09-10T08:00:00Z")
        try write(sandbox, "zurich-new.gpx", latitude: 47.375, longitude: 8.535, start: "2024-06-01T08:00:00Z")
        try write(sandbox, "vienna.gpx", latitude: 48.2, longitude: 16.37, start: "2024-03-01T08:00:00Z")
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let ids = Dictionary(
            uniqueKeysWithValues: sandbox.listedTracks().compactMap { track in
                (track["source"] as? String).flatMap { source in (track["id"] as? String).map { (source, $0) } }
            })
        #expect(ids.count == 4)

        let first = try part(sandbox)
        let regions = try #require(first["regions"] as? [[String: Any]])
        #expect(regions.map { $0["tracks"] as? Int } == [3, 1])
        let zurich = regions[0], zurichPage = try #require(zurich["page"] as? String)
        let viennaPage = try #require(regions[1]["page"] as? String)
        #expect(zurichPage == "region-\(zurich["id"] as? String ?? "").html")
        // Thumbnails at the listing's size, @1x and @2x.
        let thumbnails = try #require(zurich["thumbnails"] as? [[String: Any]])
        let thumbnailSizes = try thumbnails.map { size(try FileStore.readFile(sandbox.output + "/" + (try #require($0["path"] as? String)))) }
        #expect(Set(thumbnailSizes.map(Set.init)) == [Set([320, 240]), Set([640, 480])])
        let overview = String(decoding: try FileStore.readFile(sandbox.output + "/overview.html"), as: UTF8.self)
        #expect(overview.contains("href=\"\(zurichPage)\"") && overview.contains("srcset=\"overview/\(zurich["id"] as? String ?? "").thumb.png 1x"))
        #expect(overview.contains("href=\"overview-2023.html\"") && overview.contains("href=\"overview-2024.html\""))

        // The region's page: its tracks newest first, each linking its detail page, with the totals.
        let page = String(decoding: try FileStore.readFile(sandbox.output + "/" + zurichPage), as: UTF8.self)
        let order = try ["zurich-new.gpx", "zurich-old-b.gpx", "zurich-old-a.gpx"].map { source in
            try #require(page.range(of: "href=\"tracks/\(ids[source] ?? "-").html\"")).lowerBound
        }
        #expect(order == order.sorted() && page.contains("3 tracks,") && !page.contains(ids["vienna.gpx"] ?? "-"))
        #expect(page.contains("<h2 id=\"y-2024\">") && page.contains("<h2 id=\"y-2023\">"))

        // The years: 2023 is Zürich's two tracks alone, 2024 a picture in each region.
        let years = try #require(first["years"] as? [[String: Any]])
        #expect(years.map { $0["year"] as? Int } == [2024, 2023])
        #expect(years.map { $0["page"] as? String } == ["overview-2024.html", "overview-2023.html"])
        #expect(years.map { ($0["regions"] as? [[String: Any]])?.count } == [2, 1] && years[1]["tracks"] as? Int == 2)
        let year2023 = String(decoding: try FileStore.readFile(sandbox.output + "/overview-2023.html"), as: UTF8.self)
        #expect(year2023.contains("aria-label=\"Heat map of 2 tracks,") && year2023.contains("href=\"\(zurichPage)#y-2023\""))
        // The listing links each year's page from its index and numbered pages.
        for name in ["index.html", "page-1.html"] {
            let listing = String(decoding: try FileStore.readFile(sandbox.output + "/" + name), as: UTF8.self)
            #expect(listing.contains("href=\"overview-2023.html\"") && listing.contains("href=\"overview-2024.html\""), "\(name)")
        }
        let before = try overviewFiles(sandbox)
        let viennaStatus = try FileStore.status(sandbox.output + "/" + viennaPage)
        let zurichStem = zurich["id"] as? String ?? "-", viennaStem = String(viennaPage.dropFirst(7).dropLast(5))

        // Vienna, all of 2024, shows its own picture for 2024; Zürich, of two years, one per year.
        #expect(!before.keys.contains { $0.hasPrefix("overview/\(viennaStem).2024.") })
        #expect(before.keys.contains { $0.hasPrefix("overview/\(zurichStem).2023.t") && $0.hasSuffix("@2x.png") })

        // A new track in Zürich in 2024: Zürich's page, its picture and its 2024 picture change; its
        // 2023 picture and Vienna's page stay as they were (Vienna's page not even written again).
        try write(sandbox, "zurich-later.gpx", latitude: 47.371, longitude: 8.531, start: "2024-08-01T08:00:00Z")
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        let after = try overviewFiles(sandbox)
        #expect(try FileStore.status(sandbox.output + "/" + viennaPage) == viennaStatus)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        // Tiles are named by their pixels: a tile the track passes is a new file (its old one gone),
        // every other tile of the picture is the same file.
        let tilesChanged = changed.filter { $0.contains(".t") && !$0.contains(".thumb") }
        let gone = Set(before.keys.filter { after[$0] == nil })
        #expect(
            changed.subtracting(tilesChanged) == [
                zurichPage, "overview/\(zurichStem).thumb.png", "overview/\(zurichStem).thumb@2x.png", "overview.html", "overview-2024.html",
                "index/overview.json", "index/overview/\(zurichStem).json", "index/overview/\(zurichStem).2024.json",
            ], "\(changed.sorted())")
        for stem in [zurichStem, zurichStem + ".2024"] {
            let tiles = after.keys.filter { $0.hasPrefix("overview/\(stem).t") && !$0.contains(".thumb") }
            let new = tiles.filter { before[$0] == nil }
            #expect(tiles.count == 96 && !new.isEmpty && new.count < tiles.count, "\(stem): \(new.count) of \(tiles.count) tiles new")
            #expect(gone.filter { $0.hasPrefix("overview/\(stem).t") && !$0.contains(".thumb") }.count == new.count)
        }
        #expect(tilesChanged.allSatisfy { $0.hasPrefix("overview/\(zurichStem).t") || $0.hasPrefix("overview/\(zurichStem).2024.t") })

        // The overview drawn cold from the records equals the one kept up to date.
        try FileManager.default.removeItem(atPath: sandbox.output + "/.tracksnap/overview")
        for name in after.keys { try FileStore.remove(sandbox.output + "/" + name) }
        // The listing's stamp too, so the listing does not find its inputs unchanged and stop.
        try FileStore.remove(sandbox.output + "/.tracksnap/listing")
        #expect(try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output]).status == 0)
        #expect(try overviewFiles(sandbox) == after)

        // Forgotten, the new track leaves every overview file as it was before it came.
        let forget = try sandbox.run(["forget", sandbox.archive + "/zurich-later.gpx", "--jobs", sandbox.jobs])
        #expect(forget.status == 0, "\(forget.stderr)")
        #expect(try sandbox.runQueue().status == 0)
        #expect(try overviewFiles(sandbox) == before)
        #expect(sandbox.visibleOutputProblems().isEmpty)
    }

    /// Regions named in the style file: their tracks are grouped under the name, the name shows on
    /// the pages and its slug in the file names; a `listing` given no style keeps them, a renamed
    /// or removed one redraws the overview and leaves no file of the old name.
    @Test func regionsNamedInTheStyleFileAreShownByNameAndFollowTheStyle() throws {
        // Every run and listing below names its style (or, on purpose, none).
        let sandbox = try RunSandbox(detailImages: true)
        defer { try? FileManager.default.removeItem(atPath: sandbox.root) }
        try write(sandbox, "zurich-a.gpx", latitude: 47.37, longitude: 8.53, start: "2023-04-02T08:00:00Z")
        try write(sandbox, "zurich-b.gpx", latitude: 47.38, longitude: 8.54, start: "2024-09-10T08:00:00Z")
        try write(sandbox, "vienna.gpx", latitude: 48.2, longitude: 16.37, start: "2024-03-01T08:00:00Z")
        try sandbox.enqueueArchive()
        let style = sandbox.root + "/named.json"
        func name(_ region: String?) throws {
            let overview = region.map { #", "overview": {"regions": [{"name": "\#($0)", "bounds": [8.4, 47.3, 8.7, 47.5]}]}"# } ?? ""
            try FileStore.writeAtomically(Array(#"{"version": 1, "detail": false\#(overview)}"#.utf8), to: style)
        }
        func regions() throws -> [[String: Any]] { try #require(try part(sandbox)["regions"] as? [[String: Any]]) }

        try name("Zürich")
        #expect(try sandbox.runQueue(["--style", style]).status == 0)
        let named = try regions()
        #expect(named.map { $0["name"] as? String } == ["Zürich", nil])
        #expect(named[0]["id"] as? String == "z-rich" && named[0]["page"] as? String == "region-z-rich.html" && named[0]["tracks"] as? Int == 2)
        let files = try overviewFiles(sandbox)
        #expect(["overview/z-rich.thumb@2x.png", "region-z-rich.html"].allSatisfy { files[$0] != nil })
        #expect(["overview/z-rich.t0-", "overview/z-rich.2023.t0-"].allSatisfy { prefix in files.keys.contains { $0.hasPrefix(prefix) } })
        let overview = String(decoding: files["overview.html"] ?? [], as: UTF8.self)
        #expect(overview.contains(">Zürich</a></h3>") && overview.contains("alt=\"Heat map of 2 tracks,"))
        #expect(String(decoding: files["region-z-rich.html"] ?? [], as: UTF8.self).contains("<title>Zürich · Overview · TrackSnap</title>"))

        // A listing given no style lists as the runs did: the region keeps its name.
        // (The stamp removed, so that it does not find its inputs unchanged and stop.)
        try FileStore.remove(sandbox.output + "/.tracksnap/listing")
        let plain = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try overviewFiles(sandbox) == files)

        // Renamed: the new name's files, none of the old.
        try name("Zürich city")
        #expect(try sandbox.runQueue(["--style", style]).status == 0)
        #expect(try regions().map { $0["id"] as? String }.first == "z-rich-city")
        let renamed = try overviewFiles(sandbox)
        #expect(renamed["region-z-rich-city.html"] != nil)
        #expect(!renamed.keys.contains { $0.contains("z-rich.") || $0.contains("z-rich@") || $0 == "region-z-rich.html" })

        // No names: grouped by distance again, with no named file left.
        try name(nil)
        #expect(try sandbox.runQueue(["--style", style]).status == 0)
        #expect(try regions().allSatisfy { $0["name"] == nil && ($0["id"] as? String)?.utf8.count == 16 })
        #expect(!(try overviewFiles(sandbox)).keys.contains { $0.contains("z-rich") })
        #expect(sandbox.visibleOutputProblems().isEmpty)
    }
}
