/// What a listing refresh writes and removes, worked out from the listed tracks and the manifest
/// of the files already written, with no I/O: the index pages, the parts of `index.json`, the top
/// files and which detail pages need writing, each with the digest of what it is made from, and
/// the manifest entries whose files must go.
///
/// A file is in the plan only when its digest differs from the manifest's (or the manifest has no
/// entry: `SiteWriter.verify` drops the entry of a file deleted or edited since), so a new track
/// plans its own detail page, the newest numbered page and part, and the top files. The top files
/// (`site.css`, `index.html`, `index.json`) are always planned: they are small, and every change
/// touches `index.html`.
struct SitePlan {
    /// A file to write: its manifest id (see `SiteWriter.relativePath(ofEntry:)`), the digest of its
    /// inputs, and its bytes.
    struct File {
        /// Manifest id: a track id for a detail page, else the path relative to Output/.
        var id: String
        /// Digest of the inputs the file is made from.
        var digest: UInt64
        /// The file's bytes.
        var bytes: [UInt8]
    }

    /// A detail page to write (its bytes need the track's record, which the builder reads).
    struct Detail: Equatable {
        /// The track id (its cache key).
        var id: String
        /// The track's JSON digest (`ListingCache.Entry.digest`).
        var digest: UInt64
    }

    /// Detail pages to write, in listing order (newest first).
    var detailPages: [Detail] = []
    /// Index parts and numbered pages to write, parts first, each newest number first.
    var indexFiles: [File] = []
    /// `site.css`, `index.html` and `index.json`, written last: a card never links to a page that
    /// is not there yet, and `index.json` never names a part not written.
    var topFiles: [File] = []
    /// Manifest entries whose files are to be removed: detail pages of tracks no longer listed,
    /// numbered pages and parts past the last one.
    var removals: [String] = []
    /// The listed track ids (the detail pages that stay).
    var liveDetails: Set<String> = []
    /// Numbered pages (and parts) of the listing.
    var pageCount = 0

    /// The plan for `items` (listing order, newest first) in pages of `pageSize`, against the
    /// files `manifest` says were written.
    init(items: [IndexPages.Item], pageSize: Int, manifest: [String: SiteWriter.Entry]) {
        let index = IndexPages(items: items, pageSize: pageSize)
        self.init(index: index, pages: 1...max(index.pageCount, 1), manifest: manifest)
        liveDetails.reserveCapacity(items.count)
        for item in items {
            liveDetails.insert(item.id)
            if manifest[item.id]?.digest != item.digest { detailPages.append(Detail(id: item.id, digest: item.digest)) }
        }
        removals = Self.removals(from: manifest, liveDetails: liveDetails, pageCount: pageCount)
    }

    /// The plan of `index`'s numbered pages and parts among `pages` (whose tracks `index.items`
    /// must hold, with the track newer than each page's newest) and the top files, against the
    /// files `manifest` says were written; no detail page, nothing removed.
    init(index: IndexPages, pages candidates: ClosedRange<Int>, manifest: [String: SiteWriter.Entry]) {
        pageCount = index.pageCount
        var pages: [File] = []
        var parts: [File] = []
        for number in stride(from: index.pageCount, through: 1, by: -1) {
            let range = index.range(ofPage: number)
            let partPath = SiteWriter.partPath(number)
            guard candidates.contains(number) else { continue }
            let pageName = IndexPages.fileName(page: number)
            let pageDigest = index.digest(ofPage: number)
            if manifest[pageName]?.digest != pageDigest { pages.append(File(id: pageName, digest: pageDigest, bytes: index.page(number))) }
            let items = index.items
            let partDigest = range.reduce(ListingCache.digest("part \(number)".utf8)) { hash, position in
                withUnsafeBytes(of: items[position].digest) { ListingCache.digest($0, seed: hash) }
            }
            if manifest[partPath]?.digest != partDigest {
                parts.append(File(id: partPath, digest: partDigest, bytes: IndexDocument.part(number, tracks: range.lazy.map { items[$0].json })))
            }
        }
        indexFiles = parts + pages
        let json = IndexDocument.index(pageSize: index.pageSize, partCount: index.pageCount, trackCount: index.count)
        topFiles = zip(SiteWriter.topFiles, [Array(SiteStyleSheet.css.utf8), index.indexPage(), json]).map { id, bytes in
            File(id: id, digest: ListingCache.digest(bytes), bytes: bytes)
        }
    }

    /// Manifest entries not part of a listing of `liveDetails` over `pageCount` pages: detail
    /// pages (64-hex ids) of other tracks, numbered pages and parts numbered past the last (or 0).
    static func removals(from manifest: [String: SiteWriter.Entry], liveDetails: Set<String>, pageCount: Int) -> [String] {
        manifest.keys.filter { id in
            if id.utf8.count == 64 { return !liveDetails.contains(id) }
            guard
                let number = numbered(id, prefix: "page-", suffix: ".html")
                    ?? numbered(id, prefix: SiteWriter.partDirectory + "/part-", suffix: ".json")
            else { return false }
            return number < 1 || number > pageCount
        }
    }

    /// N in a name `prefix` N `suffix` written the way the listing writes it (no sign, no leading
    /// zeros); nil for any other name.
    static func numbered(_ name: String, prefix: String, suffix: String) -> Int? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), let number = Int(name.dropFirst(prefix.count).dropLast(suffix.count)),
            name == prefix + String(number) + suffix
        else { return nil }
        return number
    }
}
