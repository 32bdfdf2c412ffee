import Testing
import Raster
@testable import PNGEncoding

/// A palette canvas from a pattern function of (x, y) → one of `colors` colours.
private func canvas(width: Int, height: Int, colors: Int, _ pattern: (Int, Int) -> Int) -> IndexedCanvas {
    var canvas = IndexedCanvas()
    canvas.reset(width: width, height: height)
    for index in 0..<colors {
        // Distinct colours far apart, so no merging happens.
        let color = RGBAColor(red: UInt8(index), green: UInt8(255 - index), blue: UInt8((index * 37) % 256))
        #expect(canvas.index(of: color) == UInt8(index))
    }
    for y in 0..<height {
        for x in 0..<width { canvas.indices[y * width + x] = UInt8(pattern(x, y) % colors) }
    }
    return canvas
}

/// Decodes through libpng (whose zlib checks the stream's Adler-32) and compares every pixel.
private func expectRoundTrip(_ image: IndexedCanvas, _ encoder: inout PalettePNGEncoder) throws {
    let png = try encoder.encode(image)
    #expect(png[25] == 3, "colour type 3: a palette image")
    let decoded = try PNGDecoder.decode(png)
    #expect(decoded.width == image.width && decoded.height == image.height)
    #expect(decoded.pixels == image.expanded().pixels)
}

@Suite struct PalettePNGEncoderTests {
    @Test func rowsEqualToTheRowAboveAndLongRuns() throws {
        var encoder = PalettePNGEncoder()
        // Grid-like: vertical lines every 48 px, a horizontal line every 40 rows, a diagonal band.
        let image = canvas(width: 2_003, height: 301, colors: 5) { x, y in
            if abs(x - y * 3) < 9 { return 3 + (x & 1) }
            return y % 40 == 0 ? 2 : (x % 48 == 0 ? 1 : 0)
        }
        try expectRoundTrip(image, &encoder)
    }

    @Test(arguments: [(1, 1), (2, 3), (7, 5), (8, 8), (9, 2), (258, 3), (259, 2), (260, 2), (261, 4), (1_000, 1)])
    func edgeSizes(width: Int, height: Int) throws {
        var encoder = PalettePNGEncoder()
        try expectRoundTrip(canvas(width: width, height: height, colors: 3) { x, y in (x / 3 + y) % 3 }, &encoder)
    }

    @Test func noiseWithAllTwoHundredFiftySixColours() throws {
        var encoder = PalettePNGEncoder()
        var state: UInt32 = 12_345
        let image = canvas(width: 311, height: 97, colors: 256) { _, _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 24)
        }
        try expectRoundTrip(image, &encoder)
    }

    @Test func oneColourEverywhere() throws {
        var encoder = PalettePNGEncoder()
        try expectRoundTrip(canvas(width: 640, height: 480, colors: 1) { _, _ in 0 }, &encoder)
    }

    @Test func anEncoderReusedAcrossSizesGivesTheSameBytesAsANewOne() throws {
        var reused = PalettePNGEncoder()
        let large = canvas(width: 900, height: 400, colors: 7) { x, y in (x * y) % 7 }
        let small = canvas(width: 50, height: 30, colors: 4) { x, y in (x + 2 * y) % 4 }
        _ = try reused.encode(large)
        var fresh = PalettePNGEncoder()
        #expect(try reused.encode(small) == (try fresh.encode(small)))
    }

    @Test func anEncoderReusedAcrossRGBACanvasesGivesTheSameBytesAsANewOne() throws {
        // A large canvas of many colours (quantized), then small ones of many and of few colours
        // (exact): the reused index buffer is longer than they need.
        func rgba(width: Int, height: Int, _ color: (Int, Int) -> RGBAColor) -> Canvas {
            var canvas = Canvas(width: width, height: height, fill: RGBAColor(red: 0, green: 0, blue: 0))
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = color(x, y), offset = (y * width + x) * 4
                    canvas.pixels.replaceSubrange(offset..<(offset + 4), with: [pixel.red, pixel.green, pixel.blue, 255])
                }
            }
            return canvas
        }
        let large = rgba(width: 700, height: 300) { x, y in RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: UInt8((x + y) % 256)) }
        let smallMany = rgba(width: 60, height: 40) { x, y in RGBAColor(red: UInt8(x * 4), green: UInt8(y * 6), blue: 90) }
        let smallFew = rgba(width: 50, height: 30) { x, y in RGBAColor(red: UInt8((x / 10) * 40), green: 20, blue: UInt8((y / 10) * 60)) }
        var reused = PalettePNGEncoder()
        _ = try reused.encodeReducingColors(large)
        for small in [smallMany, smallFew] {
            var fresh = PalettePNGEncoder()
            let bytes = try reused.encodeReducingColors(small)
            let expected = try fresh.encodeReducingColors(small)
            #expect(bytes != nil && bytes == expected)
        }
    }

    @Test func huffmanCodesStayWithinTheirLengthLimit() {
        // Fibonacci weights give the deepest possible Huffman tree: 30 symbols would need 29 bits.
        var weights: [UInt32] = [1, 1]
        while weights.count < 30 { weights.append(weights[weights.count - 1] + weights[weights.count - 2]) }
        let code = HuffmanCode(frequencies: weights, maximumLength: 15)
        #expect(code.lengths.allSatisfy { $0 >= 1 && $0 <= 15 })
        // Kraft: a complete prefix code sums to exactly 1.
        let kraft = code.lengths.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
        #expect(abs(kraft - 1) < 1e-12)
    }

    @Test func aLoneSymbolStillGetsACompleteCode() {
        for symbol in [0, 5] {
            var weights = [UInt32](repeating: 0, count: 19)
            weights[symbol] = 10
            let code = HuffmanCode(frequencies: weights, maximumLength: 7)
            #expect(code.lengths.filter { $0 > 0 } == [1, 1])
            #expect(code.lengths[symbol] == 1)
        }
    }
}
