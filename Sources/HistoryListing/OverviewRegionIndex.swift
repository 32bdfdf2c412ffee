import ArchiveOverview
import ContentHash
import FileStore
import MapGeometry

/// What the overview page shows of each region, with the digest of what the region is made of
/// (its frame, scales and member tracks), kept in `Output/.tracksnap/overview/regions.index`: a
/// region whose plan has the same digest is shown as it is, without reading its counts (tens of
/// megabytes for a busy city). One line a region:
/// `stem \t digest \t tracks \t distance_m \t width_pt \t height_pt \t minX \t minY \t maxX \t maxY \t scales`
/// (Mercator edges and scales as the bit patterns of their doubles, so they read back exactly).
struct OverviewRegionIndex {
    /// One region: its digest and its line on the page.
    struct Entry {
        var digest: String
        var region: OverviewPage.Region
    }

    /// Entries by region stem.
    var entries: [String: Entry] = [:]

    /// The digest of a planned region drawn at `scales`.
    static func digest(_ plan: RegionPlan, scales: [Double]) -> String {
        var hash = SHA256()
        let frame = plan.frame
        let numbers = [frame.mapRect.minX, frame.mapRect.minY, frame.mapRect.maxX, frame.mapRect.maxY, frame.latitudeDegrees] + scales
        hash.update("\(frame.widthPoints) \(frame.heightPoints) " + numbers.map { String($0.bitPattern, radix: 16) }.joined(separator: " ") + "\n")
        for id in plan.members { hash.update(id + "\n") }
        return hash.finalize().hex
    }

    /// The index at `path`; empty when missing or unreadable (every region's counts are then read).
    static func load(_ path: String) -> OverviewRegionIndex {
        var index = OverviewRegionIndex()
        guard let bytes = try? FileStore.readFile(path) else { return index }
        for fields in TabSeparated.records(bytes) where fields.count == 11 {
            let integers = fields[2...5].compactMap { Int($0) }
            let edges = fields[6...9].compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:))
            let scales = fields[10].split(separator: ",").compactMap { UInt64($0, radix: 16) }.map(Double.init(bitPattern:))
            guard integers.count == 4, edges.count == 4, !scales.isEmpty else { continue }
            let region = OverviewPage.Region(
                stem: fields[0], trackCount: integers[0], distanceMeters: integers[1], widthPoints: integers[2], heightPoints: integers[3],
                mapRect: MapRect(minX: edges[0], minY: edges[1], maxX: edges[2], maxY: edges[3]), scales: scales)
            index.entries[fields[0]] = Entry(digest: fields[1], region: region)
        }
        return index
    }

    /// The index's bytes, sorted by stem.
    func bytes() -> [UInt8] {
        var text = ""
        for (stem, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let region = entry.region, rect = region.mapRect
            let numbers = [region.trackCount, region.distanceMeters, region.widthPoints, region.heightPoints].map(String.init)
            let edges = [rect.minX, rect.minY, rect.maxX, rect.maxY].map { String($0.bitPattern, radix: 16) }
            let scales = region.scales.map { String($0.bitPattern, radix: 16) }.joined(separator: ",")
            text += TabSeparated.line([stem, entry.digest] + numbers + edges + [scales])
        }
        return Array(text.utf8)
    }
}
