/// Polyline simplification in output pixels: an O(n) radial-distance pre-pass, then
/// Douglas-Peucker with an explicit stack (its depth can be O(n) on a spiral, so no recursion) and
/// squared distances with the per-chord constants hoisted out of the inner loop.
///
/// Guarantee: every input vertex lies within `tolerancePixels` of the simplified polyline, and the
/// first and last vertices are kept. The budget is split a quarter to the radial pass and three
/// quarters to Douglas-Peucker, since a vertex dropped by the radial pass is within its tolerance
/// of a survivor that Douglas-Peucker may then move away from by at most its own.
///
/// One implementation serves both this and the shared simplification of a track's images:
/// `SimplificationRanks` ranked down to this tolerance and filtered at it is exactly this
/// Douglas-Peucker (the algorithm has no units; pixels pass through as plane coordinates).
public enum DouglasPeucker {
    /// Returns the simplified polyline.
    public static func simplify(_ points: [PixelPoint], tolerancePixels: Double) -> [PixelPoint] {
        if points.count <= 2 { return points }
        let plane = points.map { MercatorPoint(xMeters: $0.x, yMeters: $0.y) }
        let ranks = SimplificationRanks(plane, floorToleranceMeters: tolerancePixels)
        return ranks.vertices(toleranceMeters: tolerancePixels).map { PixelPoint(x: $0.xMeters, y: $0.yMeters) }
    }

    /// Returns the simplified polyline.
    public static func simplify(_ points: UnsafeBufferPointer<PixelPoint>, tolerancePixels: Double) -> [PixelPoint] {
        simplify(Array(points), tolerancePixels: tolerancePixels)
    }
}
