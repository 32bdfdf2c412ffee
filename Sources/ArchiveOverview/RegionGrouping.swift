import MapGeometry

/// Groups tracks into regions: two tracks whose extents come within `regionGapMeters` of each
/// other on the ground are in one region, and so, through them, are all the tracks chained that
/// way (union-find over the extents, each grown by half the gap on every side, joined where they
/// overlap).
///
/// The extents are swept west to east (sorted by their grown west edge, each compared only with
/// those still open to its west), so an archive of cities far apart costs about n log n; tracks
/// all in one city cost up to n² / 2 rectangle tests (10,000 tracks: 50 million, a fraction of a
/// second). Regions across the antimeridian from each other are not joined.
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
        let order = grown.indices.sorted { grown[$0].minX < grown[$1].minX || (grown[$0].minX == grown[$1].minX && $0 < $1) }
        var open: [Int] = []
        for index in order {
            let rect = grown[index]
            open.removeAll { grown[$0].maxX < rect.minX }
            for other in open where grown[other].minY <= rect.maxY && rect.minY <= grown[other].maxY {
                sets.union(index, other)
            }
            open.append(index)
        }
        var regionOfRoot: [Int: Int] = [:]
        var regions: [[Int]] = []
        for index in extents.indices {
            let root = sets.find(index)
            if let region = regionOfRoot[root] {
                regions[region].append(index)
            } else {
                regionOfRoot[root] = regions.count
                regions.append([index])
            }
        }
        return regions
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
