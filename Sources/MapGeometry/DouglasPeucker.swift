/// Polyline simplification in output pixels: an O(n) radial-distance pre-pass, then
/// Douglas-Peucker with an explicit stack (its depth can be O(n) on a spiral, so no recursion) and
/// squared distances with the per-chord constants hoisted out of the inner loop.
///
/// Guarantee: every input vertex lies within `tolerancePixels` of the simplified polyline, and the
/// first and last vertices are kept. The budget is split a quarter to the radial pass and three
/// quarters to Douglas-Peucker, since a vertex dropped by the radial pass is within its tolerance
/// of a survivor that Douglas-Peucker may then move away from by at most its own.
public enum DouglasPeucker {
    /// Returns the simplified polyline.
    public static func simplify(_ points: [PixelPoint], tolerancePixels: Double) -> [PixelPoint] {
        points.withUnsafeBufferPointer { simplify($0, tolerancePixels: tolerancePixels) }
    }

    /// Returns the simplified polyline.
    public static func simplify(_ points: UnsafeBufferPointer<PixelPoint>, tolerancePixels: Double) -> [PixelPoint] {
        if points.count <= 2 { return Array(points) }
        let radial = radialPrepass(points, tolerance: tolerancePixels * 0.25)
        return radial.withUnsafeBufferPointer { kept in
            douglasPeucker(kept, tolerance: tolerancePixels * 0.75)
        }
    }

    /// Keeps a vertex only when it is farther than `tolerance` from the last kept one; always keeps
    /// the last vertex.
    static func radialPrepass(_ points: UnsafeBufferPointer<PixelPoint>, tolerance: Double) -> [PixelPoint] {
        let toleranceSquared = tolerance * tolerance
        var kept: [PixelPoint] = []
        kept.reserveCapacity(min(points.count, 1 << 16))
        var last = points[0]
        kept.append(last)
        for index in 1..<(points.count - 1) {
            let point = points[index]
            let dx = point.x - last.x, dy = point.y - last.y
            if dx * dx + dy * dy > toleranceSquared {
                kept.append(point)
                last = point
            }
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// Classic Douglas-Peucker over index ranges, distances to the chord *segment* (not the infinite
    /// line), so a track that doubles back is not cut short.
    static func douglasPeucker(_ points: UnsafeBufferPointer<PixelPoint>, tolerance: Double) -> [PixelPoint] {
        let count = points.count
        if count <= 2 { return Array(points) }
        let toleranceSquared = tolerance * tolerance
        var keep = [Bool](repeating: false, count: count)
        keep[0] = true
        keep[count - 1] = true
        var stack: [(first: Int, last: Int)] = [(0, count - 1)]
        while let (first, last) = stack.popLast() {
            if last - first < 2 { continue }
            let a = points[first], b = points[last]
            let dx = b.x - a.x, dy = b.y - a.y
            let lengthSquared = dx * dx + dy * dy
            let inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
            var farthest = -1
            var farthestDistance = toleranceSquared
            for index in (first + 1)..<last {
                let p = points[index]
                let px = p.x - a.x, py = p.y - a.y
                var t = (px * dx + py * dy) * inverseLengthSquared
                t = t < 0 ? 0 : (t > 1 ? 1 : t)
                let ex = px - t * dx, ey = py - t * dy
                let distanceSquared = ex * ex + ey * ey
                if distanceSquared > farthestDistance {
                    farthestDistance = distanceSquared
                    farthest = index
                }
            }
            if farthest >= 0 {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        var result: [PixelPoint] = []
        for index in 0..<count where keep[index] { result.append(points[index]) }
        return result
    }
}
