/// The write side of drawing: where "which pixels are covered, and by how much" (a `CoverageMask`,
/// made by `StrokeRasterizer`, `ScaleBarPainter`, `TextLabelPainter`, …) becomes pixels. A layer
/// computes its coverage once and hands it over with a colour; the target blends it in its own
/// pixel format. Two targets implement it: `Canvas` (RGBA8, exact blending) and `IndexedCanvas`
/// (8-bit palette, coverage quantized to `StrokeRamp`'s 1/32 steps, every blend looked up once
/// per palette entry).
///
/// Every requirement works on a whole mask or row, never on one pixel: the per-pixel loops stay in
/// this module (each target's own file), so a caller in another module pays one call per layer.
public protocol Blitter {
    /// A row of solid colours made ready to copy (bytes of the target's pixel format).
    associatedtype SolidRow

    /// How this target wants a route and its casing (see `StrokeCoverage`).
    static var strokeCoverage: StrokeCoverage { get }

    /// Width in pixels.
    var width: Int { get }
    /// Height in pixels.
    var height: Int { get }
    /// Whether a write found no room for its colours (a full palette, or a layer whose colour
    /// varies per pixel on a palette target): what was drawn is then incomplete, and the scene is
    /// drawn in RGBA instead. Always false for `Canvas`.
    var ranOutOfColors: Bool { get }

    /// `width` opaque colours as a row of this target's pixels, to copy into rows with `copy`.
    mutating func solidRow(_ colors: [RGBAColor]) -> SolidRow
    /// Overwrites row `y` (0 at the top) with `row`.
    mutating func copy(_ row: SolidRow, toRow y: Int)

    /// Blends `color` where `mask` (placed at its origin, inside the target) covers it, once per
    /// pixel: `out = background · (1 − α·c) + colour · α·c`, with c the coverage and α the
    /// colour's opacity. The mask is a union (see `CoverageMask`), so overlaps are blended once.
    mutating func blend(_ mask: CoverageMask, color: RGBAColor)

    /// Resolves `accumulator` (left empty) and blends `color` by its coverage, like
    /// `resolve(into:)` into the empty `scratch` (the canvas's size, left empty) and `blend`.
    mutating func blend(resolving accumulator: inout AreaAccumulator, scratch: inout CoverageMask, color: RGBAColor)

    /// Blends a route over its casing from one canvas-sized mask of `ramp` levels (see
    /// `StrokeRamp`): the casing over the background, the route over that, like `blend` twice.
    /// The mask is cleared as it is read, ready for the next image.
    mutating func blendStroke(levels: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor, casingColor: RGBAColor)

    /// Copies `rows[kinds[y]]` into every row y, as `copy` does, and blends the stroke's `levels`
    /// over the result, as `blendStroke` does: the same pixels as the two one after the other,
    /// which is what targets without a faster way do (the default). A target may blend each row
    /// right after copying it, while its pixels are still in cache.
    mutating func copyRows(
        _ rows: [SolidRow], kinds: [UInt8], thenBlendStroke levels: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor,
        casingColor: RGBAColor)

    /// Runs `draw` on the pixels as an RGBA canvas, for a layer whose colour varies per pixel
    /// (basemap tiles, colour bands). A palette target has no RGBA pixels: it does not run
    /// `draw` and sets `ranOutOfColors` (such scenes are sent to RGBA before drawing).
    mutating func drawRGBA(_ draw: (inout Canvas) -> Void)
}

extension Blitter {
    /// `copy` for every row, then `blendStroke`.
    public mutating func copyRows(
        _ rows: [SolidRow], kinds: [UInt8], thenBlendStroke levels: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor,
        casingColor: RGBAColor
    ) {
        for y in 0..<height { copy(rows[Int(kinds[y])], toRow: y) }
        blendStroke(levels: &levels, ramp: ramp, routeColor: routeColor, casingColor: casingColor)
    }
}

/// The form in which a target takes the coverage of a route and its casing.
public enum StrokeCoverage: Sendable, Equatable {
    /// Two masks of exact coverage (1/255), blended one after the other with `Blitter.blend`.
    case separateMasks
    /// One mask of `StrokeRamp` levels (1/32 steps) for `Blitter.blendStroke`: one pass, and one
    /// palette lookup per (palette entry, level) instead of per pixel. Needs a casing at least a
    /// pixel wider than the route on each side (`StrokeRamp.init` says when).
    case rampLevels
}
