import MapGeometry

/// A ceiling on the stroke's work per image. Drawing costs each segment about
/// (its length + the stroke's width) × the stroke's width pixel visits, so a track of random
/// points (600,000 fixes in a 5 km box) cost its whole image over and over: seconds per image,
/// minutes per `run`. Past `pixelPassesPerImage` times the image's pixels, the route is thinned
/// to every n-th vertex (ends kept) until it fits, and the render info says so. Such a route covers
/// the image many times over, so the picture barely changes; an ordinary track is far below the
/// ceiling (a 7,200-fix run at 2560×1920 uses about 0.4% of it).
enum StrokeBudget {
    /// Pixel visits allowed per image, as a multiple of its pixels. Default: 32.
    static let pixelPassesPerImage = 32.0

    /// The polylines to draw, and the step used (1: all vertices kept).
    static func cap(_ polylines: [[PixelPoint]], strokeWidthPixels: Double, pixelCount: Int) -> (polylines: [[PixelPoint]], step: Int) {
        let width = max(1, strokeWidthPixels)
        var work = 0.0
        for polyline in polylines {
            for index in polyline.indices.dropFirst() {
                let dx = polyline[index].x - polyline[index - 1].x, dy = polyline[index].y - polyline[index - 1].y
                work += ((dx * dx + dy * dy).squareRoot() + width) * width
            }
        }
        let budget = pixelPassesPerImage * Double(pixelCount)
        guard work > budget else { return (polylines, 1) }
        let step = Int((work / budget).rounded(.up))
        let thinned = polylines.map { polyline -> [PixelPoint] in
            guard polyline.count > 2 else { return polyline }
            var kept = stride(from: 0, to: polyline.count - 1, by: step).map { polyline[$0] }
            kept.append(polyline[polyline.count - 1])
            return kept
        }
        return (thinned, step)
    }
}
