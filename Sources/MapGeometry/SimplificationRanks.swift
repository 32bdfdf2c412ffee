/// Douglas-Peucker once for several image sizes: each vertex gets the distance at which
/// Douglas-Peucker would stop keeping it, so simplifying for one image is a filter
/// (`vertices(toleranceMeters:)`), not another run. The four images of a track share one.
///
/// A vertex's rank is its distance to the chord it split, capped by the rank of the vertex that
/// split the range above it. With the cap, the vertices whose rank exceeds a tolerance are
/// exactly those Douglas-Peucker keeps at that tolerance: it splits a range when the farthest
/// vertex is beyond the tolerance, and never looks inside a range it did not split.
///
/// The work stops at `floorToleranceMeters` (the smallest tolerance any image needs): ranges
/// already within it are not split further, so a long wiggly track costs what one simplification
/// at the finest tolerance costs, not a full hierarchy down to every vertex. Like
/// `DouglasPeucker.simplify`, a radial pre-pass at a quarter of the floor comes first and the
/// ranks are compared against three quarters of an image's tolerance.
public struct SimplificationRanks: Sendable {
    /// Vertices left after the radial pre-pass, in Mercator metres.
    public let points: [MercatorPoint]
    /// Rank per point (endpoints: infinity).
    public let ranks: [Double]

    /// Ranks `polyline` down to `floorToleranceMeters`.
    public init(_ polyline: [MercatorPoint], floorToleranceMeters: Double) {
        let radial = SimplificationRanks.radial(polyline, tolerance: floorToleranceMeters * 0.25)
        points = radial
        ranks = SimplificationRanks.rank(radial, floor: floorToleranceMeters * 0.75)
    }

    /// The simplified polyline for a tolerance of at least the floor, in Mercator metres.
    public func vertices(toleranceMeters: Double) -> [MercatorPoint] {
        let threshold = toleranceMeters * 0.75
        var kept: [MercatorPoint] = []
        for index in points.indices where ranks[index] > threshold { kept.append(points[index]) }
        return kept
    }

    private static func radial(_ points: [MercatorPoint], tolerance: Double) -> [MercatorPoint] {
        guard points.count > 2 else { return points }
        let toleranceSquared = tolerance * tolerance
        var kept: [MercatorPoint] = [points[0]]
        var last = points[0]
        for point in points[1..<(points.count - 1)] {
            let dx = point.xMeters - last.xMeters, dy = point.yMeters - last.yMeters
            if dx * dx + dy * dy > toleranceSquared {
                kept.append(point)
                last = point
            }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// Douglas-Peucker with an explicit stack, recording capped split distances.
    private static func rank(_ points: [MercatorPoint], floor: Double) -> [Double] {
        let count = points.count
        var ranks = [Double](repeating: 0, count: count)
        guard count > 0 else { return ranks }
        ranks[0] = .infinity
        ranks[count - 1] = .infinity
        let floorSquared = floor * floor
        points.withUnsafeBufferPointer { points in
            var stack: [(first: Int, last: Int, cap: Double)] = [(0, count - 1, .infinity)]
            while let (first, last, cap) = stack.popLast() {
                if last - first < 2 { continue }
                let a = points[first], b = points[last]
                let dx = b.xMeters - a.xMeters, dy = b.yMeters - a.yMeters
                let lengthSquared = dx * dx + dy * dy
                let inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
                var farthest = -1
                var farthestDistance = floorSquared
                for index in (first + 1)..<last {
                    let p = points[index]
                    let px = p.xMeters - a.xMeters, py = p.yMeters - a.yMeters
                    var t = (px * dx + py * dy) * inverseLengthSquared
                    t = t < 0 ? 0 : (t > 1 ? 1 : t)
                    let ex = px - t * dx, ey = py - t * dy
                    let distanceSquared = ex * ex + ey * ey
                    if distanceSquared > farthestDistance {
                        farthestDistance = distanceSquared
                        farthest = index
                    }
                }
                guard farthest >= 0 else { continue }
                let rank = min(cap, farthestDistance.squareRoot())
                ranks[farthest] = rank
                stack.append((first, farthest, rank))
                stack.append((farthest, last, rank))
            }
        }
        return ranks
    }
}
