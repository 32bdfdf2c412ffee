import MapGeometry
import Testing

@testable import ArchiveOverview

/// A grid with the given tracks (each a list of polylines in pixels) added.
private func grid(width: Int = 20, height: Int = 20, _ tracks: [[[PixelPoint]]]) -> DensityGrid {
    var tracer = FootprintTracer(width: width, height: height)
    var grid = DensityGrid(width: width, height: height)
    for track in tracks { grid.add(tracer.trace(track)) }
    return grid
}

private func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [PixelPoint] {
    [PixelPoint(x: x0, y: y0), PixelPoint(x: x1, y: y1)]
}

/// The pixels a polyline's samples fall in (every 1/4096 of each segment).
private func sampledPixels(_ polyline: [PixelPoint]) -> Set<Int> {
    var pixels: Set<Int> = []
    for (a, b) in zip(polyline, polyline.dropFirst()) {
        for step in 0...4096 {
            let t = Double(step) / 4096
            pixels.insert(Int((a.y + (b.y - a.y) * t).rounded(.down)) * 1000 + Int((a.x + (b.x - a.x) * t).rounded(.down)))
        }
    }
    return pixels
}

@Suite struct DensityCountTests {
    @Test func twoCrossingLinesCountTwoWhereTheyCrossAndOneElsewhere() {
        let counts = grid([[line(0.5, 10.5, 19.5, 10.5)], [line(5.5, 0.5, 5.5, 19.5)]])
        #expect(counts.count(x: 5, y: 10) == 2)
        #expect(counts.count(x: 0, y: 10) == 1)
        #expect(counts.count(x: 19, y: 10) == 1)
        #expect(counts.count(x: 5, y: 0) == 1)
        #expect(counts.count(x: 5, y: 19) == 1)
        #expect(counts.count(x: 6, y: 11) == 0)
        #expect(counts.counts.reduce(0, +) == 40)
        #expect(counts.maximumCount == 2)
    }

    @Test func oneLineRepeatedSevenTimesCountsSeven() {
        let diagonal = [line(1.5, 2.5, 17.5, 9.5)]
        let counts = grid(Array(repeating: diagonal, count: 7))
        #expect(counts.trackCount == 7)
        #expect(counts.count(x: 1, y: 2) == 7)
        #expect(counts.count(x: 17, y: 9) == 7)
        #expect(counts.maximumCount == 7)
        #expect(Set(counts.counts) == [0, 7])
    }

    @Test func aLoopThatRevisitsAStreetCountsItOnce() {
        // Out along row 10, round a block, back along row 10 and out along it a second time.
        let loop = [
            PixelPoint(x: 1.5, y: 10.5), PixelPoint(x: 15.5, y: 10.5), PixelPoint(x: 15.5, y: 4.5), PixelPoint(x: 8.5, y: 4.5),
            PixelPoint(x: 8.5, y: 10.5), PixelPoint(x: 1.5, y: 10.5), PixelPoint(x: 15.5, y: 10.5),
        ]
        let counts = grid([[loop]])
        for x in 1...15 { #expect(counts.count(x: x, y: 10) == 1) }
        #expect(counts.count(x: 8, y: 7) == 1)
        #expect(counts.maximumCount == 1)
        // Row 10 (15), the east side (6 more), the top (7 more), the west side (5 more).
        #expect(counts.counts.reduce(0, +) == 33)
    }

    @Test func manyFixesInOnePixelCountOnce() {
        var wander: [PixelPoint] = []
        for index in 0..<1000 {
            let angle = Double(index) * 0.7
            wander.append(PixelPoint(x: 3.5 + 0.4 * (angle.truncatingRemainder(dividingBy: 1) - 0.5), y: 3.5 + 0.3 * Double(index % 3 - 1)))
        }
        wander.append(PixelPoint(x: 12.5, y: 3.5))
        let counts = grid([[wander], [wander, [PixelPoint(x: 3.2, y: 3.9)]]])
        #expect(counts.count(x: 3, y: 3) == 2)
        #expect(counts.count(x: 12, y: 3) == 2)
        #expect(counts.maximumCount == 2)
    }

    @Test func aSegmentTouchesEveryPixelItPassesThroughAndNoOther() {
        var random = SystemRandomNumberGenerator()
        var tracer = FootprintTracer(width: 200, height: 200)
        for _ in 0..<200 {
            let segment = [
                PixelPoint(x: Double.random(in: 0..<200, using: &random), y: Double.random(in: 0..<200, using: &random)),
                PixelPoint(x: Double.random(in: 0..<200, using: &random), y: Double.random(in: 0..<200, using: &random)),
            ]
            let traced = tracer.trace([segment]).pixelIndices.map { Int($0 / 200) * 1000 + Int($0 % 200) }
            #expect(Set(traced).count == traced.count)
            #expect(sampledPixels(segment).isSubset(of: Set(traced)))
            // A grid walk steps one column or one row at a time: |Δcolumn| + |Δrow| + 1 pixels.
            let columns = abs(Int(segment[1].x) - Int(segment[0].x)), rows = abs(Int(segment[1].y) - Int(segment[0].y))
            #expect(traced.count == columns + rows + 1)
        }
    }

    @Test func linesAreClippedToTheGrid() {
        let counts = grid([[line(-40, 5.5, 60, 5.5)], [line(-5, -5, -1, 30)], [[PixelPoint(x: 25, y: 3)]]])
        for x in 0..<20 { #expect(counts.count(x: x, y: 5) == 1) }
        #expect(counts.counts.reduce(0, +) == 20)
    }

    @Test func aTracerLeavesNoTraceOfThePreviousTrack() {
        var tracer = FootprintTracer(width: 20, height: 20)
        let track = [line(0.5, 0.5, 19.5, 19.5)]
        let first = tracer.trace(track)
        #expect(tracer.trace(track) == first)
        #expect(first.pixelCount == 39)
    }

    @Test func subtractingATrackRestoresTheCountsExactly() {
        var tracer = FootprintTracer(width: 20, height: 20)
        var counts = grid([[line(0.5, 10.5, 19.5, 10.5)], [line(5.5, 0.5, 5.5, 19.5)]])
        let before = counts
        let extra = tracer.trace([line(0.5, 0.5, 19.5, 13.5)])
        counts.add(extra)
        #expect(counts != before)
        counts.subtract(extra)
        #expect(counts == before)
    }
}
