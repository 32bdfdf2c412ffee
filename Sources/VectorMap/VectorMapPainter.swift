#if canImport(Glibc)
import Glibc
#endif
import MapGeometry
import MapStyle
import MapTiles
import Raster
import VectorTiles

/// Draws a vector basemap: the tiles of one zoom, their features filtered and coloured by a
/// MapLibre style's draw rules, projected straight to the image's pixels at its continuous zoom.
///
/// Each style layer is drawn as few blends as it has distinct paints (usually one): every feature
/// of a paint group, from every tile, goes into one coverage (fills accumulated as signed area,
/// lines united by maximum) that is blended once. So the pieces of a polygon cut at tile edges
/// add up to the whole (no seam, no double-blended edge), and a line crossing a tile edge has no
/// gap and no darker overlap. One painter per worker: its buffers are reused from image to image.
package struct VectorMapPainter {
    /// Signed-area accumulation of fills and butt-capped lines.
    var accumulator = AreaAccumulator(width: 1, height: 1)
    /// The coverage of the paint group being drawn.
    var mask = CoverageMask(width: 1, height: 1)
    /// The inside of a line drawn with a gap (`line-gap-width`), taken out of `mask`.
    var inner = CoverageMask(width: 1, height: 1)
    /// The last image's prepared layers, for the next image of the same map at another scale.
    var prepared: PreparedMap?

    /// A painter with empty buffers (they grow to the largest image drawn).
    package init() {
        // A paint group covers little of the image: blending and clearing visit only its blocks.
        mask.trackBlocks()
        inner.trackBlocks()
    }

    /// Draws the style `choice` names from `provider` over `target` for an image showing `viewport` at `scale`
    /// (device pixels per point: widths are multiplied by it and the zoom is that of the @1x
    /// image, so @2x draws the same tiles with double widths). Returns what was drawn; a view
    /// outside the source's zoom range draws nothing (the grid shows) and says why.
    ///
    /// `underlay` paints what lies below the map (the grid). It is called before the first layer
    /// unless the style's background is opaque and every tile was had: that background then
    /// replaces every pixel, and painting the grid first was a canvas-sized copy per image for
    /// nothing.
    package mutating func draw<Target: Blitter>(
        into target: inout Target, viewport: Viewport, scale: Double, provider: any TileProvider, style choice: VectorMapStyle,
        underlay: (inout Target) -> Void = { _ in }
    ) -> VectorMapReport {
        var underlaid = false
        func paintUnderlay() {
            if !underlaid { underlay(&target) }
            underlaid = true
        }
        defer { paintUnderlay() }
        // From the metres per point, not the pixels' zoom less log2(scale): @2x then has exactly
        // the @1x image's zoom (its metres per pixel are exactly half), which `PreparedMap` needs.
        let zoom = log2(2 * WebMercator.halfWorldMeters / (256 * viewport.metersPerPixel * max(scale, 1)))
        let description = provider.sourceDescription
        guard zoom.isFinite else { return VectorMapReport(problem: "the view has no finite zoom: the grid is drawn") }
        let wholeZoom = Int(min(max(zoom.rounded(.down), 0), 30))
        guard wholeZoom >= description.minimumZoom else {
            return VectorMapReport(
                problem: "the view (zoom \(Self.format(zoom))) is wider than the source's lowest zoom \(description.minimumZoom): the grid is drawn")
        }
        let tileZoom = min(wholeZoom, description.maximumZoom)
        guard let window = TileWindow(viewport: viewport, zoom: tileZoom) else { return VectorMapReport(tileZoom: tileZoom) }
        var report = VectorMapReport(tileZoom: tileZoom)
        let tiles = fetch(window, provider: provider, report: &report)
        // The schema from every tile's layers: one tile (sea, forest) may lack the telling layer.
        let layerNames = Array(Set(tiles.flatMap { $0.tile.layers.map(\.name) }))
        let style = choice.document(forLayers: layerNames)
        report.schemaAttribution = VectorMapStyle.attribution(forLayers: layerNames)
        report.labelLayersSkipped = style.symbolLayerCount
        let width = viewport.widthPixels, height = viewport.heightPixels
        reshape(width: width, height: height)
        let canvas = PixelRect(minX: 0, minY: 0, maxX: Double(width), maxY: Double(height))
        var context = DrawContext(tiles: tiles, canvas: canvas, scale: scale, tilesCoverCanvas: Self.cover(canvas, tiles, window))
        let rules = style.drawRules(zoom256: zoom).filter { !$0.matchesNothing }
        let key = PreparedMap.Key(
            mapRect: viewport.mapRect, zoom: zoom, widthPoints: Double(width) / scale, heightPoints: Double(height) / scale,
            tiles: tiles.map(\.coordinate), styleDigest: style.contentDigest)
        let layers: [PreparedLayer]
        if let reused = prepared?.layers(for: key, provider: provider, scale: scale) {
            layers = reused
        } else {
            layers = rules.map { rule in
                switch rule.layer.kind {
                case .background: PreparedLayer(groups: .background)
                case .fill: Self.prepareFills(rule, context: context)
                case .line: Self.prepareLines(rule, context: context)
                }
            }
            prepared = PreparedMap(key: key, provider: provider, scale: scale, layers: layers)
        }
        if !Self.coversEverything(rules.first, context: context) { paintUnderlay() }
        underlaid = true
        for (rule, layer) in zip(rules, layers) {
            let blended: Bool
            context.featuresDrawn += layer.featuresDrawn
            context.verticesDrawn += layer.verticesDrawn
            switch layer.groups {
            case .background: blended = drawBackground(rule, context: &context, into: &target)
            case .fills(let groups, let outlines):
                blended = drawFills(groups, layerID: rule.layer.id, context: &context, into: &target) && drawLines(outlines, into: &target)
            case .lines(let groups): blended = drawLines(groups, into: &target)
            }
            guard blended else {
                report.paletteFull = true
                break
            }
        }
        report.featuresDrawn = context.featuresDrawn
        report.verticesDrawn = context.verticesDrawn
        for problem in context.problems { report.note(problem) }
        return report
    }

    /// Every tile of the window, decoded, with where it lands; absent and failed tiles counted.
    private func fetch(_ window: TileWindow, provider: any TileProvider, report: inout VectorMapReport) -> [PlacedTile] {
        var placed: [PlacedTile] = []
        // Tiles outside the source's declared bounds are absent without asking (as for raster
        // maps): a URL source would spend the image's time, and its breaker, on them.
        let coverage = provider.sourceDescription.boundsLonLat.flatMap { TileCoverage(boundsLonLat: $0, zoom: window.zoom) }
        for row in window.rows {
            for column in window.columns {
                let coordinate = window.wrapped(column: column, row: row)
                if let coverage, !coverage.contains(coordinate) {
                    report.tilesAbsent += 1
                    continue
                }
                switch provider.tile(coordinate) {
                case .vector(let tile):
                    report.tiles += 1
                    if !tile.problems.isEmpty || tile.skippedFeatureCount > 0 {
                        report.note(
                            "tile \(coordinate): \(tile.skippedFeatureCount) feature(s) skipped: \(tile.problems.first.map { "\($0)" } ?? "")")
                    }
                    placed.append(PlacedTile(coordinate: coordinate, column: column, row: row, tile: tile, window: window))
                case .absent: report.tilesAbsent += 1
                case .failed(let message):
                    report.tilesFailed += 1
                    report.note("tile \(coordinate): \(message)")
                case .image:
                    report.tilesFailed += 1
                    report.note("tile \(coordinate) is an image in a vector source")
                }
            }
        }
        return placed
    }

    /// Whether `rule` is a background that replaces every pixel: opaque, with every tile had
    /// (`drawBackground`'s fast path).
    private static func coversEverything(_ rule: DrawRule?, context: DrawContext) -> Bool {
        guard let rule, case .background = rule.layer.kind, context.tilesCoverCanvas else { return false }
        return rule.color().multiplyingAlpha(by: rule.opacity()).rgba8.alpha == 255
    }

    /// Whether the tiles had are the whole window and their squares (a full grid, so their union
    /// is their bounding square) reach past every edge of `canvas`.
    private static func cover(_ canvas: PixelRect, _ tiles: [PlacedTile], _ window: TileWindow) -> Bool {
        guard tiles.count == window.count, let first = tiles.first else { return false }
        var union = first.placement.square
        for placed in tiles { union = union.union(placed.placement.square) }
        return union.minX <= canvas.minX && union.minY <= canvas.minY && union.maxX >= canvas.maxX && union.maxY >= canvas.maxY
    }

    private mutating func reshape(width: Int, height: Int) {
        if accumulator.width != width || accumulator.height != height { accumulator.reshape(width: width, height: height) }
        if mask.width != width || mask.height != height {
            mask.clear()
            mask.reshape(width: width, height: height)
        }
    }

    /// Gives `inner` the mask's size. Only styles with `line-gap-width` use it, so it grows on
    /// first use: an unused canvas-sized mask was 5 MB of zeroed memory for every 2560×1920 image's
    /// worker.
    mutating func reshapeInner() {
        guard inner.width != mask.width || inner.height != mask.height else { return }
        inner.clear()
        inner.reshape(width: mask.width, height: mask.height)
    }

    private static func format(_ zoom: Double) -> String { "\((zoom * 10).rounded() / 10)" }
}

/// Which style a vector map is drawn with.
package enum VectorMapStyle: Sendable {
    /// A style document the user gave.
    case document(MapStyleDocument)
    /// The built-in style for the tiles' schema (told by their layer names), light or dark.
    case builtIn(dark: Bool)

    /// The document to draw with, for tiles whose layers are `layerNames`: Protomaps' schema has a
    /// `roads` layer, OpenMapTiles' a `transportation` layer (the default when neither shows).
    func document(forLayers layerNames: [String]) -> MapStyleDocument {
        switch self {
        case .document(let document): return document
        case .builtIn(let dark):
            let schema: BuiltInStyle.Schema = layerNames.contains("roads") && !layerNames.contains("transportation") ? .protomaps : .openMapTiles
            return Self.builtIns[BuiltInStyle(schema: schema, dark: dark)]!
        }
    }

    /// The credit tiles of a known schema call for (both are made from OpenStreetMap data, ODbL).
    static func attribution(forLayers layerNames: [String]) -> String? {
        if layerNames.contains("transportation") { return "© OpenMapTiles © OpenStreetMap contributors" }
        if layerNames.contains("roads") { return "© Protomaps © OpenStreetMap contributors" }
        return nil
    }

    /// The built-in styles, read once per process (a test checks that each reads).
    private static let builtIns: [BuiltInStyle: MapStyleDocument] = Dictionary(
        uniqueKeysWithValues: BuiltInStyle.allCases.compactMap { style in (try? style.document()).map { (style, $0) } })
}
