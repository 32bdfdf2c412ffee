import ArchiveOverview
import ContentHash
import FileStore
import MapGeometry

/// What the overview pages show of each picture (a region's, or a region's in one year), with the
/// digest of what the picture is made of (its frame, scales and member tracks), kept in
/// `Output/.tracksnap/overview/regions.index`: a picture whose plan has the same digest is shown
/// as it is, without reading its counts (tens of megabytes for a busy city). One line a picture:
/// `stem \t digest \t tracks \t distance_m \t width_pt \t height_pt \t minX \t minY \t maxX \t maxY \t scales \t thumbnail scales`
/// (Mercator edges and scales as the bit patterns of their doubles, so they read back exactly);
/// and one line `page \t stem \t digest` per region page, the digest of what it was written from
/// (`OverviewPublisher`), so that a page whose tracks did not change is not written again.
struct OverviewRegionIndex {
    /// One picture: its digest and what the pages show of it.
    struct Entry {
        var digest: String
        var picture: OverviewPage.Picture
    }

    /// Entries by picture stem.
    var entries: [String: Entry] = [:]
    /// The digest each region page was written from, by region stem.
    var pages: [String: String] = [:]

    /// The digest of a planned region drawn at `scales`, over the map of `basemapStamp`
    /// (`OverviewBasemap.stamp`; nil: over the grid).
    static func digest(_ plan: RegionPlan, scales: [Double], basemapStamp: String? = nil) -> String {
        var hash = SHA256()
        if let basemapStamp { hash.update("basemap \(basemapStamp)\n") }
        let frame = plan.frame
        let numbers = [frame.mapRect.minX, frame.mapRect.minY, frame.mapRect.maxX, frame.mapRect.maxY, frame.latitudeDegrees] + scales
        hash.update("\(frame.widthPoints) \(frame.heightPoints) " + numbers.map { String($0.bitPattern, radix: 16) }.joined(separator: " ") + "\n")
        for id in plan.members { hash.update(id + "\n") }
        return hash.finalize().hex
    }

    /// The index at `path`; empty when missing or unreadable (every region's counts are then read).
    static func load(_ path: String) -> OverviewRegionIndex {
        guard let bytes = try? FileStore.readFile(path) else { return OverviewRegionIndex() }
        return load(bytes: bytes)
    }

    /// The index in `bytes` (lines that do not read are left out).
    static func load(bytes: [UInt8]) -> OverviewRegionIndex {
        var index = OverviewRegionIndex()
        func doubles(_ field: String) -> [Double] { field.split(separator: ",").compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:)) }
        for fields in TabSeparated.records(bytes) {
            if fields.count == 3 && fields[0] == "page" {
                index.pages[fields[1]] = fields[2]
                continue
            }
            guard fields.count == 12 else { continue }
            let integers = fields[2...5].compactMap { Int($0) }
            let edges = fields[6...9].compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:))
            let scales = doubles(fields[10]), thumbnailScales = doubles(fields[11])
            guard integers.count == 4, edges.count == 4, !scales.isEmpty else { continue }
            let picture = OverviewPage.Picture(
                stem: fields[0], trackCount: integers[0], distanceMeters: integers[1], widthPoints: integers[2], heightPoints: integers[3],
                mapRect: MapRect(minX: edges[0], minY: edges[1], maxX: edges[2], maxY: edges[3]), scales: scales, thumbnailScales: thumbnailScales)
            index.entries[fields[0]] = Entry(digest: fields[1], picture: picture)
        }
        return index
    }

    /// The index's bytes, sorted by stem.
    func bytes() -> [UInt8] {
        var text = ""
        for (stem, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let picture = entry.picture, rect = picture.mapRect
            let numbers = [picture.trackCount, picture.distanceMeters, picture.widthPoints, picture.heightPoints].map(String.init)
            let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY].map { String($0.bitPattern, radix: 16) }
            let scales = [picture.scales, picture.thumbnailScales].map { $0.map { String($0.bitPattern, radix: 16) }.joined(separator: ",") }
            text += TabSeparated.line([stem, entry.digest] + numbers + edges + scales)
        }
        for (stem, digest) in pages.sorted(by: { $0.key < $1.key }) { text += TabSeparated.line(["page", stem, digest]) }
        return Array(text.utf8)
    }
}
