import MapGeometry
import MapStyle
import MapTiles
import Raster
import PNGEncoding
import Testing
import TrackSynthesis
import VectorMap
import VectorTiles

/// Drawing vector tiles: where edges land, tile seams, and the real Liechtenstein tiles under the built-in styles.
struct VectorMapPainterTests {
    private let white = RGBAColor(red: 255, green: 255, blue: 255)

    /// A tile with one square polygon (tile units) in layer "water".
    private func squareTile(_ minX: Int32, _ minY: Int32, _ maxX: Int32, _ maxY: Int32, extent: UInt64 = 4096) -> [UInt8] {
        SyntheticVectorTile.encode([
            .init(
                name: "water", extent: extent,
                features: [.polygon(rings: [[(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]])])
        ])
    }

    private let waterStyle = """
        [{"id":"w","type":"fill","source":"v","source-layer":"water","paint":{"fill-color":"#000000"}}]
        """

    @Test(arguments: [(256, 1.0), (512, 2.0), (300, 1.0), (700, 2.0)])
    func aSquaresEdgesLandWithinHalfAPixel(pixels: Int, scale: Double) throws {
        // The square spans tile units 1000…3000 of a 4096 tile shown edge to edge: its edges are at
        // 1000/4096 and 3000/4096 of the image, wherever that falls inside a pixel.
        let tile = TileCoordinate(z: 12, x: 2150, y: 1430)
        let provider = try MemoryVectorTiles([tile: squareTile(1000, 1000, 3000, 3000)])
        var canvas = Canvas(width: pixels, height: pixels, fill: white)
        var painter = VectorMapPainter()
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: tile, pixels: pixels), scale: scale, provider: provider, style: .document(try style(waterStyle))
        )
        #expect(report.tileZoom == 12 && report.tiles == 1 && report.featuresDrawn == 1)
        let row = pixels / 2
        // Coverage of each pixel in the row, from the red channel (black over white).
        let covered = (0..<pixels).map { 1 - Double(canvas.color(x: $0, y: row).red) / 255 }
        // Coverage left of the centre is the distance from the left edge to the centre.
        let left = Double(pixels / 2) - covered[..<(pixels / 2)].reduce(0, +)
        let right = Double(pixels / 2) + covered[(pixels / 2)...].reduce(0, +)
        #expect(abs(left - 1000.0 / 4096 * Double(pixels)) < 0.5, "left edge at \(left)")
        #expect(abs(right - 3000.0 / 4096 * Double(pixels)) < 0.5, "right edge at \(right)")
    }

    @Test func aPolygonCutAtATileEdgeHasNoSeam() throws {
        // One rectangle across the edge between two tiles, each tile holding its half plus a
        // buffer (as tile makers cut them): drawn, the edge column is as covered as any other.
        let left = TileCoordinate(z: 13, x: 4300, y: 2870), right = TileCoordinate(z: 13, x: 4301, y: 2870)
        let provider = try MemoryVectorTiles([
            left: squareTile(2000, 1000, 4096 + 80, 3000),
            right: squareTile(-80, 1000, 2000, 3000),
        ])
        var canvas = Canvas(width: 400, height: 400, fill: white)
        var painter = VectorMapPainter()
        let view = viewport(ofTile: left, pixels: 400, zoomIn: 0, shift: (0.5, 0))
        _ = painter.draw(into: &canvas, viewport: view, scale: 1, provider: provider, style: .document(try style(waterStyle)))
        // The tile edge is at x = 200; the polygon spans 2000/4096·400 ≈ 195 px either side.
        for x in 10..<390 {
            #expect(canvas.color(x: x, y: 200) == RGBAColor(red: 0, green: 0, blue: 0), "column \(x)")
        }
    }

    @Test(arguments: [1.0, 2.0])
    func aLineCutAtATileEdgeHasNoGapCapOrDarkerOverlap(scale: Double) throws {
        // One horizontal line across the edge between two tiles, each tile holding its piece plus
        // an 80-unit buffer: drawn 2.5 px wide (partly covered rows above and below), every column
        // of the image is alike, at the edge and in the buffer where the pieces overlap too.
        let left = TileCoordinate(z: 13, x: 4300, y: 2870), right = TileCoordinate(z: 13, x: 4301, y: 2870)
        func line(_ from: Int32, _ to: Int32) -> [UInt8] {
            SyntheticVectorTile.encode([.init(name: "roads", features: [.lines([[(x: from, y: Int32(2048)), (x: to, y: Int32(2048))]])])])
        }
        let provider = try MemoryVectorTiles([left: line(1000, 4096 + 80), right: line(-80, 3000)])
        let pixels = Int(400 * scale)
        var canvas = Canvas(width: pixels, height: pixels, fill: white)
        var painter = VectorMapPainter()
        let view = viewport(ofTile: left, pixels: pixels, shift: (0.5, 0))
        let roads = """
            [{"id":"r","type":"line","source":"v","source-layer":"roads","paint":{"line-color":"#000000","line-width":2.5}}]
            """
        _ = painter.draw(into: &canvas, viewport: view, scale: scale, provider: provider, style: .document(try style(roads)))
        let middle = pixels / 2
        let reference = (middle - 5...middle + 5).map { canvas.color(x: 5, y: $0).red }
        #expect(reference.contains(0) && reference.contains { $0 > 0 && $0 < 255 }, "a 2.5 px line with partly covered rows: \(reference)")
        for x in 5..<(pixels - 5) {
            let column = (middle - 5...middle + 5).map { canvas.color(x: x, y: $0).red }
            #expect(zip(column, reference).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "column \(x): \(column), column 5: \(reference)")
        }
    }

    /// Tile makers merge a road's pieces into one multi-line feature below their highest zoom
    /// (tilemaker's `combine_below`: every road of its zoom-13 tiles): the built-in styles, whose
    /// road filters say `["==", ["geometry-type"], "LineString"]`, draw them like single lines.
    @Test(arguments: [false, true])
    func multiPartRoadsAreDrawnByTheBuiltInStyle(dark: Bool) throws {
        let tile = TileCoordinate(z: 13, x: 4312, y: 2876)
        let road = SyntheticVectorTile.Feature.lines(
            properties: [("class", .string("primary"))], [[(0, 1000), (4096, 1000)], [(0, 3000), (4096, 3000)]])
        let provider = try MemoryVectorTiles([tile: SyntheticVectorTile.encode([.init(name: "transportation", features: [road])])])
        var canvas = Canvas(width: 256, height: 256, fill: white)
        var painter = VectorMapPainter()
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: tile, pixels: 256), scale: 1, provider: provider, style: .builtIn(dark: dark))
        // Drawn by the casing and the road layers; the road's fill colour is on the line's centre.
        #expect(report.featuresDrawn == 2, "\(report)")
        let paper = canvas.color(x: 128, y: 128), onRoad = canvas.color(x: 128, y: Int(1000.0 / 4096 * 256))
        #expect(onRoad != paper, "the road at row \(Int(1000.0 / 4096 * 256)) is drawn")
    }

    @Test func theRealLiechtensteinTilesDrawUnderTheBuiltInStyle() throws {
        let tile = TileCoordinate(z: 14, x: 8624, y: 5758)
        let provider = try MemoryVectorTiles([tile: try vectorFixture("openmaptiles-liechtenstein-14-8624-5758.pbf.gz")])
        let document = try BuiltInStyle(schema: .openMapTiles, dark: false).document()
        let paper = RGBAColor(red: 255, green: 0, blue: 255)
        var canvas = Canvas(width: 512, height: 512, fill: paper)
        var painter = VectorMapPainter()
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: tile, pixels: 512, zoomIn: 0.3), scale: 1, provider: provider, style: .builtIn(dark: false))
        #expect(report.tiles == 1 && report.tilesFailed == 0)
        #expect(report.featuresDrawn > 100 && report.verticesDrawn > 1000)
        #expect(report.labelLayersSkipped == document.symbolLayerCount)
        var colors = Set<RGBAColor>()
        for y in stride(from: 0, to: 512, by: 4) { for x in stride(from: 0, to: 512, by: 4) { colors.insert(canvas.color(x: x, y: y)) } }
        #expect(colors.count > 20, "a map has many colours; found \(colors.count)")
        // The background layer covers the whole tile: no pixel keeps the canvas's own colour
        // (a colour the built-in style does not use).
        #expect(!colors.contains(paper), "the background covers the whole tile")
        if let path = Environment.dumpPath { try FileStoreLite.write(PNGEncoder.encode(canvas), to: path + "/vector-light.png") }
    }

    @Test func aViewWiderThanTheSourcesLowestZoomDrawsNothingAndSaysWhy() throws {
        let tile = TileCoordinate(z: 12, x: 2150, y: 1430)
        let provider = try MemoryVectorTiles([tile: squareTile(0, 0, 4096, 4096)], minimumZoom: 13)
        var canvas = Canvas(width: 256, height: 256, fill: white)
        var painter = VectorMapPainter()
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: tile, pixels: 256), scale: 1, provider: provider, style: .document(try style(waterStyle)))
        #expect(report.tileZoom == nil && report.problems.first?.contains("lowest zoom 13") == true)
        #expect(canvas.color(x: 128, y: 128) == white)
    }

    @Test func tilesOutsideTheSourcesBoundsAreAbsentWithoutAsking() throws {
        // A view of four tiles; the source's bounds cover only the top-left one's interior.
        let topLeft = TileCoordinate(z: 12, x: 2150, y: 1430)
        // Tile 12/2150/1430 spans 8.965–9.053 E, 47.577–47.636 N.
        let provider = try MemoryVectorTiles([topLeft: squareTile(0, 0, 4096, 4096)], boundsLonLat: [8.98, 47.59, 9.04, 47.62])
        var canvas = Canvas(width: 256, height: 256, fill: white)
        var painter = VectorMapPainter()
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: topLeft, pixels: 256, shift: (0.5, 0.5)), scale: 1, provider: provider,
            style: .document(try style(waterStyle)))
        #expect(provider.asked == [topLeft], "asked \(provider.asked)")
        #expect(report.tiles == 1 && report.tilesAbsent == 3)
    }

    @Test func theSchemaIsToldByAnyTileNotOnlyTheFirst() throws {
        // The first tile asked holds only water; the schema's telling layer is in the second.
        let first = TileCoordinate(z: 12, x: 2150, y: 1430), second = TileCoordinate(z: 12, x: 2151, y: 1430)
        let roads = SyntheticVectorTile.encode([
            .init(name: "transportation", features: [.lines(properties: [("class", .string("primary"))], [[(0, 2048), (4096, 2048)]])])
        ])
        let provider = try MemoryVectorTiles([first: squareTile(0, 0, 4096, 4096), second: roads])
        var canvas = Canvas(width: 256, height: 256, fill: white)
        var painter = VectorMapPainter()
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: first, pixels: 256, shift: (0.5, 0)), scale: 1, provider: provider,
            style: .builtIn(dark: false))
        #expect(report.schemaAttribution == "© OpenMapTiles © OpenStreetMap contributors")
        #expect(report.featuresDrawn >= 2, "the road and the water are drawn by the OpenMapTiles style")
    }
}

/// What lies below the map (the grid) is painted only where the map's background does not
/// replace every pixel.
struct VectorMapUnderlayTests {
    private let white = RGBAColor(red: 255, green: 255, blue: 255)

    private func underlayPainted(style text: String, tiles: [TileCoordinate], minimumZoom: Int = 0, viewOf tile: TileCoordinate) throws -> Bool {
        let square = SyntheticVectorTile.encode([.init(name: "water", features: [.polygon(rings: [[(0, 0), (4096, 0), (4096, 4096), (0, 4096)]])])])
        let provider = try MemoryVectorTiles(Dictionary(uniqueKeysWithValues: tiles.map { ($0, square) }), minimumZoom: minimumZoom)
        var canvas = Canvas(width: 256, height: 256, fill: white)
        var painter = VectorMapPainter()
        var painted = 0
        let report = painter.draw(
            into: &canvas, viewport: viewport(ofTile: tile, pixels: 256, zoomIn: 0.25, shift: (0.5, 0.25)), scale: 1, provider: provider,
            style: .document(try style(text)), underlay: { _ in painted += 1 })
        #expect(painted <= 1, "the underlay is painted at most once")
        // Tiles were drawn unless the view is outside the source's zoom range.
        #expect((report.tiles > 0) == (minimumZoom <= 13))
        return painted == 1
    }

    private let opaque = """
        [{"id":"b","type":"background","paint":{"background-color":"#f3f0ea"}},
         {"id":"w","type":"fill","source":"v","source-layer":"water","paint":{"fill-color":"#a0c8f0"}}]
        """

    @Test func anOpaqueBackgroundOverEveryTileNeedsNoGridBelow() throws {
        // Every tile around the view, whichever of them its window takes.
        let left = TileCoordinate(z: 13, x: 4300, y: 2870)
        let around = (4299...4302).flatMap { x in (2869...2871).map { TileCoordinate(z: 13, x: x, y: $0) } }
        #expect(try !underlayPainted(style: opaque, tiles: around, viewOf: left))
    }

    @Test func aMissingTileATranslucentBackgroundNoBackgroundOrNoDrawingKeepTheGrid() throws {
        let left = TileCoordinate(z: 13, x: 4300, y: 2870), right = TileCoordinate(z: 13, x: 4301, y: 2870)
        // The view spans four tiles; three are missing, so the background leaves them to the grid.
        #expect(try underlayPainted(style: opaque, tiles: [left], viewOf: left))
        let translucent = """
            [{"id":"b","type":"background","paint":{"background-color":"rgba(243,240,234,0.5)"}}]
            """
        #expect(try underlayPainted(style: translucent, tiles: [left, right], viewOf: left))
        let fillsOnly = """
            [{"id":"w","type":"fill","source":"v","source-layer":"water","paint":{"fill-color":"#a0c8f0"}}]
            """
        #expect(try underlayPainted(style: fillsOnly, tiles: [left, right], viewOf: left))
        // A view wider than the source's lowest zoom draws nothing of the map: the grid shows.
        #expect(try underlayPainted(style: opaque, tiles: [left, right], minimumZoom: 14, viewOf: left))
    }
}

/// `fill-outline-color`: a 1-point line along the polygon's own edges, never along a tile's cut.
struct FillOutlineTests {
    private let white = RGBAColor(red: 255, green: 255, blue: 255)
    private let blue = RGBAColor(red: 0, green: 0, blue: 255)

    private func outlined(antialias: Bool = true, outline: Bool = true) -> String {
        let outlineColor = outline ? ##","fill-outline-color":"#ff0000""## : ""
        return """
            [{"id":"w","type":"fill","source":"v","source-layer":"water",
              "paint":{"fill-color":"#0000ff","fill-antialias":\(antialias)\(outlineColor)}}]
            """
    }

    /// A 400-px view centred on the edge between two tiles holding one rectangle, each its half plus
    /// an 80-unit buffer (the rectangle spans about 195 px either side of x = 200, rows 100–300).
    private func drawAcrossATileEdge(_ text: String) throws -> Canvas {
        let left = TileCoordinate(z: 13, x: 4300, y: 2870), right = TileCoordinate(z: 13, x: 4301, y: 2870)
        func rectangle(_ minX: Int32, _ maxX: Int32) -> [UInt8] {
            SyntheticVectorTile.encode([
                .init(
                    name: "water",
                    features: [.polygon(rings: [[(minX, Int32(1024)), (maxX, Int32(1024)), (maxX, Int32(3072)), (minX, Int32(3072))]])])
            ])
        }
        let provider = try MemoryVectorTiles([left: rectangle(2000, 4096 + 80), right: rectangle(-80, 2000)])
        var canvas = Canvas(width: 400, height: 400, fill: white)
        var painter = VectorMapPainter()
        _ = painter.draw(
            into: &canvas, viewport: viewport(ofTile: left, pixels: 400, shift: (0.5, 0)), scale: 1, provider: provider,
            style: .document(try style(text)))
        return canvas
    }

    @Test func theOutlineRunsAlongThePolygonsEdgesOnly() throws {
        let canvas = try drawAcrossATileEdge(outlined())
        // The top edge lies on y = 1024/4096 · 400 = 100: the outline covers y 99.5–100.5.
        let top = canvas.color(x: 100, y: 100)
        // Row 100 is inside the fill; the outline's lower half covers it: blue with red over it.
        #expect(top.red > 90 && top.green < 30, "the outline's red over the top edge: \(top)")
        #expect(canvas.color(x: 100, y: 150) == blue, "inside: the fill")
        #expect(canvas.color(x: 100, y: 50) == white, "outside: nothing")
        // Across the tile edge (x = 200) and the left tile's buffer cut (x ≈ 204): fill, no line.
        for x in 195...210 { #expect(canvas.color(x: x, y: 200) == blue, "column \(x) inside the rectangle") }
    }

    @Test func noOutlineWithoutItsColourOrWithoutAntialiasing() throws {
        for text in [outlined(outline: false), outlined(antialias: false)] {
            let canvas = try drawAcrossATileEdge(text)
            let top = canvas.color(x: 100, y: 100)
            #expect(top.red == top.green && top.blue > top.red, "only the fill's anti-aliased edge: \(top)")
        }
    }
}
