import MapGeometry
import Testing

@testable import Raster

/// A star-shaped polygon with a hole, off the pixel grid, partly outside a 96×80 frame.
private let star: [PixelPoint] = (0..<14).map { index in
    let radius = index % 2 == 0 ? 52.3 : 21.7
    let angle = Double(index) / 14 * 2 * Double.pi + 0.1
    return PixelPoint(x: 47.3 + radius * approximateCosine(angle), y: 41.9 + radius * approximateCosine(angle - Double.pi / 2))
}
private let starHole: [PixelPoint] = [
    PixelPoint(x: 40.2, y: 35.1), PixelPoint(x: 40.2, y: 48.8), PixelPoint(x: 55.9, y: 48.8), PixelPoint(x: 58.4, y: 33.3),
]

/// cos to about 1e-12 without libm (a 16-term Taylor series after range reduction).
private func approximateCosine(_ angle: Double) -> Double {
    var x = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if x > Double.pi { x -= 2 * Double.pi } else if x < -Double.pi { x += 2 * Double.pi }
    var term = 1.0, sum = 1.0
    for n in 1..<16 {
        term *= -x * x / Double((2 * n - 1) * (2 * n))
        sum += term
    }
    return sum
}

/// Tiles of `size` pixels starting at `origin`, enough to cover the 96×80 frame and beyond.
private func tiles(origin: Double, size: Double, count: Int) -> [PixelRect] {
    var tiles: [PixelRect] = []
    for row in 0..<count {
        for column in 0..<count {
            let minX = origin + Double(column) * size, minY = origin + Double(row) * size
            tiles.append(PixelRect(minX: minX, minY: minY, maxX: minX + size, maxY: minY + size))
        }
    }
    return tiles
}

@Suite struct RectangleClipTests {
    @Test(arguments: [(-20.37, 70.4, 2), (-13.81, 45.29, 3), (-7.5, 3.75, 30)])
    func polygonCutIntoTilePiecesAddsUpToTheWholePolygon(origin: Double, size: Double, count: Int) {
        let (width, height) = (96, 80)
        var accumulator = AreaAccumulator(width: width, height: height)
        var whole = CoverageMask(width: width, height: height)
        let added = accumulator.add(polygon: [star, starHole])
        #expect(added)
        accumulator.resolve(into: &whole)
        var pieces = CoverageMask(width: width, height: height)
        var pieceCount = 0
        for tile in tiles(origin: origin, size: size, count: count) {
            let clipped = [star, starHole].map { RectangleClip.clip(ring: $0, to: tile) }
            guard !clipped[0].isEmpty else { continue }
            pieceCount += 1
            // The renderer adds each tile's piece with its holes; a hole clipped away is empty.
            let pieceAdded = accumulator.add(polygon: clipped.filter { !$0.isEmpty })
            #expect(pieceAdded)
        }
        accumulator.resolve(into: &pieces)
        #expect(pieceCount >= count)
        let worst = zip(whole.values, pieces.values).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst) levels")
        #expect(whole.values.contains(255) && whole.values.contains(0) && whole.values.contains { $0 > 0 && $0 < 255 })
    }

    @Test func ringClippedToARectangleKeepsItsAreaInside() {
        let square = [PixelPoint(x: 0, y: 0), PixelPoint(x: 10, y: 0), PixelPoint(x: 10, y: 10), PixelPoint(x: 0, y: 10)]
        let clipped = RectangleClip.clip(ring: square, to: PixelRect(minX: 2.5, minY: -5, maxX: 20, maxY: 7.25))
        #expect(abs(abs(AreaAccumulator.signedArea(clipped)) - 7.5 * 7.25) < 1e-9)
        #expect(RectangleClip.clip(ring: square, to: PixelRect(minX: -1, minY: -1, maxX: 11, maxY: 11)) == square)
        #expect(RectangleClip.clip(ring: square, to: PixelRect(minX: 20, minY: 0, maxX: 30, maxY: 10)).isEmpty)
        #expect(RectangleClip.clip(ring: Array(square.prefix(2)), to: PixelRect(minX: -1, minY: -1, maxX: 11, maxY: 11)).isEmpty)
    }

    @Test func polylineLeavingAndReenteringGivesTwoPiecesEndingOnTheSides() {
        let line = [PixelPoint(x: 2, y: 5), PixelPoint(x: 30, y: 5), PixelPoint(x: 30, y: 15), PixelPoint(x: 4, y: 15)]
        let pieces = RectangleClip.clip(polyline: line, to: PixelRect(minX: 0, minY: 0, maxX: 20, maxY: 20))
        #expect(pieces == [[PixelPoint(x: 2, y: 5), PixelPoint(x: 20, y: 5)], [PixelPoint(x: 20, y: 15), PixelPoint(x: 4, y: 15)]])
        #expect(RectangleClip.clip(polyline: [PixelPoint(x: 3, y: 3)], to: PixelRect(minX: 0, minY: 0, maxX: 20, maxY: 20)).count == 1)
        #expect(
            RectangleClip.clip(
                polyline: [PixelPoint(x: -1e300, y: 3), PixelPoint(x: 1e300, y: 3)], to: PixelRect(minX: 0, minY: 0, maxX: 20, maxY: 20)) == [
                    [PixelPoint(x: 0, y: 3), PixelPoint(x: 20, y: 3)]
                ])
    }

    @Test(arguments: [1.0, 3.5, 8.0])
    func lineCutAtATileEdgeAndStrokedAsTwoPiecesMatchesTheWholeLine(radius: Double) {
        let (width, height) = (120, 90)
        let line = [PixelPoint(x: 7.3, y: 12.1), PixelPoint(x: 58.6, y: 40.2), PixelPoint(x: 61.2, y: 70.9), PixelPoint(x: 112.4, y: 20.7)]
        // Two tiles meeting at x = 60.37 (the vertex at 58.6 is in the left tile, the one at 61.2 in the right).
        let left = PixelRect(minX: -50, minY: -50, maxX: 60.37, maxY: 150), right = PixelRect(minX: 60.37, minY: -50, maxX: 200, maxY: 150)
        let reach = radius + 1
        let pieces = [left, right].flatMap { RectangleClip.clip(polyline: line, to: $0.grown(byPixels: reach)) }
        #expect(pieces.count == 2)

        var whole = CoverageMask(width: width, height: height), cut = CoverageMask(width: width, height: height)
        StrokeRasterizer.stroke([line], radiusPixels: radius, into: &whole)
        StrokeRasterizer.stroke(pieces, radiusPixels: radius, into: &cut)
        #expect(zip(whole.values, cut.values).allSatisfy { abs(Int($0) - Int($1)) <= 1 })

        var accumulator = AreaAccumulator(width: width, height: height)
        var buttWhole = CoverageMask(width: width, height: height), buttCut = CoverageMask(width: width, height: height)
        ButtStroker.stroke([line], radiusPixels: radius, accumulator: &accumulator, into: &buttWhole)
        ButtStroker.stroke(pieces, radiusPixels: radius, accumulator: &accumulator, into: &buttCut)
        let worst = zip(buttWhole.values, buttCut.values).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "butt caps: largest difference \(worst) levels")
    }
}
