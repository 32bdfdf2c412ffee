/// The overview's pages below `overview.html`: one per region (`region-<region>.html`: its heat
/// map over every year, then the cards of its tracks, newest first, under a heading per year, as
/// the index pages show them) and one per year (`overview-<year>.html`: each region's heat map of
/// that year's tracks). Plain HTML, no scripts, links relative to Output/.
extension OverviewPage {
    /// One track on a region's page: the year it is filed under and its card
    /// (`TrackFragments.card`, from the listing's cache).
    struct Card {
        /// The year of the listing month it is filed under.
        var year: Int
        /// The card's bytes.
        var card: ArraySlice<UInt8>
    }

    /// `region-<region>.html`: `cards` newest first.
    static func regionHTML(_ region: Region, cards: [Card]) -> [UInt8] {
        let e = ListingFormat.escape
        let picture = region.picture
        var out: [UInt8] = []
        out.reserveCapacity(cards.count * 1100 + 4096)
        var head = PageShell.head(title: region.title + " · Overview · TrackSnap", styleSheet: "site.css")
        head += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(picture.summary)</span> "
        head += "<a href=\"overview.html\">← Overview</a></header>\n"
        if !region.years.isEmpty {
            head += "<nav class=\"months\" aria-label=\"This region by year\"><ul><li><b>Years</b> "
            for (year, shown) in region.years.reversed() {
                // The page's own name before the fragment: every link of the site names a file.
                head += "<a href=\"\(region.page)#y-\(year)\">\(year)</a> <span class=\"muted\">(\(shown.trackCount))</span> "
            }
            head += "</li></ul></nav>\n"
        }
        head += "<main class=\"grid\">\n<h2>\(e(region.title))</h2>\n"
        let what = region.name.map { "in " + $0 } ?? "around " + picture.place
        head += "<figure class=\"region\">" + imageTag(picture.images, alt: altText(picture, of: what))
        head += "<figcaption>\(picture.summary) <span class=\"muted\">around \(picture.place)</span></figcaption></figure>\n"
        out += Array(head.utf8)
        var previousYear: Int?
        for card in cards {
            // No link to the year's page here: that page links this one, and is written after it.
            if card.year != previousYear {
                out += Array("<h2 id=\"y-\(card.year)\">\(card.year)</h2>\n".utf8)
                previousYear = card.year
            }
            out += card.card
            out.append(0x0A)
        }
        out += Array(("</main>\n" + PageShell.tail).utf8)
        return out
    }

    /// `overview-<year>.html`: the regions' pictures of `year`, in the order of `regions`;
    /// `years` every year the listing has a track in.
    static func yearHTML(_ year: Int, regions: [Region], years: [Int]) -> [UInt8] {
        let e = ListingFormat.escape
        let shown = regions.compactMap { region in region.years.first { $0.year == year }.map { (region, $0.picture) } }
        let total = shown.reduce(0) { $0 + $1.1.trackCount }
        var out = PageShell.head(title: "\(year) · Overview · TrackSnap", styleSheet: "site.css")
        out += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(year): \(total) "
        out += "\(total == 1 ? "track" : "tracks") in \(shown.count) \(shown.count == 1 ? "region" : "regions")</span> "
        out += "<a href=\"overview.html\">← Overview</a> <a href=\"index.html#months\">All tracks by month</a></header>\n"
        out += yearNavigation(years, current: year)
        out += "<main class=\"overview\">\n<h2>\(year)</h2>\n"
        if shown.isEmpty { out += "<p class=\"muted\">No track of \(year) has a kept route to draw yet.</p>\n" }
        for (region, picture) in shown {
            let link = region.page + "#y-\(year)"
            let what = (region.name.map { "in " + $0 } ?? "around " + picture.place) + " in \(year)"
            out += "<figure class=\"region\"><a href=\"\(link)\">" + imageTag(picture.images, alt: altText(picture, of: what), lazy: true)
            out += "</a><figcaption><a href=\"\(link)\">\(e(region.title))</a>: \(picture.summary)</figcaption></figure>\n"
        }
        out += "</main>\n" + PageShell.tail
        return Array(out.utf8)
    }
}
