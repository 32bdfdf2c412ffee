import Testing
#if canImport(Glibc)
import Glibc
#endif
import MapGeometry
@testable import Raster

@Suite struct StrokeRasterizerTests {
    @Test(arguments: [1.0, 2.5, 4.0, 7.3, 12.0])
    func horizontalStrokeCoversItsWidthInEveryColumn(width: Double) {
        var mask = CoverageMask(width: 64, height: 64)
        // Off the pixel grid on purpose.
        StrokeRasterizer.stroke([[PixelPoint(x: 4, y: 31.37), PixelPoint(x: 60, y: 31.37)]], radiusPixels: width / 2, into: &mask)
        for column in 10..<54 {
            let total = (0..<64).reduce(0.0) { $0 + mask.coverage(x: column, y: $1) }
            #expect(abs(total - width) <= width * 0.01, "column \(column): \(total) for width \(width)")
        }
    }

    @Test func selfCrossingIsCoveredOnce() {
        var canvas = Canvas(width: 100, height: 100, fill: RGBAColor(red: 255, green: 255, blue: 255))
        var mask = CoverageMask(width: 100, height: 100)
        // A figure with the route crossing itself at (61.4, 50), and a join doubling back.
        let route = [
            PixelPoint(x: 10, y: 50), PixelPoint(x: 90, y: 50), PixelPoint(x: 70, y: 80), PixelPoint(x: 50, y: 10), PixelPoint(x: 40, y: 10.5),
        ]
        StrokeRasterizer.stroke([route], radiusPixels: 4, into: &mask)
        canvas.blend(mask, color: RGBAColor(red: 0, green: 0, blue: 255, alpha: 128))
        let plain = canvas.color(x: 25, y: 50)
        let crossing = canvas.color(x: 61, y: 49)
        let corner = canvas.color(x: 89, y: 51)
        #expect(plain == crossing)
        #expect(plain == corner)
        #expect(plain.red == 127 && plain.blue == 255)
    }

    @Test func drawnPixelsLieWithinHalfTheStrokeWidthOfThePolyline() {
        var mask = CoverageMask(width: 128, height: 128)
        let route = [PixelPoint(x: 10.2, y: 12.7), PixelPoint(x: 100.5, y: 40.1), PixelPoint(x: 30.3, y: 110.9), PixelPoint(x: 64, y: 64)]
        let radius = 3.5
        StrokeRasterizer.stroke([route], radiusPixels: radius, into: &mask)
        var drawn = 0
        for y in 0..<128 {
            for x in 0..<128 where mask.coverage(x: x, y: y) > 0 {
                drawn += 1
                let center = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let nearest = zip(route, route.dropFirst()).map { segmentDistance(center, $0, $1) }.min()!
                // Pixel centres with any coverage are within r + ½ px (the anti-aliased edge).
                #expect(nearest < radius + 0.5, "pixel \(x),\(y) at \(nearest)")
            }
        }
        #expect(drawn > 1_000)
        // And the inside is fully covered.
        #expect(mask.coverage(x: 64, y: 64) == 1)
    }

    @Test func onePointPolylineIsADot() {
        var mask = CoverageMask(width: 20, height: 20)
        StrokeRasterizer.stroke([[PixelPoint(x: 10, y: 10)]], radiusPixels: 3, into: &mask)
        let area = (0..<400).reduce(0.0) { $0 + mask.coverage(x: $1 % 20, y: $1 / 20) }
        #expect(abs(area - Double.pi * 9) < Double.pi * 9 * 0.03)
        // The touched rectangle is exact: the columns whose centres are closer than r + 0.5.
        #expect(mask.minX == 7 && mask.maxX == 12 && mask.minY == 7 && mask.maxY == 12)
    }

    @Test func casingIsFilledInTheSamePass() {
        var route = CoverageMask(width: 40, height: 40), casing = CoverageMask(width: 40, height: 40)
        StrokeRasterizer.stroke(
            [[PixelPoint(x: 5, y: 20), PixelPoint(x: 35, y: 20)]], radiusPixels: 2, into: &route, casingRadiusPixels: 4, casing: &casing)
        let routeTotal = (0..<40).reduce(0.0) { $0 + route.coverage(x: 20, y: $1) }
        let casingTotal = (0..<40).reduce(0.0) { $0 + casing.coverage(x: 20, y: $1) }
        #expect(abs(routeTotal - 4) < 0.04 && abs(casingTotal - 8) < 0.08)
    }

    @Test func aMaskWithAnOriginCoversTheSamePixelsAsAFullOne() {
        let route = [[PixelPoint(x: 12.3, y: 20.7), PixelPoint(x: 30.1, y: 25.2)], [PixelPoint(x: 21.5, y: 22.5)]]
        var full = CoverageMask(width: 40, height: 40)
        StrokeRasterizer.stroke(route, radiusPixels: 3, into: &full)
        var part = CoverageMask(width: 16, height: 12, originX: 14, originY: 17)
        StrokeRasterizer.stroke(route, radiusPixels: 3, into: &part)
        for y in 0..<12 {
            for x in 0..<16 {
                #expect(part.coverage(x: x, y: y) == full.coverage(x: x + 14, y: y + 17), "\(x),\(y)")
            }
        }
        #expect(part.minX == 0 && part.maxX == 15)
    }

    @Test func strokesOutsideTheCanvasAreClipped() {
        var mask = CoverageMask(width: 10, height: 10)
        StrokeRasterizer.stroke(
            [[PixelPoint(x: -50, y: -50), PixelPoint(x: 60, y: 60)], [PixelPoint(x: 500, y: 500)]], radiusPixels: 2, into: &mask)
        #expect(mask.coverage(x: 5, y: 5) == 1)
        #expect(mask.minX == 0 && mask.maxX == 9)
    }
}

/// A route of `count` steps of `stepPixels` whose heading turns by up to ±`maxTurnDegrees` at
/// each vertex (a seeded generator): a large image's GPS noise, where the stroke is many times
/// wider than a step and every vertex's cone overlaps its neighbours' bands.
func jitteryRoute(count: Int, start: PixelPoint, stepPixels: Double, maxTurnDegrees: Double, seed: UInt64) -> [PixelPoint] {
    var state = seed
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    var points = [start], heading = 0.0
    for _ in 0..<count {
        heading += (next() * 2 - 1) * maxTurnDegrees * .pi / 180
        let last = points[points.count - 1]
        points.append(PixelPoint(x: last.x + stepPixels * cos(heading), y: last.y + stepPixels * sin(heading)))
    }
    return points
}

@Suite struct StrokeRasterizerExactnessTests {
    /// The value each pixel must hold: `value(d)` for its exact distance d to the route, allowing
    /// for the last bit of d (the reference computes it another way).
    private func expectEveryPixel(
        of mask: CoverageMask, route: [PixelPoint], _ value: (Double) -> Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var mismatches = 0
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let center = PixelPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let distance = zip(route, route.dropFirst()).map { segmentDistance(center, $0, $1) }.min()!
                let low = value(distance + 1e-9), high = value(max(0, distance - 1e-9))
                let found = Int(mask.values[y * mask.width + x])
                if found < low || found > high { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) pixels differ from their exact distance's value", sourceLocation: sourceLocation)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func rampLevelsOfADenseJitteryRouteAreThoseOfTheExactDistance(seed: UInt64) {
        // The 2560×1920 default: a 9 px route radius in an 11 px casing, steps of 2.5 px.
        let route = jitteryRoute(count: 120, start: PixelPoint(x: 30.3, y: 60.7), stepPixels: 2.5, maxTurnDegrees: 60, seed: seed)
        let ramp = StrokeRamp(routeRadiusPixels: 9.07, casingRadiusPixels: 11.07)!
        var mask = CoverageMask(width: 200, height: 150)
        mask.trackBlocks()
        StrokeRasterizer.stroke([route], ramp: ramp, into: &mask)
        expectEveryPixel(of: mask, route: route) { Int(ramp.level(distance: $0)) }
        // Every level lies in a marked block (the palette blend visits only those).
        var visited = [Bool](repeating: false, count: mask.values.count)
        mask.forEachCoveredRunByRow { row, first, last in for x in first...last { visited[row * mask.width + x] = true } }
        #expect(mask.values.indices.allSatisfy { mask.values[$0] == 0 || visited[$0] })
    }

    /// A band that crosses fewer columns than rows is walked by columns (from swapped points),
    /// the others by rows: at every heading each pixel holds its exact distance's value (round
    /// caps; butt caps are checked by `aRouteAndItsMirrorAcrossTheDiagonalGiveMirroredMasks`), and
    /// with either every drawn pixel is inside the touched rectangle and in a marked block.
    @Test(arguments: [false, true])
    func segmentsAtEveryHeadingAreWalkedByRowsOrColumnsToTheSameValues(roundCaps: Bool) {
        let ramp = StrokeRamp(routeRadiusPixels: 5.3, casingRadiusPixels: 7.3)!
        for step in 0..<24 {
            let heading = Double(step) * 15.5 * .pi / 180
            // A short and a long segment, then a turn of 100°, so both pieces go both ways.
            let start = PixelPoint(x: 60.37, y: 50.81)
            let middle = PixelPoint(x: start.x + 3.1 * cos(heading), y: start.y + 3.1 * sin(heading))
            let end = PixelPoint(x: middle.x + 30 * cos(heading + 1.75), y: middle.y + 30 * sin(heading + 1.75))
            let route = [start, middle, end]
            var mask = CoverageMask(width: 120, height: 100)
            mask.trackBlocks()
            if roundCaps {
                StrokeRasterizer.stroke([route], ramp: ramp, into: &mask)
                expectEveryPixel(of: mask, route: route) { Int(ramp.level(distance: $0)) }
            } else {
                StrokeRasterizer.stroke([route], radiusPixels: 5.3, roundCaps: false, into: &mask)
            }
            var visited = [Bool](repeating: false, count: mask.values.count)
            mask.forEachCoveredRunByRow { row, first, last in for x in first...last { visited[row * mask.width + x] = true } }
            for index in mask.values.indices where mask.values[index] != 0 {
                let x = index % mask.width, y = index / mask.width
                #expect(visited[index], "heading step \(step): (\(x), \(y)) outside the marked blocks")
                #expect(mask.minX...mask.maxX ~= x && mask.minY...mask.maxY ~= y, "heading step \(step): (\(x), \(y)) outside the touched rectangle")
            }
        }
    }

    /// A route and its mirror image across the diagonal (x and y swapped) give mirrored masks,
    /// value for value: each band is walked by rows one way and by columns the other, so this
    /// holds only if both walks cover the same pixels with the same values. Coordinates on half
    /// and whole pixels put pixel centres exactly on the cuts between bands and cones (where each
    /// rounds its own side), on a mask wider than tall, with an origin, crossed at its edges.
    @Test(arguments: [UInt64(11), 12, 13, 14])
    func aRouteAndItsMirrorAcrossTheDiagonalGiveMirroredMasks(seed: UInt64) {
        var route = jitteryRoute(count: 60, start: PixelPoint(x: 20, y: 14), stepPixels: 4.5, maxTurnDegrees: 70, seed: seed)
        if seed.isMultiple(of: 2) { route = route.map { PixelPoint(x: ($0.x * 2).rounded() / 2, y: ($0.y * 2).rounded() / 2) } }
        route.append(PixelPoint(x: 130, y: route.last!.y))  // off the mask's right edge
        let mirrored = route.map { PixelPoint(x: $0.y, y: $0.x) }
        let (width, height, originX, originY) = (90, 50, -7, 3)
        func masks(_ draw: (inout CoverageMask, [PixelPoint]) -> Void) -> (CoverageMask, CoverageMask) {
            var mask = CoverageMask(width: width, height: height, originX: originX, originY: originY)
            var mirror = CoverageMask(width: height, height: width, originX: originY, originY: originX)
            mask.trackBlocks()
            mirror.trackBlocks()
            draw(&mask, route)
            draw(&mirror, mirrored)
            return (mask, mirror)
        }
        let ramp = StrokeRamp(routeRadiusPixels: 4.5, casingRadiusPixels: 6.5)!
        let drawings: [(String, (inout CoverageMask, [PixelPoint]) -> Void)] = [
            ("ramp", { mask, points in StrokeRasterizer.stroke([points], ramp: ramp, into: &mask) }),
            ("round caps", { mask, points in StrokeRasterizer.stroke([points], radiusPixels: 3.25, into: &mask) }),
            ("butt caps", { mask, points in StrokeRasterizer.stroke([points], radiusPixels: 2.5, roundCaps: false, into: &mask) }),
        ]
        for (name, draw) in drawings {
            let (mask, mirror) = masks(draw)
            var differing = 0
            for y in 0..<height {
                for x in 0..<width where mask.values[y * width + x] != mirror.values[x * height + y] { differing += 1 }
            }
            #expect(differing == 0, "\(name), seed \(seed): \(differing) pixels differ from the mirror's")
            #expect(mask.values.contains { $0 != 0 }, "\(name): nothing drawn")
        }
    }

    /// Pixel centres exactly on the line between a band and the cone beyond it (here (1.5, 1.5) on
    /// the perpendicular at (2.5, 5)) are covered: each piece rounds its own side of the line, and
    /// a band overlaps its joints by a hair so that neither leaves it out.
    @Test func aPixelCentreOnTheCutBetweenABandAndItsConeIsCovered() {
        let route = [(14.5, 11.0), (9.5, 3), (2.5, 5), (6.5, 12), (9, 16), (5.5, 18)].map { PixelPoint(x: $0.0, y: $0.1) }
        var mask = CoverageMask(width: 60, height: 60)
        StrokeRasterizer.stroke([route], radiusPixels: 3.25, into: &mask)
        expectEveryPixel(of: mask, route: route) { distance in Int(min(max((3.25 + 0.5) * 255 - distance * 255, 0), 255) + 0.5) }
        #expect(mask.values[1 * 60 + 1] != 0)
    }

    @Test func coverageOfADenseJitteryRouteIsThatOfTheExactDistance() {
        let route = jitteryRoute(count: 150, start: PixelPoint(x: 40.1, y: 50.2), stepPixels: 1.5, maxTurnDegrees: 80, seed: 7)
        let radius = 4.6
        var mask = CoverageMask(width: 160, height: 120), casing = CoverageMask(width: 160, height: 120)
        StrokeRasterizer.stroke([route], radiusPixels: radius, into: &mask, casingRadiusPixels: radius + 2, casing: &casing)
        func coverage(_ radius: Double) -> (Double) -> Int {
            { distance in Int(min(max((radius + 0.5) * 255 - distance * 255, 0), 255) + 0.5) }
        }
        expectEveryPixel(of: mask, route: route, coverage(radius))
        expectEveryPixel(of: casing, route: route, coverage(radius + 2))
    }
}

func segmentDistance(_ p: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    let t = lengthSquared > 0 ? min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared)) : 0
    let ex = p.x - a.x - t * dx, ey = p.y - a.y - t * dy
    return (ex * ex + ey * ey).squareRoot()
}
