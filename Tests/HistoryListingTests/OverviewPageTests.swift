import MapGeometry
import Testing

@testable import HistoryListing

/// The overview's pages and part as pure functions of what they show, and the region index that
/// keeps what each picture and page was made from.
@Suite struct OverviewPageTests {
    static func picture(_ stem: String, tracks: Int, thumbnails: Bool = true) -> OverviewPage.Picture {
        OverviewPage.Picture(
            stem: stem, trackCount: tracks, distanceMeters: tracks * 1000, widthPoints: 1280, heightPoints: 960,
            mapRect: MapRect(minX: 0, minY: 0, maxX: 1280, maxY: 960), scales: [1, 2], thumbnailScales: thumbnails ? [0.25, 0.5] : [])
    }

    static var regions: [OverviewPage.Region] {
        var home = OverviewPage.Region(picture: picture("home", tracks: 3), name: "Home & <away>")
        home.years = [(2023, picture("home.2023", tracks: 2, thumbnails: false)), (2024, picture("home.2024", tracks: 1, thumbnails: false))]
        var other = OverviewPage.Region(picture: picture("0123456789abcdef", tracks: 1))
        other.years = [(2024, picture("0123456789abcdef.2024", tracks: 1, thumbnails: false))]
        return [home, other]
    }

    @Test func theRegionPageListsItsCardsUnderTheirYearsAndItsNameEscaped() {
        let cards = [
            OverviewPage.Card(year: 2024, card: Array("<article>c</article>".utf8)[...]),
            OverviewPage.Card(year: 2023, card: Array("<article>b</article>".utf8)[...]),
            OverviewPage.Card(year: 2023, card: Array("<article>a</article>".utf8)[...]),
        ]
        let page = String(decoding: OverviewPage.regionHTML(Self.regions[0], cards: cards), as: UTF8.self)
        #expect(page.contains("<title>Home &amp; &lt;away&gt; · Overview · TrackSnap</title>"))
        let body = "<h2 id=\"y-2024\">2024</h2>\n<article>c</article>\n<h2 id=\"y-2023\">2023</h2>\n<article>b</article>\n<article>a</article>\n"
        #expect(page.contains(body))
        #expect(page.contains("srcset=\"overview/home.png 1x, overview/home@2x.png 2x\" width=\"1280\" height=\"960\""))
        #expect(page.contains("<span class=\"count\">3 tracks, 3.0 km</span>"))
    }

    @Test func aYearPageShowsTheRegionsOfThatYearOnly() {
        let page = String(decoding: OverviewPage.yearHTML(2023, regions: Self.regions, years: [2023, 2024]), as: UTF8.self)
        #expect(page.contains("2023: 2 tracks in 1 region") && page.contains("href=\"region-home.html#y-2023\""))
        #expect(!page.contains("0123456789abcdef") && page.contains("<span aria-current=\"page\">2023</span>"))
        let empty = String(decoding: OverviewPage.yearHTML(2019, regions: Self.regions, years: [2019]), as: UTF8.self)
        #expect(empty.contains("No track of 2019 has a kept route to draw yet."))
    }

    @Test func thePartListsRegionsWithTheirPagesAndThumbnailsAndTheYearsNewestFirst() {
        let json = String(decoding: OverviewPage.json(Self.regions, years: [2023, 2024]), as: UTF8.self)
        #expect(json.contains("\"id\":\"home\",\"images\":[{\"height\":960,\"path\":\"overview/home.png\",\"scale\":1,\"width\":1280}"))
        #expect(json.contains("\"name\":\"Home & <away>\",\"page\":\"region-home.html\","))
        #expect(json.contains("\"thumbnails\":[{\"height\":240,\"path\":\"overview/home.thumb.png\",\"scale\":1,\"width\":320}"))
        #expect(json.contains("{\"height\":480,\"path\":\"overview/home.thumb@2x.png\",\"scale\":2,\"width\":640}],\"tracks\":3}"))
        let years = json.components(separatedBy: "\"years\":[")[1]
        #expect(years.hasPrefix("\n{\"page\":\"overview-2024.html\",\"regions\":[{\"distance_m\":1000,\"id\":\"home\""))
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
    }
}
