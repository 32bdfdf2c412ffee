import Testing
@testable import Raster

@Suite struct CompositorTests {
    @Test func blendsOnceWithCoverageTimesOpacity() {
        var canvas = Canvas(width: 2, height: 1, fill: RGBAColor(red: 200, green: 100, blue: 0))
        var mask = CoverageMask(width: 2, height: 1)
        mask.values = [255, 128]
        mask.touch(minX: 0, minY: 0, maxX: 1, maxY: 0)
        canvas.blend(mask, color: RGBAColor(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(canvas.color(x: 0, y: 0) == RGBAColor(red: 0, green: 0, blue: 255))
        let half = canvas.color(x: 1, y: 0)
        #expect(half.red == 100 && half.green == 50 && half.blue == 128 && half.alpha == 255)
    }

    @Test func colourParsesAndPrintsHex() {
        #expect(RGBAColor(hex: "#0A6CFF") == RGBAColor(red: 10, green: 108, blue: 255))
        #expect(RGBAColor(hex: "0a6cff80")?.alpha == 128)
        #expect(RGBAColor(hex: "#12345") == nil)
        #expect(RGBAColor(red: 1, green: 2, blue: 3, alpha: 4).description == "#01020304")
    }
}

/// `Canvas.blend`'s shortcut for an opaque colour at full coverage (a word stored, eight at a
/// time where eight coverage bytes are full) against the per-channel formula it stands for.
@Suite struct OpaqueFullCoverageTests {
    /// The formula of `Canvas.blend` for one channel: weight = α · coverage, rounded.
    private func blended(_ below: UInt8, _ above: UInt8, alpha: UInt8, coverage: UInt8) -> UInt8 {
        let weight = UInt32(alpha) * UInt32(coverage)
        return UInt8((UInt32(below) * (65_025 - weight) + UInt32(above) * weight + 32_512) / 65_025)
    }

    /// Runs of full coverage longer and shorter than eight, at every offset, among partial and
    /// empty pixels, over a translucent and an opaque paper; an opaque and a translucent colour.
    @Test(arguments: [255, 200] as [UInt8])
    func fullRunsGiveTheColourAndPartialPixelsTheFormula(alpha: UInt8) {
        let width = 61, height = 3
        let coverage: [UInt8] = (0..<(width * height)).map { offset in
            switch offset % 23 {
            case 0..<11: 255
            case 11: 128
            case 12..<14: 0
            case 14..<19: 255
            default: UInt8(offset % 7 * 36)
            }
        }
        var mask = CoverageMask(width: width, height: height)
        mask.values = coverage
        mask.touch(minX: 0, minY: 0, maxX: width - 1, maxY: height - 1)
        let color = RGBAColor(red: 10, green: 108, blue: 255, alpha: alpha)
        for paper in [RGBAColor(red: 242, green: 239, blue: 233), RGBAColor(red: 60, green: 60, blue: 60, alpha: 90)] {
            var canvas = Canvas(width: width, height: height, fill: paper)
            canvas.blend(mask, color: color)
            for offset in 0..<(width * height) {
                let c = coverage[offset]
                let expected = RGBAColor(
                    red: blended(paper.red, color.red, alpha: alpha, coverage: c),
                    green: blended(paper.green, color.green, alpha: alpha, coverage: c),
                    blue: blended(paper.blue, color.blue, alpha: alpha, coverage: c), alpha: blended(paper.alpha, 255, alpha: alpha, coverage: c))
                #expect(canvas.color(x: offset % width, y: offset / width) == expected, "pixel \(offset), coverage \(c), paper \(paper)")
            }
        }
    }
}
