import MapGeometry

/// Groups tracks into regions: each track's extent is grown by half of `regionGapMeters` on every
/// side (ground metres at its latitude), and a track whose grown extent overlaps a region's grown
/// extent joins it; regions whose grown extents come to overlap are one region. So tracks chained
/// by gaps under `regionGapMeters` form one region, and two regions are always further apart.
///
/// The extents are swept west to east (sorted by their grown west edge), each compared with the
/// regions still open to its west, not with every track in them: 10,000 tracks in one city cost
/// 10,000 rectangle tests, an archive over a few cities a few times that. A last pass joins
/// regions whose extents grew into each other. The result depends only on the extents and their
/// order (the caller sorts them: `OverviewAtlas.plan` by track id). Regions across the
/// antimeridian from each other are not joined.
package enum RegionGrouping {
    /// The regions of `extents` (one per track): each region the ascending indices of its tracks,
    /// regions in the order of their first track.
    package static func regions(of extents: [MapRect], gapMeters: Double) -> [[Int]] {
        let grown = extents.map { rect -> MapRect in
            let latitude = WebMercator.unproject(rect.center).latitudeDegrees
            let margin = gapMeters / 2 * WebMercator.scaleFactor(atLatitudeDegrees: latitude)
            return MapRect(minX: rect.minX - margin, minY: rect.minY - margin, maxX: rect.maxX + margin, maxY: rect.maxY + margin)
        }
        var sets = DisjointSets(count: extents.count)
        // Each open region: a track in it (its set) and the union of its grown extents.
        var open: [(member: Int, rect: MapRect)] = []
        var closed: [(member: Int, rect: MapRect)] = []
        // Sorted as (west edge, index) pairs, and the open regions kept in place: 100,000 tracks
        // made 100,000 closures' lookups and three fresh arrays each.
        var order = grown.indices.map { (west: grown[$0].minX, index: $0) }
        order.sort { $0.west < $1.west || ($0.west == $1.west && $0.index < $1.index) }
        for (west, index) in order {
            var rect = grown[index]
            var kept = 0
            for position in open.indices {
                let region = open[position]
                if region.rect.maxX < west {
                    closed.append(region)
                } else if overlaps(region.rect, rect) {
                    sets.union(index, region.member)
                    rect = union(rect, region.rect)
                } else {
                    open[kept] = region
                    kept += 1
                }
            }
            open.removeLast(open.count - kept)
            open.append((index, rect))
        }
        var regions = closed + open
        // Regions that grew into each other after they were compared.
        var merged = true
        while merged {
            merged = false
            outer: for first in regions.indices {
                for second in regions.indices where second > first && overlaps(regions[first].rect, regions[second].rect) {
                    sets.union(regions[first].member, regions[second].member)
                    regions[first].rect = union(regions[first].rect, regions[second].rect)
                    regions.remove(at: second)
                    merged = true
                    break outer
                }
            }
        }
        var regionOfRoot: [Int: Int] = [:]
        var result: [[Int]] = []
        for index in extents.indices {
            let root = sets.find(index)
            if let region = regionOfRoot[root] {
                result[region].append(index)
            } else {
                regionOfRoot[root] = result.count
                result.append([index])
            }
        }
        return result
    }

    private static func overlaps(_ a: MapRect, _ b: MapRect) -> Bool {
        a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY
    }
}

/// Union-find with path halving and union by size.
struct DisjointSets {
    private var parent: [Int]
    private var size: [Int]

    init(count: Int) {
        parent = Array(0..<count)
        size = [Int](repeating: 1, count: count)
    }

    mutating func find(_ element: Int) -> Int {
        var node = element
        while parent[node] != node {
            parent[node] = parent[parent[node]]
            node = parent[node]
        }
        return node
    }

    mutating func union(_ a: Int, _ b: Int) {
        var rootA = find(a), rootB = find(b)
        guard rootA != rootB else { return }
        if size[rootA] < size[rootB] { swap(&rootA, &rootB) }
        parent[rootB] = rootA
        size[rootA] += size[rootB]
    }
}
