import Foundation
import MapGeometry
import MapTiles
import Raster
import Testing
import TrackSynthesis
import VectorMap

/// Vector tiles on both sides of longitude ±180 (columns 2^z − 1 and 0) drawn into a view across
/// the antimeridian, seen from either side (a view centred on +180° and one centred on −180°),
/// at two continuous zooms and both scales: every polygon edge within 0.5 px of where its tile
/// units put it, and no seam where the two tiles meet.
struct AntimeridianAlignmentTests {
    private static let zoom = 5
    private static let row = 10
    private static let east = TileCoordinate(z: zoom, x: (1 << zoom) - 1, y: row), west = TileCoordinate(z: zoom, x: 0, y: row)

    /// One rectangle across the antimeridian, cut into each tile with a 64-unit buffer (units
    /// −2560…2560 east to west of it, rows 1024…2048), and one small square in each tile (rows 2560…3072).
    private static func tiles() throws -> MemoryVectorTiles {
        func tile(_ polygons: [[(x: Int32, y: Int32)]]) -> [UInt8] {
            SyntheticVectorTile.encode([.init(name: "water", features: polygons.map { .polygon(rings: [$0]) })])
        }
        func box(_ minX: Int32, _ minY: Int32, _ maxX: Int32, _ maxY: Int32) -> [(x: Int32, y: Int32)] {
            [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)]
        }
        return try MemoryVectorTiles(
            [
                east: tile([box(1536, 1024, 4096 + 64, 2048), box(2048, 2560, 2560, 3072)]),
                west: tile([box(-64, 1024, 2560, 2048), box(1536, 2560, 2048, 3072)]),
            ], maximumZoom: zoom)
    }

    /// Vertical edges in tile units east (+) or west (−) of the antimeridian, and whether the
    /// shape lies to the edge's right; all in the rows of `rowUnits`.
    private static let verticalEdges: [(units: Double, rowUnits: Double, coveredRight: Bool)] = [
        (-2560, 1536, true), (2560, 1536, false), (-2048, 2816, true), (-1536, 2816, false), (1536, 2816, true), (2048, 2816, false),
    ]
    /// Horizontal edges in tile units from the row's top, measured down the column at `columnUnits`
    /// (from the antimeridian), and whether the shape lies below.
    private static let horizontalEdges: [(units: Double, columnUnits: Double, coveredBelow: Bool)] = [
        (1024, -1000, true), (2048, -1000, false), (1024, 1000, true), (2048, 1000, false),
        (2560, -1792, true), (3072, -1792, false), (2560, 1792, true), (3072, 1792, false),
    ]

    @Test(arguments: [5.3, 5.8], [1.0, 2.0])
    func everyEdgeLandsWithinHalfAPixelOnBothSides(zoom continuousZoom: Double, scale: Double) throws {
        let half = WebMercator.halfWorldMeters
        let tileMeters = 2 * half / Double(1 << Self.zoom), unitMeters = tileMeters / 4096
        let rowTopY = half - Double(Self.row) * tileMeters
        for antimeridianX in [half, -half] {
            // 600×320 points centred on the antimeridian and the tile row's middle.
            let metersPerPoint = 2 * half / (256 * pow(2, continuousZoom))
            let centerY = rowTopY - 2048 * unitMeters
            let rect = MapRect(
                minX: antimeridianX - 300 * metersPerPoint, minY: centerY - 160 * metersPerPoint, maxX: antimeridianX + 300 * metersPerPoint,
                maxY: centerY + 160 * metersPerPoint)
            let view = Viewport(mapRect: rect, widthPixels: Int(600 * scale), heightPixels: Int(320 * scale))
            var canvas = Canvas(width: view.widthPixels, height: view.heightPixels, fill: RGBAColor(red: 255, green: 255, blue: 255))
            var painter = VectorMapPainter()
            let report = painter.draw(
                into: &canvas, viewport: view, scale: scale, provider: try Self.tiles(), style: .document(try style(waterStyle)))
            let label = "zoom \(continuousZoom) @\(scale)x, antimeridian at x = \(antimeridianX)"
            #expect(report.tileZoom == Self.zoom && report.tiles == 2 && report.featuresDrawn == 4, "\(label): \(report)")
            let pixelsPerUnit = unitMeters / view.metersPerPixel
            let antimeridianPixel = (antimeridianX - rect.minX) / view.metersPerPixel
            let rowTopPixel = (rect.maxY - rowTopY) / view.metersPerPixel
            func coverage(_ x: Int, _ y: Int) -> Double { 1 - Double(canvas.color(x: x, y: y).red) / 255 }
            for edge in Self.verticalEdges {
                let expected = antimeridianPixel + edge.units * pixelsPerUnit
                let y = Int(rowTopPixel + edge.rowUnits * pixelsPerUnit)
                let window = (Int(expected) - 4)..<(Int(expected) + 5)
                let covered = window.reduce(0.0) { $0 + coverage($1, y) }
                let found = edge.coveredRight ? Double(window.upperBound) - covered : Double(window.lowerBound) + covered
                #expect(abs(found - expected) <= 0.5, "\(label): edge \(edge.units) at x = \(found), expected \(expected)")
            }
            for edge in Self.horizontalEdges {
                let expected = rowTopPixel + edge.units * pixelsPerUnit
                let x = Int(antimeridianPixel + edge.columnUnits * pixelsPerUnit)
                let window = (Int(expected) - 4)..<(Int(expected) + 5)
                let covered = window.reduce(0.0) { $0 + coverage(x, $1) }
                let found = edge.coveredBelow ? Double(window.upperBound) - covered : Double(window.lowerBound) + covered
                #expect(abs(found - expected) <= 0.5, "\(label): edge \(edge.units) at y = \(found), expected \(expected)")
            }
            // Where the two tiles meet, the rectangle is whole: no seam, no double-blended column.
            let seamRow = Int(rowTopPixel + 1536 * pixelsPerUnit), seam = Int(antimeridianPixel)
            for x in (seam - 3)...(seam + 3) {
                #expect(canvas.color(x: x, y: seamRow) == RGBAColor(red: 0, green: 0, blue: 0), "\(label): column \(x) at the antimeridian")
            }
        }
    }

    private let waterStyle = """
        [{"id":"w","type":"fill","source":"v","source-layer":"water","paint":{"fill-color":"#000000"}}]
        """
}
