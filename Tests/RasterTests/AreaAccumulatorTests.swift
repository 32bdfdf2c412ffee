#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MapGeometry
import Testing

@testable import Raster

/// Exact coverage of a pixel by the region left of the line x = x0 + slope × y: the mean over the
/// pixel's height of clamp(x(y) − column, 0, 1), by the midpoint rule (error far below 1/255).
private func coverageLeftOfLine(column: Int, row: Int, x0: Double, slope: Double) -> Double {
    let samples = 2000
    var sum = 0.0
    for sample in 0..<samples {
        let y = Double(row) + (Double(sample) + 0.5) / Double(samples)
        sum += min(max(x0 + slope * y - Double(column), 0), 1)
    }
    return sum / Double(samples)
}

private func fill(_ rings: [[PixelPoint]], width: Int = 64, height: Int = 64) -> CoverageMask {
    var accumulator = AreaAccumulator(width: width, height: height)
    var mask = CoverageMask(width: width, height: height)
    for ring in rings {
        let added = accumulator.add(ring: ring)
        #expect(added)
    }
    accumulator.resolve(into: &mask)
    return mask
}

private func rectangle(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> [PixelPoint] {
    [PixelPoint(x: minX, y: minY), PixelPoint(x: maxX, y: minY), PixelPoint(x: maxX, y: maxY), PixelPoint(x: minX, y: maxY)]
}

private func maximumDifference(_ a: CoverageMask, _ b: CoverageMask) -> Int {
    zip(a.values, b.values).map { abs(Int($0) - Int($1)) }.max() ?? 0
}

@Suite struct AreaAccumulatorTests {
    @Test func rectangleOffThePixelGridCoversEachPixelByItsOverlapArea() {
        let (minX, minY, maxX, maxY) = (10.3, 5.25, 40.7, 30.5)
        let mask = fill([rectangle(minX, minY, maxX, maxY)])
        for y in 0..<64 {
            for x in 0..<64 {
                let overlapX = max(0, min(maxX, Double(x + 1)) - max(minX, Double(x)))
                let overlapY = max(0, min(maxY, Double(y + 1)) - max(minY, Double(y)))
                #expect(abs(mask.coverage(x: x, y: y) - overlapX * overlapY) <= 0.5 / 255 + 1e-6, "pixel \(x), \(y)")
            }
        }
        // The touched rectangle may take in the column right of the shape (where an edge's remainder goes).
        #expect(mask.minX == 10 && (40...41).contains(mask.maxX) && mask.minY == 5 && mask.maxY == 30)
    }

    @Test(arguments: [(0.0, 20.37), (0.31, 7.85), (-1.7, 60.2), (4.0, 1.13)])
    func slantedEdgeAtASubPixelOffsetGivesTheAnalyticCoverage(slope: Double, x0: Double) {
        // The half-plane left of x = x0 + slope × y, as a quadrilateral reaching far past the frame.
        let ring = [
            PixelPoint(x: -500, y: -10), PixelPoint(x: x0 + slope * -10, y: -10), PixelPoint(x: x0 + slope * 74, y: 74),
            PixelPoint(x: -500, y: 74),
        ]
        let mask = fill([ring])
        var worst = 0.0
        for y in 0..<64 {
            for x in 0..<64 {
                let expected = coverageLeftOfLine(column: x, row: y, x0: x0, slope: slope)
                worst = max(worst, abs(mask.coverage(x: x, y: y) - expected))
            }
        }
        #expect(worst <= 0.5 / 255 + 1e-4, "largest error \(worst)")
    }

    @Test func reversedWindingFillsTheSamePixels() {
        let ring = [PixelPoint(x: 3.2, y: 4.9), PixelPoint(x: 50.1, y: 12.4), PixelPoint(x: 30.7, y: 58.3), PixelPoint(x: 20, y: 30)]
        let forward = fill([ring])
        let reversed = fill([ring.reversed()])
        #expect(forward.values == reversed.values)
        #expect(forward.values.contains(255))
    }

    @Test func squareWithAHoleWoundOppositeLeavesTheHoleEmpty() {
        let outer = rectangle(8.5, 8.5, 56.5, 56.5)
        let hole = Array(rectangle(20.25, 20.25, 44.75, 44.75).reversed())
        let mask = fill([outer, hole])
        #expect(mask.coverage(x: 32, y: 32) == 0)
        #expect(mask.coverage(x: 21, y: 32) == 0)
        #expect(mask.values[32 * 64 + 20] == 64)  // a quarter
        #expect(mask.values[32 * 64 + 12] == 255)
        #expect(mask.values[32 * 64 + 8] == 128)  // a half
        // The same hole through `add(polygon:)`, stored with the exterior's winding (a tile whose
        // winding is reversed for its holes), is still a hole.
        var accumulator = AreaAccumulator(width: 64, height: 64)
        var polygonMask = CoverageMask(width: 64, height: 64)
        let added94 = accumulator.add(polygon: [outer, rectangle(20.25, 20.25, 44.75, 44.75)])
        #expect(added94)
        accumulator.resolve(into: &polygonMask)
        #expect(polygonMask.values == mask.values)
        // Both rings of the polygon reversed: the same picture.
        let added99 = accumulator.add(polygon: [outer.reversed(), hole.reversed()])
        #expect(added99)
        var reversedMask = CoverageMask(width: 64, height: 64)
        accumulator.resolve(into: &reversedMask)
        #expect(reversedMask.values == mask.values)
    }

    @Test func ringsBackToBackInOneFlatBufferFillAsSeparateRings() {
        let outer = rectangle(8.5, 8.5, 56.5, 56.5), hole = Array(rectangle(20.25, 20.25, 44.75, 44.75).reversed())
        let flat = outer + hole
        var accumulator = AreaAccumulator(width: 64, height: 64)
        var mask = CoverageMask(width: 64, height: 64)
        let first = accumulator.add(points: flat, ring: 0..<4), second = accumulator.add(points: flat, ring: 4..<8)
        #expect(first && second)
        accumulator.resolve(into: &mask)
        #expect(mask.values == fill([outer, hole]).values)
    }

    @Test func selfTouchingRingFillsBothLobesOnce() {
        // Two squares meeting at the corner (30.5, 30.5), drawn as one ring through that point twice.
        let ring = [
            PixelPoint(x: 10.5, y: 10.5), PixelPoint(x: 30.5, y: 10.5), PixelPoint(x: 30.5, y: 30.5), PixelPoint(x: 50.5, y: 30.5),
            PixelPoint(x: 50.5, y: 50.5), PixelPoint(x: 30.5, y: 50.5), PixelPoint(x: 30.5, y: 30.5), PixelPoint(x: 10.5, y: 30.5),
        ]
        let mask = fill([ring])
        let separate = fill([rectangle(10.5, 10.5, 30.5, 30.5), rectangle(30.5, 30.5, 50.5, 50.5)])
        #expect(mask.values == separate.values)
        #expect(mask.values[30 * 64 + 30] == 128 && mask.coverage(x: 20, y: 20) == 1 && mask.coverage(x: 40, y: 20) == 0)
    }

    @Test func emptyAndDegenerateRingsDrawNothing() {
        var accumulator = AreaAccumulator(width: 32, height: 32)
        var mask = CoverageMask(width: 32, height: 32)
        let point = PixelPoint(x: 5.5, y: 6.5)
        let added122 = accumulator.add(ring: [])
        #expect(added122)
        let added124 = accumulator.add(ring: [point])
        #expect(added124)
        let added126 = accumulator.add(ring: [point, PixelPoint(x: 20, y: 20)])
        #expect(added126)
        let added128 = accumulator.add(ring: [point, PixelPoint(x: 10.5, y: 11.5), PixelPoint(x: 20.5, y: 21.5)])  // collinear
        #expect(added128)
        let added130 = accumulator.add(ring: [point, point, point, point])
        #expect(added130)
        let added132 = accumulator.add(polygon: [])
        #expect(added132)
        accumulator.resolve(into: &mask)
        #expect(mask.values.allSatisfy { $0 == 0 })
        #expect(accumulator.isEmpty)
    }

    @Test func farOutsideAndHugeCoordinatesAreClippedWithoutOverflow() {
        // A triangle of astronomically large coordinates covering the whole frame.
        let huge = fill([[PixelPoint(x: -1e300, y: -1e300), PixelPoint(x: 1e300, y: -1e300), PixelPoint(x: 0, y: 1e300)]], width: 40, height: 30)
        #expect(huge.values.allSatisfy { $0 == 255 })
        // An edge from far outside crossing the frame lands where it belongs: x = 20 + (y − 15) × 1e-9 … ≈ 20.
        let crossing = fill(
            [[PixelPoint(x: 20 - 1e10, y: 15 - 1e19), PixelPoint(x: 20 + 1e10, y: 15 + 1e19), PixelPoint(x: -1e15, y: 0)]], width: 40, height: 30)
        #expect(crossing.coverage(x: 19, y: 15) == 1 && crossing.coverage(x: 20, y: 15) == 0)
        // Rings entirely outside the frame, on each side, add nothing.
        let outside = fill(
            [rectangle(-90, 5, -10, 25), rectangle(45, 5, 1e9, 25), rectangle(5, -1e12, 25, -3), rectangle(5, 31, 25, 90)], width: 40, height: 30)
        #expect(outside.values.allSatisfy { $0 == 0 })
        // Not finite, or beyond ±1e300: refused, nothing added.
        var accumulator = AreaAccumulator(width: 40, height: 30)
        let added151 = accumulator.add(ring: [PixelPoint(x: .nan, y: 0), PixelPoint(x: 10, y: 10), PixelPoint(x: 0, y: 10)])
        #expect(!added151)
        let added153 = accumulator.add(ring: [PixelPoint(x: .infinity, y: 0), PixelPoint(x: 10, y: 10), PixelPoint(x: 0, y: 10)])
        #expect(!added153)
        let added155 = accumulator.add(ring: [PixelPoint(x: 2e300, y: 0), PixelPoint(x: 10, y: 10), PixelPoint(x: 0, y: 10)])
        #expect(!added155)
        #expect(accumulator.isEmpty)
    }

    @Test func twoMillionVertexRingCostsItsVerticesAndARingZigzaggingAcrossTheFrameIsRefused() {
        let count = 2_000_000
        var accumulator = AreaAccumulator(width: 256, height: 256)
        // A legitimate ring (a circle of 2M vertices): each edge spans at most one row boundary.
        let circle = (0..<count).map { index -> PixelPoint in
            let angle = Double(index) / Double(count) * 2 * Double.pi
            return PixelPoint(x: 128 + 100 * cos(angle), y: 128 + 100 * sin(angle))
        }
        let added168 = accumulator.add(ring: circle)
        #expect(added168)
        #expect(accumulator.cellVisits <= 4 * count + 4 * 2 * 629, "\(accumulator.cellVisits) cell visits")
        var mask = CoverageMask(width: 256, height: 256)
        accumulator.resolve(into: &mask)
        #expect(mask.coverage(x: 128, y: 128) == 1 && mask.coverage(x: 5, y: 5) == 0)
        // A hostile ring: every edge crosses the whole frame. Its cost bound is found in one pass
        // and it is refused before any cell is visited.
        let visitsBefore = accumulator.cellVisits
        let zigzag = (0..<count).map { PixelPoint(x: Double($0 % 256), y: $0 % 2 == 0 ? -5 : 300) }
        let added178 = accumulator.add(ring: zigzag)
        #expect(!added178)
        #expect(accumulator.cellVisits == visitsBefore && accumulator.isEmpty)
    }

    @Test func reusedAcrossFramesOfDifferentSizesLeavesNothingBehind() {
        var accumulator = AreaAccumulator(width: 64, height: 64)
        var mask = CoverageMask(width: 64, height: 64)
        accumulator.add(ring: rectangle(-5, -5, 70, 70))
        accumulator.resolve(into: &mask)
        accumulator.reshape(width: 50, height: 20)
        var small = CoverageMask(width: 50, height: 20)
        accumulator.add(ring: rectangle(2.5, 2.5, 4.5, 4.5))
        accumulator.resolve(into: &small)
        #expect(small.values.filter { $0 != 0 }.count == 9)
        #expect(small.minX == 2 && (4...5).contains(small.maxX))
    }
}
