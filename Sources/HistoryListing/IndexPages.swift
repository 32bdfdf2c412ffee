/// The index pages: `index.html` is page 1, then `page-2.html`, `page-3.html`, … Each holds
/// `pageSize` cards newest first, a month heading where the month changes, the year/month
/// navigation and a pager. Plain HTML, no scripts.
struct IndexPages {
    /// One listed track, in listing order.
    struct Item {
        var id: String
        var month: String
        var card: ArraySlice<UInt8>
    }

    let items: [Item]
    let pageSize: Int

    /// Pages needed (at least one, so an empty archive still gets an index.html).
    var pageCount: Int { max(1, (items.count + pageSize - 1) / pageSize) }

    /// The file of page `number` (1-based), relative to Output/.
    static func fileName(page number: Int) -> String { number == 1 ? "index.html" : "page-\(number).html" }

    /// The page (1-based) that shows item `index`.
    func page(ofItem index: Int) -> Int { index / pageSize + 1 }

    /// Every page's bytes, in page order.
    func pages() -> [(path: String, bytes: [UInt8])] {
        let navigation = Array(monthNavigation().utf8)
        return (1...pageCount).map { number in (Self.fileName(page: number), page(number, navigation: navigation)) }
    }

    private func page(_ number: Int, navigation: [UInt8]) -> [UInt8] {
        let range = ((number - 1) * pageSize)..<min(items.count, number * pageSize)
        let total = items.count == 1 ? "1 track" : "\(items.count) tracks"
        let title = pageCount > 1 ? "TrackSnap · page \(number) of \(pageCount)" : "TrackSnap"
        var out: [UInt8] = []
        out.reserveCapacity(range.count * 1100 + navigation.count + 4096)
        out += Array(PageShell.head(title: title, styleSheet: "site.css").utf8)
        out += Array("<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(total)\(pageCount > 1 ? " · page \(number) of \(pageCount)" : "")</span></header>\n".utf8)
        out += navigation
        out += Array("<main class=\"grid\">\n".utf8)
        if items.isEmpty { out += Array("<p class=\"muted\">No tracks yet: queue some with <code>tracksnap enqueue</code> and run <code>tracksnap run</code>.</p>\n".utf8) }
        var previousMonth = range.lowerBound > 0 ? items[range.lowerBound - 1].month : ""
        for index in range {
            let item = items[index]
            if item.month != previousMonth {
                out += Array("<h2 id=\"m-\(item.month)\">\(Self.monthTitle(item.month))</h2>\n".utf8)
                previousMonth = item.month
            } else if index == range.lowerBound {
                out += Array("<h2>\(Self.monthTitle(item.month)) <span class=\"muted\">(continued)</span></h2>\n".utf8)
            }
            out += item.card
            out.append(0x0A)
        }
        out += Array("</main>\n".utf8)
        out += Array(pager(number).utf8)
        out += Array(PageShell.tail.utf8)
        return out
    }

    /// Years, newest first, each with its months linking to the page and heading where the month
    /// starts.
    private func monthNavigation() -> String {
        guard !items.isEmpty else { return "" }
        var firstIndex: [String: Int] = [:]
        var months: [String] = []
        for (index, item) in items.enumerated() where firstIndex[item.month] == nil {
            firstIndex[item.month] = index
            months.append(item.month)
        }
        var out = "<nav class=\"months\" aria-label=\"Tracks by month\"><ul>"
        var currentYear = ""
        for month in months {
            let year = String(month.prefix(4))
            if year != currentYear {
                if !currentYear.isEmpty { out += "</li>" }
                out += "<li><b>\(ListingFormat.escape(year))</b> "
                currentYear = year
            }
            let target = Self.fileName(page: page(ofItem: firstIndex[month]!)) + "#m-" + month
            out += "<a href=\"\(ListingFormat.escape(target))\">\(ListingFormat.escape(Self.shortMonth(month)))</a>"
        }
        return out + "</li></ul></nav>\n"
    }

    /// Previous, next, and a page list (first, last and two either side of the current one).
    private func pager(_ number: Int) -> String {
        guard pageCount > 1 else { return "" }
        var out = "<nav class=\"pager\" aria-label=\"Pages\">"
        if number > 1 { out += "<a rel=\"prev\" href=\"\(Self.fileName(page: number - 1))\">← Newer</a>" }
        var shown = Set([1, pageCount])
        for candidate in (number - 2)...(number + 2) where candidate >= 1 && candidate <= pageCount { shown.insert(candidate) }
        var previous = 0
        for candidate in shown.sorted() {
            if candidate > previous + 1 { out += "<span class=\"gap\">…</span>" }
            out += candidate == number
                ? "<span class=\"current\" aria-current=\"page\">\(candidate)</span>"
                : "<a href=\"\(Self.fileName(page: candidate))\">\(candidate)</a>"
            previous = candidate
        }
        if number < pageCount { out += "<a rel=\"next\" href=\"\(Self.fileName(page: number + 1))\">Older →</a>" }
        return out + "</nav>\n"
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

    static let tail = "<footer>Made by TrackSnap from recorded GPS tracks. Times are local, estimated from each track's longitude.</footer>\n</body></html>\n"
}
