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
