/// The index pages, numbered from the oldest: `page-1.html` holds the oldest `pageSize` tracks,
/// `page-2.html` the next, …, the last page the newest (it fills up, then a new page starts), and
/// `index.html` the newest `pageSize` tracks whatever page they are on. A card never moves to
/// another page number when tracks are added (only a late upload of an old activity shifts the
/// pages after it), so a new track rewrites `index.html` and the newest page, not every page.
/// Each page is newest first with a month heading where the month changes; `index.html` carries
/// the year/month navigation. Plain HTML, no scripts.
struct IndexPages {
    /// One listed track, in listing order (newest first).
    struct Item {
        /// The track id (its cache key).
        var id: String
        /// "2024-05": the month heading it sits under.
        var month: String
        /// Its card (`TrackFragments.card`).
        var card: ArraySlice<UInt8>
        /// Its object in `index.json` (`TrackFragments.json`); the pages do not use it, its part does.
        var json: ArraySlice<UInt8> = []
        /// The track's digest (`ListingCache.Entry.digest`): a page's and a part's digests are made of these.
        var digest: UInt64
    }

    /// A month of the navigation and the newest-first position of its newest track.
    struct MonthStart: Equatable {
        var month: String
        var position: Int
    }

    /// The listed tracks newest first: all of them, or the newest ones (`count` says how many are
    /// listed) when only the newest pages are made (`ListingBuilder.appendNewest`).
    let items: [Item]
    let pageSize: Int
    /// Tracks listed.
    let count: Int
    /// The months of the navigation, when `items` does not hold every track.
    private let monthStarts: [MonthStart]?

    /// The pages of `items`, every listed track.
    init(items: [Item], pageSize: Int) {
        self.items = items
        self.pageSize = pageSize
        count = items.count
        monthStarts = nil
    }

    /// The pages of `count` tracks of which `newest` are the newest (newest first) and `months`
    /// the navigation's months: only pages, parts and digests of those tracks can be made.
    init(newest: [Item], count: Int, months: [MonthStart], pageSize: Int) {
        items = newest
        self.pageSize = pageSize
        self.count = count
        monthStarts = months
    }

    /// Numbered pages (0 for an empty listing: then only index.html exists).
    var pageCount: Int { (count + pageSize - 1) / pageSize }

    /// The file of numbered page `number` (1 = oldest), relative to Output/.
    static func fileName(page number: Int) -> String { "page-\(number).html" }

    /// The numbered page that holds item `index` (newest-first position).
    func page(ofItem index: Int) -> Int { Self.page(ofItem: index, count: count, pageSize: pageSize) }

    /// The newest-first positions page `number` holds.
    func range(ofPage number: Int) -> Range<Int> { Self.range(ofPage: number, count: count, pageSize: pageSize) }

    /// The numbered page (1 = oldest) holding newest-first position `index` of `count` items
    /// paged `pageSize` a page: the index's and a region's (`RegionPages`) numbering.
    static func page(ofItem index: Int, count: Int, pageSize: Int) -> Int { (count - 1 - index) / pageSize + 1 }

    /// The newest-first positions numbered page `number` holds of `count` items, `pageSize` a page.
    static func range(ofPage number: Int, count: Int, pageSize: Int) -> Range<Int> {
        (count - min(number * pageSize, count))..<(count - (number - 1) * pageSize)
    }

    /// A digest of everything page `number` is made from: its cards, the month before its first
    /// card (for the "continued" heading), and which newer pages exist (its pager). Pages whose
    /// digest is unchanged are not rewritten.
    func digest(ofPage number: Int) -> UInt64 {
        let range = range(ofPage: number)
        // "overview", "years": the header links overview.html and each year's first heading its
        // overview, so pages written before them are written again.
        var hash = ListingCache.digest("page \(number) of size \(pageSize) newer \(min(pageCount - number, 3)) overview years\n".utf8)
        hash = ListingCache.digest((range.lowerBound > 0 ? items[range.lowerBound - 1].month : "").utf8, seed: hash)
        for index in range { hash = withUnsafeBytes(of: items[index].digest) { ListingCache.digest($0, seed: hash) } }
        return hash
    }

    /// Page `number`'s bytes.
    func page(_ number: Int) -> [UInt8] {
        let title = "TrackSnap · page \(number)"
        let header =
            "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">page \(number)</span> <a href=\"index.html#months\">by month</a> <a href=\"overview.html\">Overview</a></header>\n"
        return document(title: title, header: header, navigation: [], range: range(ofPage: number), pager: pager(number))
    }

    /// `index.html`: the newest `pageSize` tracks, the month navigation and the way to older pages.
    func indexPage() -> [UInt8] {
        let total = count == 1 ? "1 track" : "\(count) tracks"
        let header =
            "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(total)</span> "
            + "<a href=\"overview.html\">Overview</a></header>\n"
        let shown = 0..<min(pageSize, count)
        // The newest page not wholly shown here: its newest cards may repeat the last ones above.
        let pager = count > pageSize ? Self.newestPager(older: page(ofItem: shown.upperBound), fileName: Self.fileName(page:)) : ""
        return document(title: "TrackSnap", header: header, navigation: Array(monthNavigation().utf8), range: shown, pager: pager)
    }

    private func document(title: String, header: String, navigation: [UInt8], range: Range<Int>, pager: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count * 1100 + navigation.count + 4096)
        out += Array(PageShell.head(title: title, styleSheet: "site.css").utf8)
        out += Array(header.utf8)
        out += navigation
        out += Array("<main class=\"grid\">\n".utf8)
        if count == 0 {
            out += Array(
                "<p class=\"muted\">No tracks yet: queue some with <code>tracksnap enqueue</code> and run <code>tracksnap run</code>.</p>\n".utf8)
        }
        var previousMonth = range.lowerBound > 0 ? items[range.lowerBound - 1].month : ""
        var previousYear: Substring = ""
        for index in range {
            let item = items[index]
            // The first heading of each year on the page links that year's overview.
            let year = item.month.prefix(4)
            let glance = year != previousYear ? Self.yearOverviewLink(item.month) : ""
            previousYear = year
            if item.month != previousMonth {
                out += Array("<h2 id=\"m-\(item.month)\">\(Self.monthTitle(item.month))\(glance)</h2>\n".utf8)
                previousMonth = item.month
            } else if index == range.lowerBound {
                out += Array("<h2>\(Self.monthTitle(item.month)) <span class=\"muted\">(continued)</span>\(glance)</h2>\n".utf8)
            }
            out += item.card
            out.append(0x0A)
        }
        out += Array("</main>\n".utf8)
        out += Array(pager.utf8)
        out += Array(PageShell.tail.utf8)
        return out
    }

    /// Years, newest first, each with its months linking to the numbered page and heading where
    /// the month's newest track is.
    private func monthNavigation() -> String {
        guard count > 0 else { return "" }
        var out = "<nav class=\"months\" id=\"months\" aria-label=\"Tracks by month\"><ul>"
        var currentYear = ""
        for (month, position) in months().map({ ($0.month, $0.position) }) {
            let year = String(month.prefix(4))
            if year != currentYear {
                if !currentYear.isEmpty { out += "</li>" }
                let label = ListingFormat.escape(year)
                let link = Int(year).map { "<a href=\"\(OverviewPage.yearPagePath($0))\" title=\"\(label) at a glance\">\(label)</a>" }
                out += "<li><b>\(link ?? label)</b> "
                currentYear = year
            }
            let target = Self.fileName(page: page(ofItem: position)) + "#m-" + month
            out += "<a href=\"\(ListingFormat.escape(target))\">\(ListingFormat.escape(Self.shortMonth(month)))</a>"
        }
        return out + "</li></ul></nav>\n"
    }

    /// Every month with the position of its newest track, newest first.
    func months() -> [MonthStart] {
        if let monthStarts { return monthStarts }
        var seen: Set<String> = []
        var starts: [MonthStart] = []
        for (index, item) in items.enumerated() where seen.insert(item.month).inserted {
            starts.append(MonthStart(month: item.month, position: index))
        }
        return starts
    }

    /// Newer, older, and the page numbers near this one; never the page count, which would
    /// change every page whenever a page is added.
    private func pager(_ number: Int) -> String {
        Self.pager(number, pageCount: pageCount, newest: "index.html", fileName: Self.fileName(page:))
    }

    /// The way from the page of the newest items to the numbered pages: the page `older` (the
    /// newest one not wholly shown there) and the oldest.
    static func newestPager(older: Int, fileName: (Int) -> String) -> String {
        "<nav class=\"pager\" aria-label=\"Pages\"><a rel=\"next\" href=\"\(fileName(older))\">Older →</a>"
            + (older > 1 ? "<a href=\"\(fileName(1))\">Oldest</a>" : "") + "</nav>\n"
    }

    /// The pager of numbered page `number` of `pageCount` (1 = oldest) whose files `fileName`
    /// names, under the page of the newest tracks `newest`: newer, older, the oldest page and
    /// the page numbers near this one (the index's and a region's, `RegionPages`).
    static func pager(_ number: Int, pageCount: Int, newest: String, fileName: (Int) -> String) -> String {
        var out = "<nav class=\"pager\" aria-label=\"Pages\">"
        out += "<a rel=\"prev\" href=\"\(number == pageCount ? newest : fileName(number + 1))\">← Newer</a>"
        var shown = Set([1])
        for candidate in (number - 2)...(number + 2) where candidate >= 1 && candidate <= pageCount { shown.insert(candidate) }
        var previous = 0
        for candidate in shown.sorted() {
            if candidate > previous + 1 { out += "<span class=\"gap\">…</span>" }
            out +=
                candidate == number
                ? "<span class=\"current\" aria-current=\"page\">\(candidate)</span>"
                : "<a href=\"\(fileName(candidate))\">\(candidate)</a>"
            previous = candidate
        }
        if number > 1 { out += "<a rel=\"next\" href=\"\(fileName(number - 1))\">Older →</a>" }
        return out + "<a href=\"\(newest)\">Newest</a></nav>\n"
    }

    /// The link to the overview of the year of `month` ("2024-05"), for a heading; empty when it
    /// names no year.
    static func yearOverviewLink(_ month: String) -> String {
        guard let year = Int(month.prefix(4)) else { return "" }
        return " <a class=\"glance\" href=\"\(OverviewPage.yearPagePath(year))\">\(year) at a glance</a>"
    }

    /// "2024-05" → "May 2024"; anything else as it is (escaped).
    static func monthTitle(_ month: String) -> String {
        let parts = month.split(separator: "-")
        guard parts.count == 2, let number = Int(parts[1]), (1...12).contains(number) else { return ListingFormat.escape(month) }
        return "\(ListingFormat.monthNames[number - 1]) \(ListingFormat.escape(String(parts[0])))"
    }

    static func shortMonth(_ month: String) -> String {
        let parts = month.split(separator: "-")
        guard parts.count == 2, let number = Int(parts[1]), (1...12).contains(number) else { return month }
        return String(ListingFormat.monthNames[number - 1].prefix(3))
    }
}

/// The start and end every page shares.
enum PageShell {
    static func head(title: String, styleSheet: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark"><title>\(ListingFormat.escape(title))</title>
        <link rel="icon" href="data:,"><link rel="stylesheet" href="\(styleSheet)"></head><body>

        """
    }

    static let tail =
        "<footer>Made by TrackSnap from recorded GPS tracks. Times are local, estimated from each track's longitude.</footer>\n</body></html>\n"
}
