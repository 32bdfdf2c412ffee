/// How the scale bar looks and where it sits.
public struct ScaleBarStyle: Sendable, Equatable {
    /// Bar and label colour.
    public var color: RGBAColor
    /// Halo under bar and label (for contrast where the route passes under them).
    public var haloColor: RGBAColor
    /// Font dot and bar thickness in device pixels.
    public var dotPixels: Int
    /// Distance from the left and bottom edges in device pixels.
    public var marginPixels: Int
    /// Longest bar as a fraction of the image width.
    public var maximumWidthFraction = 0.3

    /// A style.
    public init(color: RGBAColor, haloColor: RGBAColor, dotPixels: Int, marginPixels: Int) {
        self.color = color
        self.haloColor = haloColor
        self.dotPixels = max(1, dotPixels)
        self.marginPixels = marginPixels
    }
}

/// Draws a scale bar with its label ("500 m", "2 km") in the bottom-left corner: the longest
/// round distance (1, 2 or 5 × 10ⁿ m) that fits in `maximumWidthFraction` of the width.
public enum ScaleBarPainter {
    /// The bar's distance and label for a ground resolution, or nil when not even 1 m fits.
    public static func choose(groundMetersPerPixel: Double, maximumPixels: Double) -> (meters: Double, label: String)? {
        guard groundMetersPerPixel > 0, groundMetersPerPixel.isFinite, maximumPixels >= 1 else { return nil }
        let limit = groundMetersPerPixel * maximumPixels
        var best: Double?
        var decade = 1.0
        while decade <= limit {
            for step in [1.0, 2.0, 5.0] where step * decade <= limit { best = step * decade }
            decade *= 10
        }
        guard let meters = best else { return nil }
        let label = meters >= 1000 ? "\(Int(meters / 1000)) km" : "\(Int(meters)) m"
        return (meters, label)
    }

    /// The bar drawn into `target` (its halo, then its ink); returns its label, or nil when
    /// nothing fitted.
    @discardableResult
    public static func paint<Target: Blitter>(_ target: inout Target, groundMetersPerPixel: Double, style: ScaleBarStyle) -> String? {
        guard let bar = masks(width: target.width, height: target.height, groundMetersPerPixel: groundMetersPerPixel, style: style)
        else { return nil }
        target.blend(bar.halo, color: style.haloColor)
        target.blend(bar.ink, color: style.color)
        return bar.label
    }

    /// The bar and its label as two masks placed on a `width`×`height` image (just around the
    /// bar): the halo, to blend first with `style.haloColor`, and the ink, with `style.color`.
    /// Nil when nothing fits.
    public static func masks(
        width: Int, height: Int, groundMetersPerPixel: Double, style: ScaleBarStyle
    ) -> (halo: CoverageMask, ink: CoverageMask, label: String)? {
        let dot = style.dotPixels
        let labelHeight = BitmapFont.glyphHeightDots * dot
        let maximum = Double(width) * style.maximumWidthFraction
        guard let choice = choose(groundMetersPerPixel: groundMetersPerPixel, maximumPixels: maximum) else { return nil }
        let barLength = Int((choice.meters / groundMetersPerPixel).rounded())
        let left = style.marginPixels, bottom = height - 1 - style.marginPixels
        let tickHeight = 3 * dot
        let labelTop = bottom - tickHeight - dot - labelHeight
        guard barLength >= 2 * dot, labelTop - dot >= 0, left + max(barLength, BitmapFont.widthDots(choice.label) * dot) + dot < width
        else { return nil }

        // Solid rectangles on the pixel grid: crisp at every scale, no anti-aliasing needed.
        var rectangles: [(x: Int, y: Int, width: Int, height: Int)] = [
            (left, bottom - dot + 1, barLength, dot),  // bar
            (left, bottom - tickHeight + 1, dot, tickHeight),  // left tick
            (left + barLength - dot, bottom - tickHeight + 1, dot, tickHeight),  // right tick
        ]
        BitmapFont.forEachDot(choice.label) { column, row in
            rectangles.append((left + column * dot, labelTop + row * dot, dot, dot))
        }
        let halo = max(1, dot)
        let originX = max(0, left - halo), originY = max(0, labelTop - halo)
        let right = min(width - 1, left + max(barLength, BitmapFont.widthDots(choice.label) * dot) + halo)
        let lowest = min(height - 1, bottom + halo)
        var haloMask = CoverageMask(width: right - originX + 1, height: lowest - originY + 1, originX: originX, originY: originY)
        var inkMask = CoverageMask(width: right - originX + 1, height: lowest - originY + 1, originX: originX, originY: originY)
        for rectangle in rectangles {
            fill(&haloMask, x: rectangle.x - halo, y: rectangle.y - halo, width: rectangle.width + 2 * halo, height: rectangle.height + 2 * halo)
            fill(&inkMask, x: rectangle.x, y: rectangle.y, width: rectangle.width, height: rectangle.height)
        }
        return (haloMask, inkMask, choice.label)
    }

    /// Covers a rectangle given in canvas pixels.
    private static func fill(_ mask: inout CoverageMask, x: Int, y: Int, width: Int, height: Int) {
        let x = x - mask.originX, y = y - mask.originY
        let minX = max(0, x), minY = max(0, y)
        let maxX = min(mask.width - 1, x + width - 1), maxY = min(mask.height - 1, y + height - 1)
        guard minX <= maxX, minY <= maxY else { return }
        for row in minY...maxY {
            for column in minX...maxX { mask.values[row * mask.width + column] = 255 }
        }
        mask.touch(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }
}
