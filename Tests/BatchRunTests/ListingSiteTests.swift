import FileStore
import Foundation
import HistoryListing
import Testing
import TrackSynthesis

/// The published site end to end: `tracksnap run` over tracks with hostile names and times in
/// several months, then every page read as a browser would (attributes, links, escaping).
@Suite struct ListingSiteTests {
    /// Names that would run script, break out of an attribute, or point outside Output/ if any
    /// page used them unescaped or in a link.
    static let hostileNames = ["<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "../../etc/passwd"]

    private func gpx(name: String?, start: String, latitude: Double) -> String {
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk>"
        if let name {
            let escaped = name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: "\"", with: "&quot;")
            text += "<name>\(escaped)</name>"
        }
        text += "<trkseg>"
        for index in 0..<30 {
            text +=
                "<trkpt lat=\"\(latitude + Double(index) * 0.0004)\" lon=\"\(7.44 + Double(index) * 0.0005)\"><ele>\(500 + index)</ele><time>\(start):\(10 + index)Z</time></trkpt>"
        }
        return text + "</trkseg></trk></gpx>"
    }

    private func buildSite(pageSize: Int) throws -> RunSandbox {
        let sandbox = try RunSandbox(detailImages: true)
        let tracks: [(file: String, name: String?, start: String)] = [
            ("script.gpx", Self.hostileNames[0], "2024-05-04T07:00"),
            ("attribute.gpx", Self.hostileNames[1], "2024-05-02T07:00"),
            ("path.gpx", Self.hostileNames[2], "2024-03-10T07:00"),
            ("\"><img src=x onerror=alert(2)>.gpx", nil, "2023-12-31T23:00"),
            ("newest.gpx", "Newest", "2025-01-15T06:30"),
        ]
        for (index, track) in tracks.enumerated() {
            let path = sandbox.archive + "/" + track.file
            try FileStore.writeAtomically(Array(gpx(name: track.name, start: track.start, latitude: 46.9 + Double(index) * 0.01).utf8), to: path)
            sandbox.age(path, seconds: 3600)
        }
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--page-size", "\(pageSize)", "--workers", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        return sandbox
    }

    /// Every attribute value named href, src or srcset in `html`.
    private func references(_ html: String) -> [String] {
        var found: [String] = []
        for attribute in ["href", "src", "srcset"] {
            var rest = Substring(html)
            while let range = rest.range(of: " \(attribute)=\"") {
                let after = rest[range.upperBound...]
                guard let end = after.firstIndex(of: "\"") else { break }
                let value = String(after[..<end])
                found += attribute == "srcset" ? value.split(separator: ",").map { String($0.split(separator: " ")[0]) } : [value]
                rest = after[end...]
            }
        }
        return found
    }

    @Test func hostileNamesStayTextAndEveryLinkStaysInsideOutput() throws {
        let sandbox = try buildSite(pageSize: 2)
        let pages =
            try FileStore.listDirectory(sandbox.output).filter { $0.hasSuffix(".html") }.map { $0 }
            + (try FileStore.listDirectory(sandbox.output + "/tracks")).map { "tracks/" + $0 }
        #expect(
            pages.contains("index.html") && pages.contains("page-3.html") && !pages.contains("page-4.html")
                && pages.filter { $0.hasPrefix("tracks/") }.count == 5)
        var sawEscapedNames = Set<String>()
        for page in pages {
            let html = String(decoding: try FileStore.readFile(sandbox.output + "/" + page), as: UTF8.self)
            // Inert: no script element, no injected element or handler, in any page.
            #expect(!html.lowercased().contains("<script"), "\(page)")
            #expect(!html.contains("<img src=x") && !html.contains("alert(1)>") && !html.contains("alert(2)>"), "\(page)")
            for name in Self.hostileNames
            where html.contains(
                name.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                    of: ">", with: "&gt;"
                ).replacingOccurrences(of: "\"", with: "&quot;"))
            {
                sawEscapedNames.insert(name)
            }
            let directory = page.contains("/") ? sandbox.output + "/tracks" : sandbox.output
            for reference in references(html) where !reference.hasPrefix("data:") {
                // Relative, no scheme or root, and resolving to a file inside Output/.
                #expect(!reference.contains(":") && !reference.hasPrefix("/"), "\(page): \(reference)")
                let file = String(reference.split(separator: "#", omittingEmptySubsequences: false)[0])
                let resolved = URL(fileURLWithPath: directory + "/" + file).standardizedFileURL.path
                #expect(resolved.hasPrefix(sandbox.output + "/"), "\(page): \(reference) leaves Output/")
                #expect(FileManager.default.fileExists(atPath: resolved), "\(page): \(reference) does not exist")
            }
        }
        #expect(sawEscapedNames == Set(Self.hostileNames))
    }

    @Test func indexPagesAreNewestFirstWithMonthsAndThePagerAndJSONMatchesTheCards() throws {
        let sandbox = try buildSite(pageSize: 2)
        let tracks = sandbox.listedTracks()
        #expect(
            tracks.map { $0["name"] as? String } == [
                "Newest", Self.hostileNames[0], Self.hostileNames[1], Self.hostileNames[2], "\"><img src=x onerror=alert(2)>",
            ])
        let bytes = try FileStore.readFile(sandbox.output + "/index.json")
        let document = try JSONDecoder().decode(ListingDocument.self, from: Data(bytes))
        // Schema 4: the parts counted, numbered like the pages from the oldest (2 + 2 + 1); every
        // part but the newest holds a page's tracks.
        #expect(document.version == 4 && document.pageSize == 2 && document.tracks == 5 && document.parts == 3)
        #expect(document.partPaths == ["index/part-3.json", "index/part-2.json", "index/part-1.json"])
        let counts = try document.partPaths.map { path in
            try JSONDecoder().decode(ListingPart.self, from: Data(try FileStore.readFile(sandbox.output + "/" + path))).tracks.count
        }
        #expect(counts == [1, 2, 2])
        let newestPart = try JSONDecoder().decode(ListingPart.self, from: Data(try FileStore.readFile(sandbox.output + "/index/part-3.json")))
        let first = try #require(newestPart.tracks.first)
        #expect(first.images.map(\.role) == ["thumbnail", "thumbnail", "detail", "detail"])
        #expect(first.images.allSatisfy { $0.viewportEpsg3857.count == 4 && FileStore.exists(sandbox.output + "/" + $0.path) })
        #expect(
            first.bbox.count == 4 && first.bbox[0] < first.bbox[2] && first.stats.movingTimeS != nil && first.utcOffsetS == 3600
                && first.timeZone == "Europe/Zurich")
        #expect(FileStore.exists(sandbox.output + "/" + first.page))

        let index = String(decoding: try FileStore.readFile(sandbox.output + "/index.html"), as: UTF8.self)
        // index.html shows the newest two; pages count from the oldest (page-1: the oldest two,
        // page-3: the newest one); the month list links to the page of each month's newest track.
        // The first heading of each year links that year's overview.
        #expect(
            index.contains("id=\"m-2025-01\">January 2025 <a class=\"glance\" href=\"overview-2025.html\">2025 at a glance</a></h2>")
                && index.contains("href=\"page-2.html#m-2024-05\">May</a>"))
        #expect(index.contains("href=\"page-1.html#m-2024-03\">Mar</a>"))
        // The track of 2023-12-31 23:00 UTC started at midnight in Bern: filed under January 2024.
        #expect(
            index.contains("href=\"page-1.html#m-2024-01\">Jan</a>") && !index.contains("m-2023-12")
                && index.contains("rel=\"next\" href=\"page-2.html\""))
        #expect(index.contains("loading=\"lazy\"") && index.contains("width=\"320\" height=\"240\"") && index.contains("@2x.png 2x"))
        // Local time of the zone the start lies in (Bern: Europe/Zurich, UTC+1 in January), not
        // of the 15° longitude band (7.44° E would be UTC+0).
        #expect(
            index.contains(
                "<time datetime=\"2025-01-15T07:30:10+01:00\">Wed 15 Jan 2025, 07:30</time> <span class=\"zone\" title=\"Europe/Zurich\">UTC+1</span>"
            ), "\(index)")
        let page1 = String(decoding: try FileStore.readFile(sandbox.output + "/page-1.html"), as: UTF8.self)
        #expect(page1.contains("rel=\"prev\" href=\"page-2.html\"") && !page1.contains("rel=\"next\""))
        let page3 = String(decoding: try FileStore.readFile(sandbox.output + "/page-3.html"), as: UTF8.self)
        #expect(page3.contains("rel=\"prev\" href=\"index.html\"") && page3.contains("rel=\"next\" href=\"page-2.html\""))
        #expect(page3.contains("Newest") && !page3.contains(" of 3"))

        let detail = String(decoding: try FileStore.readFile(sandbox.output + "/" + first.page), as: UTF8.self)
        #expect(detail.contains("-1280x960.png\" srcset=") && detail.contains("width=\"1280\" height=\"960\""))
        // The way back names no page number: adding tracks never rewrites detail pages.
        #expect(detail.contains("30 read, 30 kept,") && detail.contains("href=\"../index.html\">← All tracks"))
        #expect(detail.contains("<dt>Source file</dt><dd>newest.gpx</dd>"))
    }

    /// Issue 21 items 11 and 12: a Strava run in Bern (`<type>running</type>`, 12 km/h, starting
    /// 06:30 UTC in June) is listed at 08:30 local time (Europe/Zurich, summer time) with its pace,
    /// not at "06:30 UTC" in km/h; a track at sea keeps the nautical estimate, labelled as such.
    @Test func aBernRunShowsLocalTimeAndPace() throws {
        let sandbox = try RunSandbox(detailImages: true)
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/gpx-trk-type-running-bern-summer.gpx").path
        let run = sandbox.archive + "/bern-run.gpx"
        try FileStore.writeAtomically(try FileStore.readFile(fixture), to: run)
        sandbox.age(run, seconds: 3600)
        var atSea = "<gpx><trk><trkseg>"
        for index in 0..<20 {
            atSea += "<trkpt lat=\"40\" lon=\"\(-30 + Double(index) * 0.01)\"><time>2024-06-01T12:\(10 + index):00Z</time></trkpt>"
        }
        let sea = sandbox.archive + "/crossing.gpx"
        try FileStore.writeAtomically(Array((atSea + "</trkseg></trk></gpx>").utf8), to: sea)
        sandbox.age(sea, seconds: 3600)
        // The offset written in the file wins over the nautical estimate.
        let shipClock = sandbox.archive + "/ship-clock.gpx"
        try FileStore.writeAtomically(
            try FileStore.readFile(fixture.replacingOccurrences(of: "gpx-trk-type-running-bern-summer", with: "gpx-times-with-local-offset-at-sea")),
            to: shipClock)
        sandbox.age(shipClock, seconds: 3600)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue()
        #expect(result.status == 0, "\(result.stderr)")
        let index = String(decoding: try FileStore.readFile(sandbox.output + "/index.html"), as: UTF8.self)
        #expect(
            index.contains(
                "<time datetime=\"2024-06-15T08:30:00+02:00\">Sat 15 Jun 2024, 08:30</time> <span class=\"zone\" title=\"Europe/Zurich\">UTC+2</span>"
            ), "\(index)")
        #expect(index.contains("<span>5:00 /km</span>") && !index.contains("12.0 km/h"), "\(index)")
        #expect(index.contains("Sat 1 Jun 2024, 10:10</time> <span class=\"zone\">UTC−2 (nautical estimate)</span>"), "\(index)")
        let tracks = sandbox.listedTracks()
        let bern = try #require(tracks.first { $0["name"] as? String == "Morning Run along the Aare" })
        #expect(bern["activity"] as? String == "running" && bern["utc_offset_s"] as? Int == 7200 && bern["time_zone"] as? String == "Europe/Zurich")
        let crossing = try #require(tracks.first { $0["name"] as? String == "crossing" })
        #expect(crossing["utc_offset_s"] as? Int == -7200 && crossing["time_zone"] == nil)
        #expect(bern["utc_offset_source"] as? String == "zone" && crossing["utc_offset_source"] as? String == "nautical")
        let passage = try #require(tracks.first { $0["name"] as? String == "Azores passage" })
        #expect(passage["utc_offset_s"] as? Int == -3600 && passage["utc_offset_source"] as? String == "file" && passage["time_zone"] == nil)
        #expect(index.contains("Sat 1 Jun 2024, 11:10</time> <span class=\"zone\" title=\"as recorded in the file\">UTC−1</span>"), "\(index)")
        let detail = String(decoding: try FileStore.readFile(sandbox.output + "/" + (bern["page"] as? String ?? "")), as: UTF8.self)
        #expect(detail.contains("<dt>Moving pace</dt><dd>5:00 /km</dd>") && detail.contains("08:30</time>"), "\(detail)")
    }

    @Test func aNewTrackRewritesOnlyTheNewestPagesAndALateOldUploadLandsInTimeOrder() throws {
        let sandbox = try buildSite(pageSize: 2)
        let before = try Dictionary(
            uniqueKeysWithValues: ["page-1.html", "page-2.html", "index/part-1.json"].map {
                ($0, try FileStore.readFile(sandbox.output + "/" + $0))
            })
        // A newer track: page-3 fills up (2 tracks); pages 1 and 2 and their parts are untouched.
        let newer = sandbox.archive + "/newer.gpx"
        try FileStore.writeAtomically(Array(gpx(name: "Newer", start: "2025-02-01T08:00", latitude: 47.3).utf8), to: newer)
        sandbox.age(newer, seconds: 3600)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        for (path, bytes) in before { #expect(try FileStore.readFile(sandbox.output + "/" + path) == bytes, "\(path) was rewritten") }
        #expect(sandbox.listedTracks().first?["name"] as? String == "Newer")
        // A late upload of a 2020 activity: it is the oldest, so it opens page-1 and shifts the rest.
        let old = sandbox.archive + "/old.gpx"
        try FileStore.writeAtomically(Array(gpx(name: "Old", start: "2020-06-01T08:00", latitude: 47.4).utf8), to: old)
        sandbox.age(old, seconds: 3600)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue(["--page-size", "2"]).status == 0)
        let names = sandbox.listedTracks().compactMap { $0["name"] as? String }
        #expect(names.first == "Newer" && names.last == "Old" && names.count == 7)
        let page1 = String(decoding: try FileStore.readFile(sandbox.output + "/page-1.html"), as: UTF8.self)
        #expect(page1.contains(">Old<") && page1.contains("June 2020"), "\(page1)")
        #expect(FileStore.exists(sandbox.output + "/page-4.html") && !FileStore.exists(sandbox.output + "/page-5.html"))
    }

    @Test func anUnchangedRefreshWritesNothingAndRemovedTracksLoseTheirPages() throws {
        let sandbox = try buildSite(pageSize: 2)
        let configuration = ["--jobs", sandbox.jobs, "--output", sandbox.output, "--page-size", "2"]
        let before = try FileStore.status(sandbox.output + "/index.html")?.modificationNanoseconds
        #expect(try sandbox.run(["listing"] + configuration).status == 0)
        #expect(try FileStore.status(sandbox.output + "/index.html")?.modificationNanoseconds == before)
        // Two tracks leave the archive's done/ (as when a user deletes them): their pages go.
        let done = sandbox.jobs(in: "done")
        let removedIds = sandbox.listedTracks().filter { ($0["jobs"] as? [String] ?? []).contains { done.prefix(2).contains($0) } }.compactMap {
            $0["id"] as? String
        }
        for job in done.prefix(2) { try FileStore.remove(sandbox.jobs + "/done/" + job) }
        let listing = try sandbox.run(["listing"] + configuration)
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(sandbox.listedTracks().count == 3)
        #expect(removedIds.count == 2 && removedIds.allSatisfy { !FileStore.exists(sandbox.output + "/tracks/\($0).html") })
        #expect(!FileStore.exists(sandbox.output + "/page-3.html") && FileStore.exists(sandbox.output + "/page-2.html"))
    }
}

/// `tracksnap listing` started while a run is not finished (a fan-in submitted too early, a
/// shard cancelled and not requeued): it lists what is done and prunes nothing, because a job
/// between publishing its images and reaching done/ is referenced by no finished job yet. Found
/// on the real Slurm cluster (scripts/slurm-faults.sh): an early listing pruned 6 images of
/// tracks being published.
@Suite struct EarlyListingTests {
    @Test func aListingWhileJobsAreQueuedPrunesNothingAndSaysSo() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        #expect(try sandbox.runQueue().status == 0)
        // An image published by a job still in flight: no finished job references it yet.
        let inFlight = sandbox.output + "/thumbs/" + String(repeating: "ab", count: 32) + ".png"
        try FileStore.writeAtomically([0x89, 0x50, 0x4E, 0x47], to: inFlight)
        sandbox.age(inFlight, seconds: 5)
        try sandbox.writeTracks(1, seed: 7, prefix: "late")
        try sandbox.enqueueArchive()
        let early = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(early.status == 0, "\(early.stderr)")
        #expect(early.stderr.contains("1 job(s) queued and 0 running: a run is not finished"), "\(early.stderr)")
        #expect(FileManager.default.fileExists(atPath: inFlight))
        #expect(sandbox.listedTracks().count == 2)
        // Once the queue is idle, the same file is an orphan and goes.
        #expect(try sandbox.runQueue().status == 0)
        let idle = try sandbox.run(["listing", "--jobs", sandbox.jobs, "--output", sandbox.output])
        #expect(!idle.stderr.contains("not finished"), "\(idle.stderr)")
        #expect(!FileManager.default.fileExists(atPath: inFlight))
        #expect(sandbox.listedTracks().count == 3)
    }
}
