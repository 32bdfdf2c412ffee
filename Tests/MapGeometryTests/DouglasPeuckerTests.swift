import Foundation
import Testing
@testable import MapGeometry

/// Distance from `p` to the segment a–b.
private func distance(_ p: PixelPoint, _ a: PixelPoint, _ b: PixelPoint) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    var t = lengthSquared > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared : 0
    t = min(1, max(0, t))
    let ex = p.x - a.x - t * dx, ey = p.y - a.y - t * dy
    return (ex * ex + ey * ey).squareRoot()
}

/// The largest distance from any input vertex to the simplified polyline.
private func worstError(_ input: [PixelPoint], _ output: [PixelPoint]) -> Double {
    input.map { p in
        output.count == 1
            ? distance(p, output[0], output[0])
            : zip(output, output.dropFirst()).map { distance(p, $0, $1) }.min()!
    }.max()!
}

/// A seeded wandering path with GPS-like jitter, in pixels.
private func wander(_ count: Int, step: Double = 0.2) -> [PixelPoint] {
    var state: UInt64 = 12345
    func random() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    var x = 256.0, y = 256.0, heading = 0.0
    return (0..<count).map { _ in
        heading += (random() - 0.5) * 0.3
        x += step * cos(heading) + (random() - 0.5) * 0.05
        y += step * sin(heading) + (random() - 0.5) * 0.05
        return PixelPoint(x: x, y: y)
    }
}

@Suite struct DouglasPeuckerTests {
    @Test func keepsEndpointsAndEveryDroppedVertexIsWithinTolerance() {
        let input = wander(5_000)
        for tolerance in [0.5, 0.25, 0.1] {
            let output = DouglasPeucker.simplify(input, tolerancePixels: tolerance)
            #expect(output.first == input.first && output.last == input.last)
            #expect(output.count < input.count / 3)
            #expect(worstError(input, output) <= tolerance, "tolerance \(tolerance)")
        }
    }

    @Test func keepsAPointThatDoublesBack() {
        // Out and back along a line: the far end must survive (segment, not line, distance).
        let input = [PixelPoint(x: 0, y: 0), PixelPoint(x: 50, y: 0), PixelPoint(x: 100, y: 0), PixelPoint(x: 50, y: 0.1), PixelPoint(x: 0, y: 0.2)]
        let output = DouglasPeucker.simplify(input, tolerancePixels: 0.5)
        #expect(output.contains(PixelPoint(x: 100, y: 0)))
    }

    @Test func handlesAMillionPointsWithoutRecursion() {
        let input = wander(1_000_000, step: 0.01)
        let output = DouglasPeucker.simplify(input, tolerancePixels: 0.5)
        #expect(output.first == input.first && output.last == input.last)
        #expect(output.count > 10 && output.count < 20_000)
        // Check the bound on a sample of the dropped points (all of them would be slow in debug).
        let sample = stride(from: 0, to: input.count, by: 997).map { input[$0] }
        #expect(worstError(sample, output) <= 0.5)
    }

    @Test func worstCaseDepthZigzagDoesNotOverflow() {
        // Each split leaves almost everything on one side: O(n) depth (and O(n²) time, so kept small).
        let input = (0..<10_000).map { PixelPoint(x: Double($0), y: $0 % 2 == 0 ? 0 : Double($0) * 2e-2) }
        let output = DouglasPeucker.simplify(input, tolerancePixels: 0.5)
        // Past x = 25 every zig is taller than the tolerance, so every vertex there must stay.
        #expect(output.count > 9_900)
        #expect(output.first == input.first && output.last == input.last)
    }

    @Test func tinyInputsPassThrough() {
        #expect(DouglasPeucker.simplify([PixelPoint(x: 1, y: 1)], tolerancePixels: 0.5).count == 1)
        #expect(DouglasPeucker.simplify([PixelPoint(x: 1, y: 1), PixelPoint(x: 1, y: 1)], tolerancePixels: 0.5).count == 2)
    }
}

@Suite struct SimplificationRanksTests {
    /// A noisy walk in Mercator metres.
    private static func walk(_ count: Int) -> [MercatorPoint] {
        var state: UInt64 = 99
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        var x = 0.0, y = 0.0, heading = 0.0
        return (0..<count).map { _ in
            heading += random() * 0.6
            x += cos(heading) * 2 + random()
            y += sin(heading) * 2 + random()
            return MercatorPoint(xMeters: x, yMeters: y)
        }
    }

    @Test(arguments: [0.5, 1.0, 2.5, 8.0])
    func everyPointStaysWithinTheTolerance(tolerance: Double) {
        let points = Self.walk(3_000)
        let ranks = SimplificationRanks(points, floorToleranceMeters: 0.5)
        let kept = ranks.vertices(toleranceMeters: tolerance)
        #expect(kept.first == points.first && kept.last == points.last)
        #expect(kept.count < points.count)
        // The plane is unit-free: the pixel helpers measure it.
        func plane(_ point: MercatorPoint) -> PixelPoint { PixelPoint(x: point.xMeters, y: point.yMeters) }
        #expect(worstError(points.map(plane), kept.map(plane)) <= tolerance + 1e-9)
    }

    @Test func aLargerToleranceKeepsASubset() {
        let ranks = SimplificationRanks(Self.walk(2_000), floorToleranceMeters: 0.5)
        let fine = ranks.vertices(toleranceMeters: 1), coarse = ranks.vertices(toleranceMeters: 4)
        #expect(coarse.count < fine.count)
        var index = 0
        for point in coarse {
            while index < fine.count, fine[index] != point { index += 1 }
            #expect(index < fine.count)
        }
    }
}
