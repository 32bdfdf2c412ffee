import MapGeometry
import MapStyle
import Raster
import VectorTiles

/// The three layer kinds: each feature of the layer's source layer that the filter keeps goes into
/// the coverage of its paint group; each group is blended once.
extension VectorMapPainter {
    /// A background layer covers the tiles that were had (not the whole image: where the source
    /// has no tiles the grid shows, as for raster maps). The tile squares are accumulated, so
    /// neighbours meet without a seam.
    mutating func drawBackground<Target: Blitter>(_ rule: DrawRule, context: inout DrawContext, into target: inout Target) -> Bool {
        let color = Self.rgba(rule.color().multiplyingAlpha(by: rule.opacity()))
        guard color.alpha > 0, !context.tiles.isEmpty else { return true }
        if context.tilesCoverCanvas, color.alpha == 255 {
            // Every tile was had, so the squares cover every pixel fully and an opaque colour
            // replaces what is below: rows of one colour, not a 4.9-Mpx accumulation and blend
            // (a quarter of a 2560×1920 vector image's drawing before this path).
            let row = target.solidRow([RGBAColor](repeating: color, count: Int(context.canvas.maxX)))
            guard !target.ranOutOfColors else { return false }
            for y in 0..<Int(context.canvas.maxY) { target.copy(row, toRow: y) }
            return true
        }
        for placed in context.tiles {
            let square = placed.placement.square
            let ring = [
                PixelPoint(x: square.minX, y: square.minY), PixelPoint(x: square.maxX, y: square.minY),
                PixelPoint(x: square.maxX, y: square.maxY), PixelPoint(x: square.minX, y: square.maxY),
            ]
            accumulator.add(ring: RectangleClip.clip(ring: ring, to: context.canvas))
        }
        return blendAccumulated(color, into: &target)
    }

    /// A fill layer's features as paint groups: each polygon projected and clipped to its tile's
    /// square (the pieces of a polygon cut at tile edges then partition it) and to the image grown
    /// by a point, with its holes; and, where the style gives `fill-outline-color`, their rings as
    /// outline pieces (`outlinePieces`).
    static func prepareFills(_ rule: DrawRule, context: DrawContext) -> PreparedLayer {
        var groups = PaintGroups<StyleColor>()
        var outlines = PaintGroups<LinePaint>()
        var layer = PreparedLayer(groups: .background)
        for placed in context.tiles {
            guard let tileLayer = rule.layer.sourceLayer.flatMap({ placed.tile.layer(named: $0) }) else { continue }
            let placement = placed.placement(for: tileLayer)
            let clip = intersection(placement.square, context.canvas.grown(byPixels: context.scale))
            for feature in tileLayer.features {
                guard case .polygons(let polygons) = feature.geometry else { continue }
                let styled = TileFeature(feature: feature)
                guard rule.matches(styled) else { continue }
                let color =
                    rule.isDataDriven
                    ? rule.color(for: styled).multiplyingAlpha(by: rule.opacity(for: styled))
                    : groups.constant {
                        rule.color().multiplyingAlpha(by: rule.opacity())
                    }
                guard color.alpha > 0 else { continue }
                var drawn = false
                for polygon in polygons {
                    var rings = [RectangleClip.clip(ring: placement.project(polygon.exterior), to: clip)]
                    guard rings[0].count >= 3 else { continue }
                    for hole in polygon.holes {
                        let piece = RectangleClip.clip(ring: placement.project(hole), to: clip)
                        if piece.count >= 3 { rings.append(piece) }
                    }
                    groups.add(color, rings)
                    drawn = true
                }
                if drawn, let outline = outlinePaint(rule, styled, fill: color, scale: context.scale, groups: &outlines) {
                    let pieces = outlinePieces(polygons, placement: placement, reachPixels: outline.reachPixels, context: context)
                    if !pieces.isEmpty { outlines.add(outline, pieces) }
                }
                if drawn {
                    layer.featuresDrawn += 1
                    layer.verticesDrawn += feature.geometry.vertexCount
                }
            }
        }
        layer.groups = .fills(groups.ordered, outlines: outlines.ordered)
        return layer
    }

    /// The outline's paint, or nil when there is none: MapLibre outlines a fill only while
    /// `fill-antialias` is true, in `fill-outline-color` (when the style gives none, in the fill
    /// colour, which only hides the fill's aliased edge on a GPU; TrackSnap's fills are
    /// anti-aliased, so that outline is not drawn). The outline is a hairline in MapLibre (one
    /// device pixel); here it is 1 point wide, so the @2x image is the @1x image doubled, and it
    /// takes the fill's opacity. Butt caps: where a ring is cut at its tile's edge, the two
    /// tiles' pieces end flush.
    private static func outlinePaint<Feature: StyleFeature>(
        _ rule: DrawRule, _ feature: Feature, fill: StyleColor, scale: Double, groups: inout PaintGroups<LinePaint>
    ) -> LinePaint? {
        func paint<Styled: StyleFeature>(_ styled: Styled) -> LinePaint? {
            guard rule.antialias(for: styled), let color = rule.outlineColor(for: styled) else { return nil }
            let look = LinePaint(
                color: color.multiplyingAlpha(by: rule.opacity(for: styled)), widthPixels: scale, gapPixels: 0, dashesPixels: nil, cap: .butt)
            return look.color.alpha > 0 ? look : nil
        }
        return rule.isDataDriven ? paint(feature) : groups.constantOptional { paint(NoStyleFeature()) }
    }

    /// A polygon's rings as closed lines clipped to its tile's square (so the cut of the tile's
    /// buffer, which is not the polygon's edge, is never drawn; `prepareLines` does the same for
    /// line layers that read polygons) and to the image grown by the line's reach.
    private static func outlinePieces(
        _ polygons: [VectorTilePolygon], placement: TilePlacement, reachPixels: Double, context: DrawContext
    ) -> [[PixelPoint]] {
        let clip = intersection(placement.square, context.canvas.grown(byPixels: reachPixels + context.scale))
        var pieces: [[PixelPoint]] = []
        for polygon in polygons {
            for ring in [polygon.exterior] + polygon.holes where ring.count >= 3 {
                pieces += RectangleClip.clip(polyline: placement.project(ring + [ring[0]]), to: clip)
            }
        }
        return pieces
    }

    /// Draws prepared fill groups: each group's polygons accumulated and blended once.
    mutating func drawFills<Target: Blitter>(
        _ groups: [(paint: StyleColor, items: [[[PixelPoint]]])], layerID: String, context: inout DrawContext, into target: inout Target
    ) -> Bool {
        for (color, polygons) in groups {
            for rings in polygons where !accumulator.add(polygon: rings) {
                context.note("layer \"\(layerID)\": a polygon too costly to fill was left out")
            }
            guard blendAccumulated(Self.rgba(color), into: &target) else { return false }
        }
        return true
    }

    /// Resolves the accumulator and blends it (through the mask where the target needs one).
    mutating func blendAccumulated<Target: Blitter>(_ color: RGBAColor, into target: inout Target) -> Bool {
        target.blend(resolving: &accumulator, scratch: &mask, color: color)
        return !target.ranOutOfColors
    }

    /// The overlap of two rectangles (empty, with max below min, when they do not meet).
    static func intersection(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        PixelRect(minX: max(a.minX, b.minX), minY: max(a.minY, b.minY), maxX: min(a.maxX, b.maxX), maxY: min(a.maxY, b.maxY))
    }

    /// A style colour as the canvas's 8-bit straight RGBA.
    static func rgba(_ color: StyleColor) -> RGBAColor {
        let channels = color.rgba8
        return RGBAColor(red: channels.red, green: channels.green, blue: channels.blue, alpha: channels.alpha)
    }
}

/// Features grouped by their paint, in the order each paint first appears (so a layer whose
/// paint does not depend on the feature is one group, blended once).
struct PaintGroups<Paint: Hashable> {
    private var index: [Paint: Int] = [:]
    private(set) var ordered: [(paint: Paint, items: [[[PixelPoint]]])] = []
    private var cached: Paint?
    private var cachedOptional: Paint??

    /// The layer's one paint, computed once.
    mutating func constant(_ make: () -> Paint) -> Paint {
        if let cached { return cached }
        let paint = make()
        cached = paint
        return paint
    }

    /// The layer's one paint or none (an outline the style does not ask for), computed once.
    mutating func constantOptional(_ make: () -> Paint?) -> Paint? {
        if let cachedOptional { return cachedOptional }
        let paint = make()
        cachedOptional = .some(paint)
        return paint
    }

    /// Adds one item (a polygon's rings, or a line's pieces) to `paint`'s group.
    mutating func add(_ paint: Paint, _ item: [[PixelPoint]]) {
        if let slot = index[paint] {
            ordered[slot].items.append(item)
        } else {
            index[paint] = ordered.count
            ordered.append((paint, [item]))
        }
    }
}
