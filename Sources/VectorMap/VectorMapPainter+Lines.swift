import MapGeometry
import MapStyle
import Raster
import VectorTiles

/// How one group of a line layer is drawn (every value in device pixels).
struct LinePaint: Hashable {
    /// The colour with the layer's opacity applied.
    var color: StyleColor
    /// Line width.
    var widthPixels: Double
    /// `line-gap-width`: two lines of `widthPixels` either side of a gap this wide (road casings).
    var gapPixels: Double
    /// Dash and gap lengths in pixels, nil for a solid line.
    var dashesPixels: [Double]?
    /// How the line ends.
    var cap: LineCap

    /// How far the stroke reaches from the line's centre.
    var reachPixels: Double { gapPixels > 0 ? gapPixels / 2 + widthPixels : widthPixels / 2 }

    /// The same paint at `factor` times the scale.
    func scaled(by factor: Double) -> LinePaint {
        LinePaint(
            color: color, widthPixels: widthPixels * factor, gapPixels: gapPixels * factor, dashesPixels: dashesPixels?.map { $0 * factor },
            cap: cap)
    }
}

extension VectorMapPainter {
    /// A line layer's features as paint groups: lines (and the rings of polygons, as closed lines)
    /// projected, clipped to their tile's square grown by the stroke's reach + 1 point, and dashed
    /// if the style says. Everything scales with `context.scale` (see `PreparedLayer`).
    static func prepareLines(_ rule: DrawRule, context: DrawContext) -> PreparedLayer {
        var groups = PaintGroups<LinePaint>()
        var layer = PreparedLayer(groups: .background)
        let scale = context.scale
        func paint<Feature: StyleFeature>(_ feature: Feature) -> LinePaint {
            LinePaint(
                color: rule.color(for: feature).multiplyingAlpha(by: rule.opacity(for: feature)),
                widthPixels: rule.lineWidthPixels(for: feature) * scale, gapPixels: rule.lineGapWidthPixels(for: feature) * scale,
                dashesPixels: rule.lineDashes(for: feature).map { $0.map { $0 * rule.lineWidthPixels(for: feature) * scale } },
                cap: rule.lineCap(for: feature))
        }
        for placed in context.tiles {
            guard let tileLayer = rule.layer.sourceLayer.flatMap({ placed.tile.layer(named: $0) }) else { continue }
            let placement = placed.placement(for: tileLayer)
            for feature in tileLayer.features {
                let lines: [[TilePoint]]
                // A polygon's rings are cut at the tile's buffer, an edge that is not the polygon's:
                // they are clipped to the tile's own square (as MapLibre clips each tile), real lines
                // to the square grown by the stroke's reach, so they run on into the neighbour's.
                let isOutline: Bool
                switch feature.geometry {
                case .lines(let parts): (lines, isOutline) = (parts, false)
                case .polygons(let polygons): (lines, isOutline) = (polygons.flatMap { [$0.exterior] + $0.holes }.map { $0 + [$0[0]] }, true)
                default: continue
                }
                let styled = TileFeature(feature: feature)
                guard rule.matches(styled) else { continue }
                let look = rule.isDataDriven ? paint(styled) : groups.constant { paint(NoStyleFeature()) }
                guard look.color.alpha > 0, look.widthPixels > 0 else { continue }
                // The margin is a point, not a pixel, so an image at twice the scale gets exactly
                // twice the geometry (`PreparedLayer.scaled(by:)`).
                let margin = look.reachPixels + scale
                let clip =
                    isOutline
                    ? intersection(placement.square, context.canvas.grown(byPixels: margin))
                    : intersection(placement.square, context.canvas).grown(byPixels: margin)
                var pieces: [[PixelPoint]] = []
                for line in lines {
                    let projected = placement.project(line)
                    if let dashes = look.dashesPixels {
                        var walker = DashWalker(pattern: DashPattern(lengthsPixels: dashes))
                        walker.dash(projected, visible: clip, into: &pieces)
                    } else {
                        pieces += RectangleClip.clip(polyline: projected, to: clip)
                    }
                }
                guard !pieces.isEmpty else { continue }
                groups.add(look, pieces)
                layer.featuresDrawn += 1
                layer.verticesDrawn += feature.geometry.vertexCount
            }
        }
        layer.groups = .lines(groups.ordered)
        return layer
    }

    /// Draws prepared line groups: each group stroked into one mask (union by maximum: no gap, cap
    /// seam or darker overlap at tile edges) and blended once.
    mutating func drawLines<Target: Blitter>(_ groups: [(paint: LinePaint, items: [[[PixelPoint]]])], into target: inout Target) -> Bool {
        for (look, items) in groups {
            if look.gapPixels > 0 {
                reshapeInner()
                Self.stroke(items, radiusPixels: look.reachPixels, cap: look.cap, accumulator: &accumulator, into: &mask)
                Self.stroke(items, radiusPixels: look.gapPixels / 2, cap: look.cap, accumulator: &accumulator, into: &inner)
                mask.subtract(inner)
                inner.clear()
            } else {
                Self.stroke(items, radiusPixels: look.widthPixels / 2, cap: look.cap, accumulator: &accumulator, into: &mask)
            }
            if !mask.isEmpty { target.blend(mask, color: Self.rgba(look.color)) }
            mask.clear()
            guard !target.ranOutOfColors else { return false }
        }
        return true
    }

    /// Strokes each feature's pieces into `coverage` with the cap the style asks for (joins are
    /// round: at a thumbnail's scale a miter and a round join differ by under a pixel).
    private static func stroke(
        _ features: [[[PixelPoint]]], radiusPixels: Double, cap: LineCap, accumulator: inout AreaAccumulator,
        into coverage: inout CoverageMask
    ) {
        switch cap {
        case .round:
            StrokeRasterizer.stroke(features.flatMap { $0 }, radiusPixels: radiusPixels, into: &coverage)
        case .butt:
            // Through the distance rasterizer, not `ButtStroker`'s accumulated outlines: a dashed
            // path's hundreds of dashes each cost an accumulation and a resolve over the 20 MB of
            // cells there (`perf` of the drawing alone: the dashed layers 1,000–1,140 samples →
            // 500–550). The ends' anti-aliasing is a ramp along times the ramp across, where the
            // outline's was its exact area: the images change slightly (docs/performance.md).
            StrokeRasterizer.stroke(features.flatMap { $0 }, radiusPixels: radiusPixels, roundCaps: false, into: &coverage)
        case .square:
            ButtStroker.stroke(
                strokes: features.map { $0.map { Self.extended($0, by: radiusPixels) } }, radiusPixels: radiusPixels,
                accumulator: &accumulator, into: &coverage)
        }
    }

    /// The polyline with its ends pushed out by `pixels` along its first and last segments (a square cap).
    static func extended(_ line: [PixelPoint], by pixels: Double) -> [PixelPoint] {
        guard line.count >= 2 else { return line }
        func pushed(_ end: PixelPoint, from neighbour: PixelPoint) -> PixelPoint {
            let dx = end.x - neighbour.x, dy = end.y - neighbour.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0 else { return end }
            return PixelPoint(x: end.x + dx / length * pixels, y: end.y + dy / length * pixels)
        }
        var result = line
        result[0] = pushed(line[0], from: line[1])
        result[line.count - 1] = pushed(line[line.count - 1], from: line[line.count - 2])
        return result
    }
}

/// A feature with no properties: how a layer whose paint does not depend on features is evaluated once.
struct NoStyleFeature: StyleFeature {
    /// A line (unused: such a layer's paint does not read the feature).
    var geometryType: FeatureGeometryType { .line }
    /// No id.
    var identifier: UInt64? { nil }
    /// No properties.
    func property(_ key: String) -> FeatureValue? { nil }
}

extension CoverageMask {
    /// Takes `other`'s coverage out of this mask (same frame): what is left of a line with a gap.
    mutating func subtract(_ other: CoverageMask) {
        guard !isEmpty, !other.isEmpty else { return }
        let width = self.width
        let rows = max(minY, other.minY)...max(min(maxY, other.maxY), max(minY, other.minY))
        guard other.minY <= maxY, other.maxY >= minY else { return }
        let columns = max(minX, other.minX)...max(min(maxX, other.maxX), max(minX, other.minX))
        values.withUnsafeMutableBufferPointer { values in
            other.values.withUnsafeBufferPointer { taken in
                for row in rows {
                    for x in columns {
                        let index = row * width + x
                        values[index] = values[index] > taken[index] ? values[index] - taken[index] : 0
                    }
                }
            }
        }
    }
}
