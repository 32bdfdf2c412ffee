import MapGeometry

/// How the background grid looks.
public struct GridStyle: Sendable, Equatable, Codable {
    /// The map-paper colour under everything. Default: #F2EFE9.
    public var paper = RGBAColor(red: 0xF2, green: 0xEF, blue: 0xE9)
    /// Minor grid lines. Default: #8C7F6A at 12% opacity.
    public var minorLine = RGBAColor(red: 0x8C, green: 0x7F, blue: 0x6A, alpha: 31)
    /// Major grid lines. Default: #8C7F6A at 28% opacity.
    public var majorLine = RGBAColor(red: 0x8C, green: 0x7F, blue: 0x6A, alpha: 71)
    /// Line width in points (times the scale for pixels). Default: 1.
    public var lineWidthPoints = 1.0
    /// The smallest distance between minor lines, in points. Default: 24.
    public var minimumMinorSpacingPoints = 24.0
    /// Whether grid lines are drawn at all (false: plain paper). Default: true.
    public var drawsLines = true

    /// The defaults above.
    public init() {}
}

/// The spacing of the grid in ground metres: minor lines at 1, 2 or 5 × 10ⁿ m, major lines at
/// the next multiple of ten or five.
public struct GridSpacing: Sendable, Equatable {
    /// Ground metres between minor lines.
    public var minorMeters: Double
    /// Ground metres between major lines (a multiple of `minorMeters`).
    public var majorMeters: Double

    /// The smallest round spacing at least `minimumMeters` apart.
    public init(minimumMeters: Double) {
        var decade = 1.0
        while decade * 10 <= minimumMeters { decade *= 10 }
        while decade > minimumMeters { decade /= 10 }
        let steps: [Double] = [1, 2, 5, 10]
        let step = steps.first { $0 * decade >= minimumMeters } ?? 10
        minorMeters = step * decade
        // 1 → 5, 2 → 10, 5 → 10: majors stay on round numbers.
        majorMeters = minorMeters * (step == 5 ? 2 : 5)
    }
}

/// Paints the paper colour and the grid for a viewport into any target (`Blitter`). Lines are
/// snapped to whole pixels, so a pixel is one of four shades (paper, minor line, major line, both)
/// and the image has at most four kinds of row (no horizontal line, minor, major, both): each
/// kind is made once (`Blitter.solidRow`) and copied into its rows. Every pixel is written, so a
/// reused canvas keeps nothing of the previous image.
public enum GridPainter {
    /// Paints the background for `viewport` into `target`. `latitudeDegrees` (the view's centre)
    /// converts ground metres to Mercator metres; `scale` is device pixels per point.
    /// Returns the spacing used.
    @discardableResult
    public static func paint<Target: Blitter>(
        _ target: inout Target, viewport: Viewport, latitudeDegrees: Double, style: GridStyle, scale: Double
    ) -> GridSpacing {
        let (spacing, rows) = solidRows(&target, viewport: viewport, latitudeDegrees: latitudeDegrees, style: style, scale: scale)
        guard let rows else { return spacing }
        for y in 0..<target.height { target.copy(rows.byKind[Int(rows.kinds[y])], toRow: y) }
        return spacing
    }

    /// Paints the background for `viewport` as `paint` does and blends a route's stroke over it
    /// as `Blitter.blendStroke` does, in one pass over the rows where the target can
    /// (`Blitter.copyRows(_:kinds:thenBlendStroke:ramp:routeColor:casingColor:)`). `levels` is left
    /// empty, as `blendStroke` leaves it, even when the grid finds no room for its colours.
    @discardableResult
    public static func paint<Target: Blitter>(
        _ target: inout Target, viewport: Viewport, latitudeDegrees: Double, style: GridStyle, scale: Double,
        thenBlendStroke levels: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor, casingColor: RGBAColor
    ) -> GridSpacing {
        let (spacing, rows) = solidRows(&target, viewport: viewport, latitudeDegrees: latitudeDegrees, style: style, scale: scale)
        guard let rows else {
            levels.clear()
            return spacing
        }
        target.copyRows(rows.byKind, kinds: rows.kinds, thenBlendStroke: &levels, ramp: ramp, routeColor: routeColor, casingColor: casingColor)
        return spacing
    }

    /// The grid's spacing, its solid rows (one per kind of row that appears) and each row's kind;
    /// no rows when the target ran out of colours making them.
    private static func solidRows<Target: Blitter>(
        _ target: inout Target, viewport: Viewport, latitudeDegrees: Double, style: GridStyle, scale: Double
    ) -> (GridSpacing, (byKind: [Target.SolidRow], kinds: [UInt8])?) {
        let (spacing, columns, rows) = profiles(
            width: target.width, height: target.height, viewport: viewport, latitudeDegrees: latitudeDegrees, style: style, scale: scale)
        let shades = (0..<4).map { kind in shade(style, minor: kind & minorLine == 0 ? 0 : 1, major: kind & majorLine == 0 ? 0 : 1) }
        // Kinds of row in the order they first appear, the plain one first (a palette numbers its
        // colours in this order, and the PNG's bytes follow).
        var rowsByKind = [Target.SolidRow?](repeating: nil, count: 4)
        for kind in [0] + rows.map(Int.init) where rowsByKind[kind] == nil {
            rowsByKind[kind] = target.solidRow(columns.map { shades[Int($0) | kind] })
            if target.ranOutOfColors { return (spacing, nil) }
        }
        // Kinds that never appear are given the plain row (never copied).
        return (spacing, (rowsByKind.map { $0 ?? rowsByKind[0]! }, rows))
    }

    /// Bits of a pixel's (or a row's, or a column's) kind: which lines cross it.
    static let minorLine = 1, majorLine = 2

    /// The paper with minor and major line coverage (0...1) blended over it. A major line hides
    /// the minor one it crosses (one colour fewer where a route's edge passes a crossing).
    static func shade(_ style: GridStyle, minor: Float, major: Float) -> RGBAColor {
        let paper = style.paper, minorLine = style.minorLine, majorLine = style.majorLine
        func blend(_ base: Float, _ line: UInt8, _ weight: Float) -> Float { base + (Float(line) - base) * weight }
        let minorWeight = Float(minorLine.alpha) / 255 * minor * (1 - major)
        let majorWeight = Float(majorLine.alpha) / 255 * major
        let r = blend(blend(Float(paper.red), minorLine.red, minorWeight), majorLine.red, majorWeight)
        let g = blend(blend(Float(paper.green), minorLine.green, minorWeight), majorLine.green, majorWeight)
        let b = blend(blend(Float(paper.blue), minorLine.blue, minorWeight), majorLine.blue, majorWeight)
        return RGBAColor(red: UInt8(r.rounded()), green: UInt8(g.rounded()), blue: UInt8(b.rounded()))
    }

    /// The grid's spacing and the lines crossing each column and each row (`minorLine`,
    /// `majorLine` bits; the grid is separable: a pixel is crossed by its column's and its row's).
    static func profiles(
        width: Int, height: Int, viewport: Viewport, latitudeDegrees: Double, style: GridStyle, scale: Double
    ) -> (spacing: GridSpacing, columns: [UInt8], rows: [UInt8]) {
        let mercatorPerGround = WebMercator.scaleFactor(atLatitudeDegrees: latitudeDegrees)
        let pixelsPerMercator = 1 / viewport.metersPerPixel
        let groundPerPixel = viewport.metersPerPixel / mercatorPerGround
        let spacing = GridSpacing(minimumMeters: style.minimumMinorSpacingPoints * scale * groundPerPixel)
        let lineWidth = style.lineWidthPoints * scale
        let minorStep = spacing.minorMeters * mercatorPerGround
        let ratio = Int((spacing.majorMeters / spacing.minorMeters).rounded())
        let rect = viewport.mapRect
        // Without lines (width 0) both profiles stay empty: every row is plain paper.
        let columns = linesProfile(
            count: width, lowMercator: rect.minX, highMercator: rect.maxX, step: minorStep, majorEvery: ratio,
            lineWidth: style.drawsLines ? lineWidth : 0, pixel: { ($0 - rect.minX) * pixelsPerMercator })
        let rows = linesProfile(
            count: height, lowMercator: rect.minY, highMercator: rect.maxY, step: minorStep, majorEvery: ratio,
            lineWidth: style.drawsLines ? lineWidth : 0, pixel: { (rect.maxY - $0) * pixelsPerMercator })
        return (spacing, columns, rows)
    }

    /// The lines across one axis: they sit at multiples of `step` Mercator metres, every
    /// `majorEvery`-th one major; `pixel` maps a Mercator coordinate to this axis.
    private static func linesProfile(
        count: Int, lowMercator: Double, highMercator: Double, step: Double, majorEvery: Int,
        lineWidth: Double, pixel: (Double) -> Double
    ) -> [UInt8] {
        var kinds = [UInt8](repeating: 0, count: count)
        guard lineWidth > 0 else { return kinds }
        // Lines are snapped to whole pixels (a 1-point line is 1 px at @1x, 2 px at @2x): crisp
        // hairlines, and a background of four colours (paper, minor, major, both), which keeps a
        // route with its casing and markers within a 256-colour palette. A line moves by at most
        // half a pixel; anti-aliased lines gave up to 61 shades at 2560×1920 and no palette.
        let pixels = max(1, Int(lineWidth.rounded()))
        let first = Int((lowMercator / step).rounded(.down)) - 1
        let last = Int((highMercator / step).rounded(.up)) + 1
        for k in first...last {
            let start = Int((pixel(Double(k) * step) - Double(pixels) / 2).rounded())
            let lo = max(0, start), hi = min(count - 1, start + pixels - 1)
            if lo > hi { continue }
            let line = UInt8(k % majorEvery == 0 ? majorLine : minorLine)
            for index in lo...hi { kinds[index] |= line }
        }
        return kinds
    }
}
