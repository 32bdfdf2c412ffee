import ArchiveOverview
import ContentHash
import FileStore
import MapGeometry

/// What the overview pages show of each picture (a region's, or a region's in one year), with the
/// digest of what the picture is made of (its frame, scales and member tracks), kept in
/// `Output/.tracksnap/overview/regions.2.index` and its journal (`OverviewRegionIndex+Journal`): a picture whose plan has the same digest is shown
/// as it is, without reading its counts (tens of megabytes for a busy city). One line a picture:
/// `stem \t digest \t tracks \t distance_m \t width_pt \t height_pt \t minX \t minY \t maxX \t maxY \t scales \t thumbnail scales \t tiles`
/// (Mercator edges and scales as the bit patterns of their doubles, so they read back exactly;
/// `tiles` is the tile side in points, then per scale `;` and the tiles' digests in hex, comma-separated,
/// which name the tiles' files: an index without them, as an earlier version wrote, draws every picture again);
/// one line `page \t file \t digest` per region page (its file name under Output/), the digest of what it was written from
/// (`OverviewPublisher`), so that a page whose tracks did not change is not written again; and one
/// line `region \t stem \t digest \t years \t one year \t numbered pages \t cards a page \t year links`
/// per region (`Summary`), so that a refresh that only adds tracks elsewhere shows the region
/// without asking the listing for its cards.
struct OverviewRegionIndex {
    /// What the overview pages show of a region beyond its pictures, as its last refresh made it.
    struct Summary: Equatable {
        /// The digest of its picture over every year (`digest(_:scales:basemapStamp:)`): its
        /// frame, scales, map and members.
        var digest: String
        /// The years of its tracks, oldest first.
        var years: [Int]
        /// Whether its one year shows the region's own picture (no picture of its own).
        var oneYear: Bool
        /// Its numbered pages (`RegionPages.pageCount`) and the cards a page they were made with.
        var pageCount: Int, cardsPerPage: Int
        /// `RegionPages.yearLinks`.
        var yearLinks: [Int: String]
    }

    /// One picture: its digest and what the pages show of it.
    struct Entry {
        var digest: String
        var picture: OverviewPage.Picture
    }

    /// Entries by picture stem.
    var entries: [String: Entry] = [:]
    /// The digest each region page was written from, by its file name under Output/ (`RegionPages`).
    var pages: [String: String] = [:]
    /// Each region's summary, by region stem.
    var regions: [String: Summary] = [:]

    /// As loaded (`load(_: Files)`): the whole file's generation (0: none, or version 1's file),
    /// its size and the journal's, whether the journal held a block that was not applied, whether
    /// the index was version 1's, and its pictures, pages and regions, which a save compares with
    /// (formatted as lines only then: an unchanged refresh loads the index without saving it).
    var generation = 0, wholeBytes = 0, journalBytes = 0
    var journalStale = false, legacyKept = false
    var kept: (entries: [String: Entry], pages: [String: String], regions: [String: Summary]) = ([:], [:], [:])

    /// The digest of a planned region drawn at `scales`, over the map of `basemapStamp`
    /// (`OverviewBasemap.stamp`; nil: over the grid).
    /// `tilePoints` is the detail image's tile side (`OverviewOptions.tilePoints`).
    static func digest(_ plan: RegionPlan, scales: [Double], tilePoints: Int, basemapStamp: String? = nil) -> String {
        var hash = SHA256()
        if let basemapStamp { hash.update("basemap \(basemapStamp)\n") }
        let frame = plan.frame
        let numbers = [frame.mapRect.minX, frame.mapRect.minY, frame.mapRect.maxX, frame.mapRect.maxY, frame.latitudeDegrees] + scales
        hash.update(
            "\(frame.widthPoints) \(frame.heightPoints) \(tilePoints) " + numbers.map { String($0.bitPattern, radix: 16) }.joined(separator: " ")
                + "\n")
        // One buffer, hashed once: 40,000 small updates (and a string made for each) cost more than the hashing.
        var lines: [UInt8] = []
        lines.reserveCapacity(plan.members.count * 65)
        for id in plan.members {
            lines += id.utf8
            lines.append(0x0A)
        }
        hash.update(lines)
        return hash.finalize().hex
    }

    /// The index in `bytes` (lines that do not read are left out), as a whole file holds it.
    static func load(bytes: [UInt8]) -> OverviewRegionIndex {
        var index = OverviewRegionIndex()
        for fields in TabSeparated.records(bytes) { index.apply(fields) }
        return index
    }

    /// Applies one line's `fields`: a picture, page or region line sets its entry, a `drop` line
    /// (`drop \t picture|page|region \t name`, written by the journal) removes one. A picture line
    /// that does not read removes the picture it names (it is drawn again); other lines that do
    /// not read are left out.
    mutating func apply(_ fields: [String]) {
        if fields.count == 3 && fields[0] == "page" {
            // Cut to the 128 bits `RegionPages.digest` keeps, so a page an earlier version
            // wrote with the whole SHA-256 is not written again for that alone.
            pages[fields[1]] = String(fields[2].prefix(32))
            return
        }
        if fields.count == 8 && fields[0] == "region" {
            regions[fields[1]] = Self.summary(fields)
            return
        }
        if fields.count == 3 && fields[0] == "drop" {
            switch fields[1] {
            case "picture": entries[fields[2]] = nil
            case "page": pages[fields[2]] = nil
            case "region": regions[fields[2]] = nil
            default: break
            }
            return
        }
        guard fields.count == 13 else { return }
        entries[fields[0]] = Self.entry(fields)
    }

    /// The picture of a picture line's 13 `fields`; nil when they do not read.
    private static func entry(_ fields: [String]) -> Entry? {
        func doubles(_ field: String) -> [Double] { field.split(separator: ",").compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:)) }
        let integers = fields[2...5].compactMap { Int($0) }
        let edges = fields[6...9].compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:))
        let scales = doubles(fields[10]), thumbnailScales = doubles(fields[11])
        let tileFields = fields[12].split(separator: ";", omittingEmptySubsequences: false)
        let digests = tileFields.dropFirst().map { $0.split(separator: ",").compactMap { UInt64($0, radix: 16) } }
        guard integers.count == 4, edges.count == 4, !scales.isEmpty, let tilePoints = tileFields.first.flatMap({ Int($0) }), tilePoints > 0,
            integers[2] > 0, integers[3] > 0, digests.count == scales.count
        else { return nil }
        let picture = OverviewPage.Picture(
            stem: fields[0], trackCount: integers[0], distanceMeters: integers[1], widthPoints: integers[2], heightPoints: integers[3],
            mapRect: MapRect(minX: edges[0], minY: edges[1], maxX: edges[2], maxY: edges[3]), scales: scales, thumbnailScales: thumbnailScales,
            tilePoints: tilePoints, tileDigests: digests)
        // A line whose tiles do not cover its picture is left out: the picture is drawn again.
        guard digests.allSatisfy({ $0.count == picture.tiling.count }) else { return nil }
        return Entry(digest: fields[1], picture: picture)
    }

    /// The index's bytes, sorted by stem.
    func bytes() -> [UInt8] { Array(keyedLines().map(\.line).joined().utf8) }

    /// The index's lines (each with its newline), sorted by stem, each with the key a journal's
    /// `drop` line names it by (`picture|page|region \t name`).
    func keyedLines() -> [(key: String, line: String)] {
        var lines: [(key: String, line: String)] = []
        for (stem, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let picture = entry.picture, rect = picture.mapRect
            let numbers = [picture.trackCount, picture.distanceMeters, picture.widthPoints, picture.heightPoints].map(String.init)
            let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY].map { String($0.bitPattern, radix: 16) }
            let scales = [picture.scales, picture.thumbnailScales].map { $0.map { String($0.bitPattern, radix: 16) }.joined(separator: ",") }
            let tiles = ([String(picture.tilePoints)] + picture.tileDigests.map { $0.map { String($0, radix: 16) }.joined(separator: ",") })
            lines.append(("picture\t" + stem, TabSeparated.line([stem, entry.digest] + numbers + edges + scales + [tiles.joined(separator: ";")])))
        }
        for (stem, digest) in pages.sorted(by: { $0.key < $1.key }) { lines.append(("page\t" + stem, TabSeparated.line(["page", stem, digest]))) }
        for (stem, region) in regions.sorted(by: { $0.key < $1.key }) {
            let links = region.yearLinks.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
            let line = TabSeparated.line([
                "region", stem, region.digest, region.years.map(String.init).joined(separator: ","), region.oneYear ? "1" : "0",
                String(region.pageCount), String(region.cardsPerPage), links,
            ])
            lines.append(("region\t" + stem, line))
        }
        return lines
    }

    /// The summary of a `region` line's fields; nil when they do not read.
    private static func summary(_ fields: [String]) -> Summary? {
        let years = fields[3].split(separator: ",").compactMap { Int($0) }
        guard let pageCount = Int(fields[5]), let perPage = Int(fields[6]), fields[4] == "0" || fields[4] == "1" else { return nil }
        var links: [Int: String] = [:]
        for pair in fields[7].split(separator: ";") {
            guard let equals = pair.firstIndex(of: "="), let year = Int(pair[..<equals]) else { return nil }
            links[year] = String(pair[pair.index(after: equals)...])
        }
        return Summary(digest: fields[2], years: years, oneYear: fields[4] == "1", pageCount: pageCount, cardsPerPage: perPage, yearLinks: links)
    }
}
