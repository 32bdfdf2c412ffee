import MapGeometry
import Testing

@testable import Raster

private let everywhere = PixelRect(minX: -1e6, minY: -1e6, maxX: 1e6, maxY: 1e6)

/// The dashes of a horizontal polyline as [start, end] intervals of x.
private func intervals(_ dashes: [[PixelPoint]]) -> [ClosedRange<Double>] {
    dashes.map { dash in dash.map(\.x).min()!...dash.map(\.x).max()! }
}

private func approximatelyEqual(_ a: [ClosedRange<Double>], _ b: [ClosedRange<Double>]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0.lowerBound - $1.lowerBound) < 1e-9 && abs($0.upperBound - $1.upperBound) < 1e-9 }
}

@Suite struct DashWalkerTests {
    @Test func straightLineIsCutIntoThePatternsLengths() {
        var walker = DashWalker(pattern: DashPattern(lengthsPixels: [10, 5]))
        var dashes: [[PixelPoint]] = []
        walker.dash([PixelPoint(x: 0, y: 3), PixelPoint(x: 52, y: 3)], visible: everywhere, into: &dashes)
        #expect(approximatelyEqual(intervals(dashes), [0...10, 15...25, 30...40, 45...52]))
        #expect(walker.index == 0 && abs(walker.remainingPixels - 3) < 1e-9)
    }

    @Test func phaseRunsOnAcrossVerticesAndAcrossPiecesOfOneLine() {
        let pattern = DashPattern(lengthsPixels: [6, 4])
        var straight = DashWalker(pattern: pattern), bent = DashWalker(pattern: pattern)
        var whole: [[PixelPoint]] = [], withVertices: [[PixelPoint]] = []
        straight.dash([PixelPoint(x: 0, y: 0), PixelPoint(x: 40, y: 0)], visible: everywhere, into: &whole)
        // The same line with extra vertices at 3 and 17.5, given in two pieces (cut at 21).
        bent.dash(
            [PixelPoint(x: 0, y: 0), PixelPoint(x: 3, y: 0), PixelPoint(x: 17.5, y: 0), PixelPoint(x: 21, y: 0)], visible: everywhere,
            into: &withVertices)
        bent.dash([PixelPoint(x: 21, y: 0), PixelPoint(x: 40, y: 0)], visible: everywhere, into: &withVertices)
        #expect(approximatelyEqual(intervals(whole), [0...6, 10...16, 20...26, 30...36]))
        // The dash across the cut at 21 comes in two pieces that meet there.
        #expect(approximatelyEqual(intervals(withVertices), [0...6, 10...16, 20...21, 21...26, 30...36]))
        #expect(withVertices[0] == [PixelPoint(x: 0, y: 0), PixelPoint(x: 3, y: 0), PixelPoint(x: 6, y: 0)])
    }

    @Test func dashesTurnCornersByArcLength() {
        var walker = DashWalker(pattern: DashPattern(lengthsPixels: [8, 4]))
        var dashes: [[PixelPoint]] = []
        walker.dash([PixelPoint(x: 0, y: 0), PixelPoint(x: 5, y: 0), PixelPoint(x: 5, y: 20)], visible: everywhere, into: &dashes)
        #expect(dashes.count == 3)
        #expect(dashes[0] == [PixelPoint(x: 0, y: 0), PixelPoint(x: 5, y: 0), PixelPoint(x: 5, y: 3)])
        #expect(dashes[1] == [PixelPoint(x: 5, y: 7), PixelPoint(x: 5, y: 15)])
        #expect(dashes[2] == [PixelPoint(x: 5, y: 19), PixelPoint(x: 5, y: 20)])
    }

    @Test func oddPatternsRepeatAndShortOrEmptyPatternsAreSolid() {
        #expect(DashPattern(lengthsPixels: [3]).lengthsPixels == [3, 3])
        #expect(DashPattern(lengthsPixels: [2, 1, 0.5]).lengthsPixels == [2, 1, 0.5, 2, 1, 0.5])
        #expect(DashPattern(lengthsPixels: [0.3, 0.3]).isSolid)
        #expect(DashPattern(lengthsPixels: []).isSolid)
        #expect(DashPattern(lengthsPixels: [4, 0]).isSolid)
        #expect(DashPattern(lengthsPixels: [4, -2, .nan, 1]).lengthsPixels == [4, 0, 0, 1])
        var walker = DashWalker(pattern: DashPattern(lengthsPixels: [0.2, 0.2]))
        var dashes: [[PixelPoint]] = []
        walker.dash([PixelPoint(x: 0, y: 0), PixelPoint(x: 30, y: 0)], visible: everywhere, into: &dashes)
        #expect(dashes == [[PixelPoint(x: 0, y: 0), PixelPoint(x: 30, y: 0)]])
    }

    @Test func zeroLengthDashesAreDots() {
        var walker = DashWalker(pattern: DashPattern(lengthsPixels: [0, 5]))
        var dashes: [[PixelPoint]] = []
        walker.dash([PixelPoint(x: 0, y: 0), PixelPoint(x: 12, y: 0)], visible: everywhere, into: &dashes)
        #expect(dashes == [[PixelPoint(x: 0, y: 0)], [PixelPoint(x: 5, y: 0)], [PixelPoint(x: 10, y: 0)]])
    }

    @Test func onlyTheVisibleDashesAreMadeAndThePhaseStaysRight() {
        let pattern = DashPattern(lengthsPixels: [3, 2])
        let line = [PixelPoint(x: -1000, y: 5), PixelPoint(x: 1000, y: 5), PixelPoint(x: 1000, y: 9)]
        var full = DashWalker(pattern: pattern), windowed = DashWalker(pattern: pattern)
        var all: [[PixelPoint]] = [], visible: [[PixelPoint]] = []
        let window = PixelRect(minX: 400.5, minY: 0, maxX: 420, maxY: 20)
        full.dash(line, visible: everywhere, into: &all)
        windowed.dash(line, visible: window, into: &visible)
        // (A dash that only touches the window's side clips to a point: not a dash.)
        let expected = all.flatMap { RectangleClip.clip(polyline: $0, to: window) }.filter { $0.first != $0.last }
        #expect(approximatelyEqual(intervals(visible), intervals(expected)))
        #expect(visible.count == 4)
        #expect(full.index == windowed.index && abs(full.remainingPixels - windowed.remainingPixels) < 1e-6)
        // A line a billion pixels long with a 1 px period: only the window's dashes are made.
        var long = DashWalker(pattern: DashPattern(lengthsPixels: [0.5, 0.5]))
        var few: [[PixelPoint]] = []
        long.dash([PixelPoint(x: -1e9, y: 5), PixelPoint(x: 1e9, y: 5)], visible: window, into: &few)
        #expect(few.count >= 19 && few.count <= 21)
    }

    @Test func buttCappedDashesCoverTheirLengthsAlongTheLine() {
        // A 2 px line with MapLibre's [2, 1] pattern (×2: 4 px on, 2 px off), along a pixel row's centre line.
        var walker = DashWalker(pattern: DashPattern(lengthsPixels: [4, 2]))
        var dashes: [[PixelPoint]] = []
        walker.dash([PixelPoint(x: 2.25, y: 10), PixelPoint(x: 62.25, y: 10)], visible: everywhere, into: &dashes)
        var accumulator = AreaAccumulator(width: 64, height: 20)
        var mask = CoverageMask(width: 64, height: 20)
        ButtStroker.stroke(dashes, radiusPixels: 1, accumulator: &accumulator, into: &mask)
        // Rows 9 and 10 are covered wherever a dash is, pixel by pixel, by the length of dash inside it.
        for x in 0..<64 {
            let inside = dashes.map { dash in max(0, min(dash.last!.x, Double(x + 1)) - max(dash[0].x, Double(x))) }.reduce(0, +)
            #expect(abs(mask.coverage(x: x, y: 9) - inside) <= 0.5 / 255 + 1e-6, "column \(x)")
            #expect(mask.coverage(x: x, y: 10) == mask.coverage(x: x, y: 9) && mask.coverage(x: x, y: 11) == 0)
        }
        // Round caps close 2 px gaps of a 2 px line: the reason for butt caps.
        var round = CoverageMask(width: 64, height: 20)
        StrokeRasterizer.stroke(dashes, radiusPixels: 1, into: &round)
        #expect((8..<56).allSatisfy { round.coverage(x: $0, y: 9) >= 0.5 })
    }
}
