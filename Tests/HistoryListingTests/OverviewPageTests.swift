import MapGeometry
import Testing

@testable import HistoryListing

/// The overview's pages and part as pure functions of what they show, and the region index that
/// keeps what each picture and page was made from.
@Suite struct OverviewPageTests {
    /// A picture of 1280×960 points in tiles of 320: 4 × 3 tiles, whose digests at @1x are
    /// 0x11, 0x22, … and at @2x 0x2011, 0x2022, ….
    static func picture(_ stem: String, tracks: Int, thumbnails: Bool = true, width: Int = 1280, height: Int = 960) -> OverviewPage.Picture {
        var picture = OverviewPage.Picture(
            stem: stem, trackCount: tracks, distanceMeters: tracks * 1000, widthPoints: width, heightPoints: height,
            mapRect: MapRect(minX: 0, minY: 0, maxX: 1280, maxY: 960), scales: [1, 2], thumbnailScales: thumbnails ? [0.25, 0.5] : [],
            tilePoints: 320)
        let count = picture.tiling.count
        picture.tileDigests = [(1...count).map { UInt64($0) * 0x11 }, (1...count).map { 0x2000 + UInt64($0) * 0x11 }]
        return picture
    }

    static var regions: [OverviewPage.Region] {
        var home = OverviewPage.Region(picture: picture("home", tracks: 3), name: "Home & <away>")
        home.years = [(2023, picture("home.2023", tracks: 2, thumbnails: false)), (2024, picture("home.2024", tracks: 1, thumbnails: false))]
        var other = OverviewPage.Region(picture: picture("0123456789abcdef", tracks: 1))
        other.years = [(2024, picture("0123456789abcdef.2024", tracks: 1, thumbnails: false))]
        return [home, other]
    }

    /// Cards `<article>0</article>`… newest first, of the years given.
    static func cards(_ years: [Int]) -> [(id: String, digest: UInt64, card: OverviewPage.Card)] {
        years.enumerated().map { index, year in
            (
                "t\(index)", UInt64(index),
                OverviewPage.Card(year: year, card: OverviewPublisher.CardBytes(Array("<article>\(index)</article>".utf8)[...]))
            )
        }
    }

    @Test func theRegionPageListsItsCardsUnderTheirYearsAndItsNameEscaped() {
        let pages = RegionPages(region: Self.regions[0], cards: Self.cards([2024, 2023, 2023]), perPage: 60)
        #expect(pages.pageCount == 0)
        let page = String(decoding: pages.html(ofPage: 0), as: UTF8.self)
        #expect(page.contains("<title>Home &amp; &lt;away&gt; · Overview · TrackSnap</title>"))
        let body = "<h2 id=\"y-2024\">2024</h2>\n<article>0</article>\n<h2 id=\"y-2023\">2023</h2>\n<article>1</article>\n<article>2</article>\n"
        #expect(page.contains(body))
        // The picture as its tiles: a grid the picture's width in points, four columns of 320, the alt text said once.
        #expect(
            page.contains(
                "<figure class=\"region\"><div class=\"tiles\" role=\"img\" aria-label=\"Heat map of 3 tracks, 3.0 km in Home &amp; &lt;away&gt;: "
                    + "the more tracks passed a street, the darker it is drawn\" style=\"width:1280px;grid-template-columns:320fr 320fr 320fr 320fr\">"
                    + "<img src=\"overview/home.t0-0000000000000011.png\" srcset=\"overview/home.t0-0000000000002011@2x.png 2x\" "
                    + "width=\"320\" height=\"320\" alt=\"\">"))
        #expect(page.contains("<img src=\"overview/home.t11-00000000000000cc.png\" srcset=\"overview/home.t11-00000000000020cc@2x.png 2x\" "))
        #expect(page.components(separatedBy: "<img ").count == 13 && page.contains("alt=\"\"></div><figcaption>"))
        #expect(page.contains("<span class=\"count\">3 tracks, 3.0 km</span>"))
        #expect(!page.contains("pager"))
    }

    /// A big region's cards are paged as the index's are: the front page shows the newest, numbered
    /// pages hold them all from the oldest, the years link to the page of their newest card, and a
    /// new newest track leaves every full page but the last ones as it was.
    @Test func aRegionsCardsArePagedFromTheOldestAndANewTrackLeavesOldPagesAlone() {
        let years = [2024, 2024, 2024, 2024, 2023, 2023, 2023]
        let pages = RegionPages(region: Self.regions[0], cards: Self.cards(years), perPage: 3)
        #expect(pages.pageCount == 3)
        #expect(pages.yearLinks == [2024: "region-home.html#y-2024", 2023: "region-home.1.html#y-2023"])
        let front = String(decoding: pages.html(ofPage: 0), as: UTF8.self)
        #expect(front.contains("<article>2</article>") && !front.contains("<article>3</article>"))
        #expect(front.contains("<a rel=\"next\" href=\"region-home.2.html\">Older →</a><a href=\"region-home.1.html\">Oldest</a>"))
        #expect(front.contains("<a href=\"region-home.1.html#y-2023\">2023</a>"))
        let oldest = String(decoding: pages.html(ofPage: 1), as: UTF8.self)
        #expect(oldest.contains("<h2 id=\"y-2023\">2023</h2>\n<article>4</article>\n<article>5</article>\n<article>6</article>"))
        #expect(oldest.contains("<a rel=\"prev\" href=\"region-home.2.html\">← Newer</a>") && oldest.contains("href=\"region-home.html\">Newest</a>"))
        #expect(!oldest.contains("tracks, ") && !oldest.contains("<article>3</article>"))
        let newest = String(decoding: pages.html(ofPage: 3), as: UTF8.self)
        #expect(newest.contains("<article>0</article>") && !newest.contains("<article>1</article>"))

        // Three newer tracks: a fourth page; the oldest page is as it was, the front page is not.
        let more = RegionPages(
            region: Self.regions[0], cards: Self.cards([2025, 2025, 2025] + years).map { ("n" + $0.id, $0.digest, $0.card) }, perPage: 3)
        let grown = RegionPages(region: Self.regions[0], cards: Array(more.cards.prefix(3)) + pages.cards, perPage: 3)
        #expect(grown.pageCount == 4)
        #expect(grown.digest(ofPage: 1) == pages.digest(ofPage: 1))
        #expect(grown.html(ofPage: 1) == pages.html(ofPage: 1))
        #expect(grown.digest(ofPage: 0) != pages.digest(ofPage: 0))
        #expect(grown.digest(ofPage: 2) != pages.digest(ofPage: 2), "its pager now shows page 4")
    }

    /// A picture whose sides are not whole tiles: the last column and row are narrower, in the
    /// markup's columns, in each tile's size and in the part, and the tiles fill the picture.
    @Test func tilesOfAPictureOfOddSizeFillItExactly() {
        let picture = Self.picture("odd", tracks: 1, width: 1000, height: 700)
        #expect(picture.tiling.columns == 4 && picture.tiling.rows == 3)
        let tag = OverviewPage.tiledImageTag(picture, alt: "a & b", lazy: true)
        #expect(
            tag.hasPrefix(
                "<div class=\"tiles\" role=\"img\" aria-label=\"a &amp; b\" style=\"width:1000px;grid-template-columns:320fr 320fr 320fr 40fr\">"))
        #expect(
            tag.hasSuffix(
                "<img src=\"overview/odd.t11-00000000000000cc.png\" srcset=\"overview/odd.t11-00000000000020cc@2x.png 2x\" width=\"40\" "
                    + "height=\"60\" loading=\"lazy\" alt=\"\"></div>"))
        for (index, scale) in picture.scales.enumerated() {
            let tiles = picture.tiles(scaleIndex: index)
            let width = Int(1000 * scale), height = Int(700 * scale)
            #expect(tiles.reduce(0) { $0 + $1.pixels.width * $1.pixels.height } == width * height)
            #expect(
                tiles.prefix(4).reduce(0) { $0 + $1.pixels.width } == width
                    && stride(from: 0, to: 12, by: 4).reduce(0) { $0 + tiles[$1].pixels.height } == height)
        }
        #expect(OverviewPage.tiledImageTag(Self.picture("none", tracks: 0), alt: "") != "")
        var undrawn = Self.picture("undrawn", tracks: 0)
        undrawn.tileDigests = []
        #expect(OverviewPage.tiledImageTag(undrawn, alt: "") == "")
    }

    @Test func aYearPageShowsTheRegionsOfThatYearOnly() {
        let page = String(decoding: OverviewPage.yearHTML(2023, regions: Self.regions, years: [2023, 2024]), as: UTF8.self)
        #expect(page.contains("2023: 2 tracks in 1 region") && page.contains("href=\"region-home.html#y-2023\""))
        #expect(!page.contains("0123456789abcdef") && page.contains("<span aria-current=\"page\">2023</span>"))
        let empty = String(decoding: OverviewPage.yearHTML(2019, regions: Self.regions, years: [2019]), as: UTF8.self)
        #expect(empty.contains("No track of 2019 has a kept route to draw yet."))
    }

    @Test func aYearPageOrdersItsRegionsByThatYearsTracks() throws {
        // The overview puts home first (3 tracks in all); in 2024 the other region has more.
        var regions = Self.regions
        regions[1].years = [(2024, Self.picture("0123456789abcdef.2024", tracks: 5, thumbnails: false))]
        let page = String(decoding: OverviewPage.yearHTML(2024, regions: regions, years: [2023, 2024]), as: UTF8.self)
        let other = try #require(page.range(of: "0123456789abcdef.2024.t0-")), home = try #require(page.range(of: "home.2024.t0-"))
        #expect(other.lowerBound < home.lowerBound)
        // Equal counts: by file stem, so the order never depends on the overview's.
        regions[1].years = [(2024, Self.picture("0123456789abcdef.2024", tracks: 1, thumbnails: false))]
        let tied = String(decoding: OverviewPage.yearHTML(2024, regions: regions.reversed(), years: [2024]), as: UTF8.self)
        #expect(try #require(tied.range(of: "0123456789abcdef.2024.t0-")).lowerBound < (try #require(tied.range(of: "home.2024.t0-"))).lowerBound)
    }

    @Test func thePartListsRegionsWithTheirPagesThumbnailsAndTileListsAndTheYearsNewestFirst() {
        let json = String(decoding: OverviewPage.json(Self.regions, years: [2023, 2024]), as: UTF8.self)
        // The grid of tiles in the part; their names, which change with their pixels, in the picture's list.
        #expect(json.contains("\"id\":\"home\",\"images\":[{\"height\":960,\"scale\":1,\"tiles\":{\"columns\":4,\"rows\":3,\"tile\":320},"))
        #expect(json.contains("{\"height\":1920,\"scale\":2,\"tiles\":{\"columns\":4,\"rows\":3,\"tile\":640},\"width\":2560}"))
        #expect(!json.contains(".t0-"))
        #expect(json.contains("\"name\":\"Home & <away>\",\"page\":\"region-home.html\","))
        #expect(json.contains("\"thumbnails\":[{\"height\":240,\"path\":\"overview/home.thumb.png\",\"scale\":1,\"width\":320}"))
        #expect(
            json.contains(
                "{\"height\":480,\"path\":\"overview/home.thumb@2x.png\",\"scale\":2,\"width\":640}],\"tile_list\":\"index/overview/home.json\",\"tracks\":3}"
            ))
        #expect(json.contains("\"tile_list\":\"index/overview/home.2023.json\",\"tracks\":2}"))
        let list = String(decoding: OverviewPage.tileList(Self.regions[0].picture), as: UTF8.self)
        #expect(
            list.hasPrefix(
                "{\"id\":\"home\",\"images\":[\n{\"columns\":4,\"rows\":3,\"scale\":1,\"tile\":320,\"tiles\":[\"overview/home.t0-0000000000000011.png\",\"overview/home.t1-0000000000000022.png\","
            ))
        #expect(list.hasSuffix("\"overview/home.t11-00000000000020cc@2x.png\"]}\n],\"version\":5}\n"))
        let years = json.components(separatedBy: "\"years\":[")[1]
        // A year's regions as its page orders them: most tracks that year, then by stem (one each in 2024).
        #expect(years.hasPrefix("\n{\"page\":\"overview-2024.html\",\"regions\":[{\"distance_m\":1000,\"id\":\"0123456789abcdef\""))
        #expect(years.contains("],\"tracks\":2,\"year\":2024}") && years.contains("\"tracks\":2,\"year\":2023}\n]}"))
    }

    @Test func theRegionIndexReadsBackEveryPictureAndPage() {
        var index = OverviewRegionIndex()
        for picture in [Self.picture("home", tracks: 3), Self.picture("home.2023", tracks: 2, thumbnails: false)] {
            index.entries[picture.stem] = OverviewRegionIndex.Entry(digest: "d-" + picture.stem, picture: picture)
        }
        index.pages["home"] = "page-digest"
        let read = OverviewRegionIndex.load(bytes: index.bytes())
        #expect(read.entries.mapValues(\.picture) == index.entries.mapValues(\.picture))
        #expect(read.entries.mapValues(\.digest) == index.entries.mapValues(\.digest) && read.pages == ["home": "page-digest"])
        #expect(read.entries["home"]?.picture.tileDigests.map(\.count) == [12, 12])
        // A line without its tiles (as an earlier version wrote it), or with too few, names no picture: it is drawn again.
        let lines = String(decoding: index.bytes(), as: UTF8.self).split(separator: "\n").map(String.init)
        let withoutTiles = lines.map { $0.hasPrefix("home\t") ? $0.components(separatedBy: "\t").dropLast().joined(separator: "\t") : $0 }
        let tooFew = lines.map { $0.hasPrefix("home\t") ? $0.components(separatedBy: ",").dropLast().joined(separator: ",") : $0 }
        for variant in [withoutTiles, tooFew] {
            let partial = OverviewRegionIndex.load(bytes: Array((variant.joined(separator: "\n") + "\n").utf8))
            #expect(partial.entries["home"] == nil && partial.entries["home.2023"] != nil && partial.pages == ["home": "page-digest"])
        }
    }
}
