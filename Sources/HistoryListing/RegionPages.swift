import ContentHash

/// The pages of one region, paged as the index is so that a new track rewrites one page, not
/// every card of a city: `region-<stem>.html` shows the region's pictures, its years and its
/// newest `perPage` cards; when it has more, numbered pages `region-<stem>.<n>.html` (1 = the
/// oldest `perPage` tracks, as `IndexPages` numbers them) hold them all, each with a pager. A
/// page's bytes depend only on its own cards and on links that change when a page is added next
/// to it, never on the region's track count, so a new newest track changes the front page and
/// at most the last numbered pages (their digests say which: `digest(ofPage:)`). At 40,000 tracks
/// in one city that is about 100 KB written instead of 44 MB.
struct RegionPages {
    /// The region (its pictures, name and years).
    let region: OverviewPage.Region
    /// Every card of the region, newest first, with its track id and the digest of what it shows.
    let cards: [(id: String, digest: UInt64, card: OverviewPage.Card)]
    /// Cards a page. Default: the listing's page size (`ListingBuilder.pageSize`).
    let perPage: Int
    /// Where each year's newest card is: `#y-<year>` on the page that shows it first (the front
    /// page when it is among the newest `perPage`).
    let yearLinks: [Int: String]

    /// The pages of `region` showing `cards` (newest first), `perPage` a page.
    init(region: OverviewPage.Region, cards: [(id: String, digest: UInt64, card: OverviewPage.Card)], perPage: Int) {
        self.region = region
        self.cards = cards
        self.perPage = perPage
        var links: [Int: String] = [:]
        for (index, entry) in cards.enumerated() where links[entry.card.year] == nil {
            let number = IndexPages.page(ofItem: index, count: cards.count, pageSize: perPage)
            let page = index < perPage ? region.page : Self.fileName(stem: region.picture.stem, page: number)
            links[entry.card.year] = page + "#y-\(entry.card.year)"
        }
        yearLinks = links
    }

    /// Numbered pages: none when the front page shows every card.
    var pageCount: Int { cards.count > perPage ? (cards.count + perPage - 1) / perPage : 0 }

    /// The front page's file, relative to Output/.
    var frontPage: String { region.page }

    /// Numbered page `number`'s file, relative to Output/ (a stem holds no dot: `NamedRegion.slug`
    /// and hex digits).
    static func fileName(stem: String, page number: Int) -> String { "region-\(stem).\(number).html" }

    /// Numbered page `number`'s file.
    func fileName(page number: Int) -> String { Self.fileName(stem: region.picture.stem, page: number) }

    /// The numbered page holding the card at newest-first position `index`.
    func page(ofCard index: Int) -> Int { IndexPages.page(ofItem: index, count: cards.count, pageSize: perPage) }

    /// The newest-first positions numbered page `number` holds.
    func range(ofPage number: Int) -> Range<Int> { IndexPages.range(ofPage: number, count: cards.count, pageSize: perPage) }

    /// The digest of what page `number` (0: the front page) is made of: changes when its bytes do.
    /// The first 128 bits of a SHA-256, in hex: the region index keeps one for each of a city's
    /// hundreds of pages and is written at every change (the whole hash was a quarter of what a
    /// new track wrote besides the pictures).
    func digest(ofPage number: Int) -> String {
        var hash = SHA256()
        if number == 0 {
            hash.update("region page 2 \(perPage)\n\(region.name ?? "")\n")
            for picture in [region.picture] + region.years.map(\.picture) { hash.update("\(picture)\n") }
            hash.update(frontPager + "\n")
            for (year, link) in yearLinks.sorted(by: { $0.key < $1.key }) { hash.update("\(year) \(link)\n") }
        } else {
            hash.update("region page \(number) \(perPage)\n\(region.title)\n" + pager(number) + "\n")
        }
        // Binary, not text, in one buffer: a busy city's pages hash 40,000 of these.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(perPage * 80)
        for entry in cards[number == 0 ? 0..<min(perPage, cards.count) : range(ofPage: number)] {
            bytes += entry.id.utf8
            withUnsafeBytes(of: (Int64(entry.card.year).littleEndian, entry.digest.littleEndian)) { bytes += $0 }
        }
        hash.update(bytes)
        return String(hash.finalize().hex.prefix(32))
    }

    /// The bytes of page `number` (0: the front page).
    func html(ofPage number: Int) -> [UInt8] {
        number == 0 ? frontHTML() : numberedHTML(number)
    }

    /// The front page: pictures, years, the newest cards, the way to older pages.
    private func frontHTML() -> [UInt8] {
        let e = ListingFormat.escape
        let picture = region.picture
        var head = PageShell.head(title: region.title + " · Overview · TrackSnap", styleSheet: "site.css")
        head += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(picture.summary)</span> "
        head += "<a href=\"overview.html\">← Overview</a></header>\n"
        if !region.years.isEmpty {
            let links = yearLinks
            head += "<nav class=\"months\" aria-label=\"This region by year\"><ul><li><b>Years</b> "
            for (year, shown) in region.years.reversed() {
                // The page's own name before the fragment: every link of the site names a file.
                head += "<a href=\"\(links[year] ?? frontPage)\">\(year)</a> <span class=\"muted\">(\(shown.trackCount))</span> "
            }
            head += "</li></ul></nav>\n"
        }
        head += "<main class=\"grid\">\n<h2>\(e(region.title))</h2>\n"
        let what = region.name.map { "in " + $0 } ?? "around " + picture.place
        head += "<figure class=\"region\">" + OverviewPage.tiledImageTag(picture, alt: OverviewPage.altText(picture, of: what))
        head += "<figcaption>\(picture.summary) <span class=\"muted\">around \(picture.place)</span></figcaption></figure>\n"
        return document(head: head, range: 0..<min(perPage, cards.count), pager: frontPager)
    }

    /// A numbered page: the region's title, its cards, its pager.
    private func numberedHTML(_ number: Int) -> [UInt8] {
        let e = ListingFormat.escape
        var head = PageShell.head(title: region.title + " · page \(number) · Overview · TrackSnap", styleSheet: "site.css")
        head += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1>"
        head += "<a href=\"\(frontPage)\">← \(e(region.title))</a> <a href=\"overview.html\">Overview</a></header>\n"
        head += "<main class=\"grid\">\n<h2>\(e(region.title)) <span class=\"muted\">(page \(number))</span></h2>\n"
        return document(head: head, range: range(ofPage: number), pager: pager(number))
    }

    /// The front page's way to the older pages: the page of its first card not shown, and the oldest.
    private var frontPager: String {
        pageCount > 0 ? IndexPages.newestPager(older: page(ofCard: perPage), fileName: fileName(page:)) : ""
    }

    private func pager(_ number: Int) -> String {
        IndexPages.pager(number, pageCount: pageCount, newest: frontPage, fileName: fileName(page:))
    }

    /// `head`, the cards of `range` under a heading per year (a year's first card on the page
    /// carries its anchor), then `pager`.
    private func document(head: String, range: Range<Int>, pager: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count * 1100 + head.utf8.count + 1024)
        out += Array(head.utf8)
        var previousYear: Int?
        var anchored: Set<Int> = []
        for entry in cards[range] {
            // No link to the year's page here: that page links this one, and is written after it.
            // A year seen again (a time zone's tracks sorting among the next year's) keeps one anchor.
            let year = entry.card.year
            if year != previousYear {
                out += Array((anchored.insert(year).inserted ? "<h2 id=\"y-\(year)\">\(year)</h2>\n" : "<h2>\(year)</h2>\n").utf8)
                previousYear = year
            }
            entry.card.card.append(to: &out)
            out.append(0x0A)
        }
        out += Array(("</main>\n" + pager + PageShell.tail).utf8)
        return out
    }
}
