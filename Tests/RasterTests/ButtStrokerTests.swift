import MapGeometry
import Testing

@testable import Raster

@Suite struct ButtStrokerTests {
    /// An L drawn at half width 3 with butt ends at x = 10.5 and y = 50.5 (also `ButtBandTests`'
    /// line, whose ends are checked against this outline).
    static let lShape = [PixelPoint(x: 10.5, y: 20.5), PixelPoint(x: 40.5, y: 20.5), PixelPoint(x: 40.5, y: 50.5)]

    @Test func turnIsJoinedRoundlyAndTheEndsAreCutSquare() {
        let line = Self.lShape
        var accumulator = AreaAccumulator(width: 64, height: 64)
        var butt = CoverageMask(width: 64, height: 64), round = CoverageMask(width: 64, height: 64)
        ButtStroker.stroke([line], radiusPixels: 3, accumulator: &accumulator, into: &butt)
        StrokeRasterizer.stroke([line], radiusPixels: 3, into: &round)
        // Away from the two ends and the inner corner, the same shape as the round-capped stroke: equal
        // along the straight edges, within 12 levels on the outer arc (area coverage against
        // `StrokeRasterizer`'s distance ramp, which differ slightly on a curve).
        for y in 0..<64 {
            for x in 0..<64 where x > 13 && y < 47 && (x, y) != (37, 23) {
                let difference = abs(Int(butt.values[y * 64 + x]) - Int(round.values[y * 64 + x]))
                #expect(difference <= ((40...44).contains(x) && (16...21).contains(y) ? 12 : 1), "pixel \(x), \(y)")
            }
        }
        // The inner corner: inside, the overlap of the two rectangles is full coverage, not more; its
        // one edge pixel counts the overlap twice (1 where the exact area is 0.75, the ramp gives 0.5).
        #expect(butt.coverage(x: 36, y: 22) == 1)
        #expect(butt.coverage(x: 37, y: 23) == 1)
        // Square ends: half of the end pixel's column, nothing past it, where the round cap reaches on.
        #expect(butt.values[20 * 64 + 10] == 128 && butt.values[20 * 64 + 9] == 0 && round.values[20 * 64 + 9] == 255)
        #expect(butt.values[50 * 64 + 40] == 128 && butt.values[51 * 64 + 40] == 0)
    }
}
