/// The overview's pages below `overview.html`: one per region (`RegionPages`: its heat map over
/// every year, then the cards of its tracks, newest first, under a heading per year, as the index
/// pages show them) and one per year (`overview-<year>.html`: each region's heat map of
/// that year's tracks). Plain HTML, no scripts, links relative to Output/.
extension OverviewPage {
    /// One track on a region's page: the year it is filed under and its card
    /// (`TrackFragments.card`, from the listing's cache).
    struct Card {
        /// The year of the listing month it is filed under.
        var year: Int
        /// The card's bytes.
        var card: OverviewPublisher.CardBytes
    }

    /// The regions with a picture of `year` and that picture, most tracks that year first (then by
    /// file stem): the year page's order and the part's. By the year's own counts, not the
    /// regions' over every year: a new track then changes the page of its year only. (Two cities
    /// of about the same count swapped places on every year page when the order was the
    /// overview's: twelve pages of tiles rewritten, 350 KB.)
    static func yearRegions(_ year: Int, _ regions: [Region]) -> [(Region, Picture)] {
        regions.compactMap { region in region.years.first { $0.year == year }.map { (region, $0.picture) } }
            .sorted { ($0.1.trackCount, $1.1.stem) > ($1.1.trackCount, $0.1.stem) }
    }

    /// `overview-<year>.html`: the regions' pictures of `year` (`yearRegions`); `years` every year
    /// the listing has a track in.
    static func yearHTML(_ year: Int, regions: [Region], years: [Int]) -> [UInt8] {
        let e = ListingFormat.escape
        let shown = yearRegions(year, regions)
        let total = shown.reduce(0) { $0 + $1.1.trackCount }
        var out = PageShell.head(title: "\(year) · Overview · TrackSnap", styleSheet: "site.css")
        out += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(year): \(total) "
        out += "\(total == 1 ? "track" : "tracks") in \(shown.count) \(shown.count == 1 ? "region" : "regions")</span> "
        out += "<a href=\"overview.html\">← Overview</a> <a href=\"index.html#months\">All tracks by month</a></header>\n"
        out += yearNavigation(years, current: year)
        out += "<main class=\"overview\">\n<h2>\(year)</h2>\n"
        if shown.isEmpty { out += "<p class=\"muted\">No track of \(year) has a kept route to draw yet.</p>\n" }
        for (region, picture) in shown {
            let link = region.yearLinks[year] ?? region.page + "#y-\(year)"
            let what = (region.name.map { "in " + $0 } ?? "around " + picture.place) + " in \(year)"
            out += "<figure class=\"region\"><a href=\"\(link)\">" + tiledImageTag(picture, alt: altText(picture, of: what), lazy: true)
            out += "</a><figcaption><a href=\"\(link)\">\(e(region.title))</a>: \(picture.summary)</figcaption></figure>\n"
        }
        out += "</main>\n" + PageShell.tail
        return Array(out.utf8)
    }
}
