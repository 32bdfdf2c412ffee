import Testing
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

func segmentDistance(_ p: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    let t = lengthSquared > 0 ? min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared)) : 0
    let ex = p.x - a.x - t * dx, ey = p.y - a.y - t * dy
    return (ex * ex + ey * ey).squareRoot()
}
