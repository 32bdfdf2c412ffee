import Testing

@testable import HistoryListing

/// The pure plan of a refresh: what it writes and removes for given tracks and a given manifest.
@Suite struct SitePlanTests {
    /// A track with a 64-hex id made from `number`, in `month`, whose card and JSON name it.
    static func item(_ number: Int, month: String = "2024-05", version: Int = 1) -> IndexPages.Item {
        let digits = String(number)
        let id = String(repeating: "0", count: 64 - digits.count) + digits
        let json = Array("{\"id\":\"\(id)\",\"v\":\(version)}".utf8)
        return IndexPages.Item(
            id: id, month: month, card: Array("<article>\(number) v\(version)</article>".utf8)[...], json: json[...],
            digest: ListingCache.digest(json))
    }

    /// Tracks 1...count, newest (highest number) first.
    static func listing(_ count: Int) -> [IndexPages.Item] { (1...count).reversed().map { item($0) } }

    /// The manifest a refresh leaves after writing `plan` (its detail pages included).
    static func manifest(after plan: SitePlan, over previous: [String: SiteWriter.Entry] = [:]) -> [String: SiteWriter.Entry] {
        var manifest = previous
        for id in plan.removals { manifest[id] = nil }
        for page in plan.detailPages { manifest[page.id] = SiteWriter.Entry(digest: page.digest, written: nil) }
        for file in plan.indexFiles + plan.topFiles { manifest[file.id] = SiteWriter.Entry(digest: file.digest, written: nil) }
        return manifest
    }

    @Test func aFirstListingPlansEveryFile() {
        let plan = SitePlan(items: Self.listing(7), pageSize: 3, manifest: [:])
        #expect(plan.pageCount == 3)
        #expect(plan.detailPages.count == 7)
        #expect(
            Set(plan.indexFiles.map(\.id)) == [
                "page-1.html", "page-2.html", "page-3.html", "index/part-1.json", "index/part-2.json", "index/part-3.json",
            ])
        #expect(plan.topFiles.map(\.id) == ["site.css", "index.html", "index.json"])
        #expect(plan.removals.isEmpty)
    }

    @Test func anUnchangedListingPlansOnlyTheTopFiles() {
        let items = Self.listing(7)
        let manifest = Self.manifest(after: SitePlan(items: items, pageSize: 3, manifest: [:]))
        let again = SitePlan(items: items, pageSize: 3, manifest: manifest)
        #expect(again.detailPages.isEmpty)
        #expect(again.indexFiles.isEmpty)
        #expect(again.removals.isEmpty)
        #expect(again.topFiles.count == 3)
    }

    @Test func aChangedRecordPlansOnlyItsDetailPageAndThePageAndPartItSitsIn() {
        var items = Self.listing(7)
        let manifest = Self.manifest(after: SitePlan(items: items, pageSize: 3, manifest: [:]))
        // Newest first: position 5 is track 2, on page 1 (tracks 1-3, the oldest).
        items[5] = Self.item(2, version: 2)
        let plan = SitePlan(items: items, pageSize: 3, manifest: manifest)
        #expect(plan.detailPages == [SitePlan.Detail(id: items[5].id, digest: items[5].digest)])
        #expect(plan.indexFiles.map(\.id) == ["index/part-1.json", "page-1.html"])
        #expect(plan.removals.isEmpty)
    }

    @Test func aNewTrackPlansTheNewestPageAndPartOnly() {
        let manifest = Self.manifest(after: SitePlan(items: Self.listing(7), pageSize: 3, manifest: [:]))
        let plan = SitePlan(items: Self.listing(8), pageSize: 3, manifest: manifest)
        #expect(plan.detailPages.map(\.id) == [Self.item(8).id])
        // Page 3 held track 7 alone and now holds 7 and 8; pages 1 and 2 (their pagers unchanged) stay.
        #expect(plan.indexFiles.map(\.id) == ["index/part-3.json", "page-3.html"])
    }

    @Test func aRemovedTrackPutsItsDetailPageAndTheLastPageInTheRemovals() {
        let manifest = Self.manifest(after: SitePlan(items: Self.listing(7), pageSize: 3, manifest: [:]))
        // Track 7 (alone on page 3) is gone.
        let plan = SitePlan(items: Self.listing(6), pageSize: 3, manifest: manifest)
        #expect(plan.pageCount == 2)
        #expect(Set(plan.removals) == [Self.item(7).id, "page-3.html", "index/part-3.json"])
        #expect(!plan.liveDetails.contains(Self.item(7).id))
        #expect(plan.detailPages.isEmpty)
    }

    @Test func aManifestEntryWithAnotherDigestIsWrittenAgain() {
        let items = Self.listing(4)
        var manifest = Self.manifest(after: SitePlan(items: items, pageSize: 3, manifest: [:]))
        manifest["page-2.html"]?.digest ^= 1
        manifest[items[0].id] = nil
        let plan = SitePlan(items: items, pageSize: 3, manifest: manifest)
        #expect(plan.indexFiles.map(\.id) == ["page-2.html"])
        #expect(plan.detailPages.map(\.id) == [items[0].id])
    }

    @Test func namesTheListingDoesNotWriteAreNeverRemoved() {
        let manifest: [String: SiteWriter.Entry] = [
            "page-02.html": SiteWriter.Entry(digest: 1, written: nil), "notes.html": SiteWriter.Entry(digest: 1, written: nil),
            "page-9.html": SiteWriter.Entry(digest: 1, written: nil),
        ]
        #expect(SitePlan.removals(from: manifest, liveDetails: [], pageCount: 2) == ["page-9.html"])
    }

    @Test func indexJSONCountsThePartsAndSaysWhereTheyAre() {
        let plan = SitePlan(items: Self.listing(4), pageSize: 3, manifest: [:])
        let json = String(decoding: plan.topFiles[2].bytes, as: UTF8.self)
        #expect(
            json
                == "{\"overview\":\"index/overview.json\",\"page_size\":3,\"part_path\":\"index/part-{n}.json\",\"parts\":2,\"tracks\":4,\"version\":4}\n"
        )
        #expect(IndexDocument.partPaths(inIndex: plan.topFiles[2].bytes) == ["index/part-2.json", "index/part-1.json"])
        // A site listed by an earlier version (schema 3) names its parts; a path that leaves the site is left out.
        let version3 = #"{"parts":[{"path":"index/part-2.json","tracks":1},{"path":"../etc/passwd","tracks":3}],"version":3}"#
        #expect(IndexDocument.partPaths(inIndex: Array(version3.utf8)) == ["index/part-2.json"])
        #expect(IndexDocument.partPaths(inIndex: Array(#"{"parts":"many"}"#.utf8)) == nil)
        let part = plan.indexFiles.first { $0.id == "index/part-2.json" }.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(part == "{\"part\":2,\"tracks\":[\n{\"id\":\"\(Self.item(4).id)\",\"v\":1}\n],\"version\":3}\n")
    }
}
