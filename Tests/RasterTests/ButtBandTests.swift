import MapGeometry
import Testing

@testable import Raster

/// `StrokeRasterizer.stroke(_:radiusPixels:roundCaps: false, into:)`: butt ends by the along ramp.
@Suite struct ButtBandTests {
    @Test func theEndsAreCutSquareAndTheTurnIsRoundAsWithTheOutline() {
        let line = ButtStrokerTests.lShape
        var accumulator = AreaAccumulator(width: 64, height: 64)
        var outline = CoverageMask(width: 64, height: 64), band = CoverageMask(width: 64, height: 64)
        ButtStroker.stroke([line], radiusPixels: 3, accumulator: &accumulator, into: &outline)
        StrokeRasterizer.stroke([line], radiusPixels: 3, roundCaps: false, into: &band)
        // The same shape as the accumulated outline everywhere but the outer arc (ramp against
        // area, as for round strokes) and the inner corner's one doubled edge pixel.
        for y in 0..<64 {
            for x in 0..<64 where (x, y) != (37, 23) {
                let difference = abs(Int(band.values[y * 64 + x]) - Int(outline.values[y * 64 + x]))
                #expect(difference <= ((40...44).contains(x) && (16...21).contains(y) ? 12 : 1), "pixel \(x), \(y)")
            }
        }
        // Half of each end pixel's column, nothing past it.
        #expect(band.values[20 * 64 + 10] == 128 && band.values[20 * 64 + 9] == 0)
        #expect(band.values[50 * 64 + 40] == 128 && band.values[51 * 64 + 40] == 0)
    }

    @Test func aOnePixelGapBetweenDashesStaysOpen() {
        let dashes = [[PixelPoint(x: 10, y: 8.5), PixelPoint(x: 15, y: 8.5)], [PixelPoint(x: 16, y: 8.5), PixelPoint(x: 21, y: 8.5)]]
        var mask = CoverageMask(width: 32, height: 16)
        StrokeRasterizer.stroke(dashes, radiusPixels: 1, roundCaps: false, into: &mask)
        #expect(mask.values[8 * 32 + 14] == 255 && mask.values[8 * 32 + 16] == 255)
        #expect(mask.values[8 * 32 + 15] == 0)
    }

    @Test func aDashShorterThanAPixelCoversItsLength() {
        // 0.4 px long, 2 px wide, inside one column: 0.4 of each of the two rows it crosses.
        var mask = CoverageMask(width: 16, height: 16)
        StrokeRasterizer.stroke([[PixelPoint(x: 5.3, y: 8), PixelPoint(x: 5.7, y: 8)]], radiusPixels: 1, roundCaps: false, into: &mask)
        #expect(mask.values[7 * 16 + 5] == 102 && mask.values[8 * 16 + 5] == 102)
        #expect(mask.values[7 * 16 + 4] == 0 && mask.values[7 * 16 + 6] == 0)
    }

    @Test func aOnePointPolylineDrawsNothing() {
        var mask = CoverageMask(width: 16, height: 16)
        StrokeRasterizer.stroke([[PixelPoint(x: 8, y: 8)]], radiusPixels: 3, roundCaps: false, into: &mask)
        #expect(mask.values.allSatisfy { $0 == 0 })
    }
}
