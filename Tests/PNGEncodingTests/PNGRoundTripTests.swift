import Testing
import Raster
@testable import PNGEncoding

/// A canvas with a few flat colours and an anti-aliased blend (palette-friendly), or noise.
private func sampleCanvas(noisy: Bool, alpha: UInt8 = 255) -> Canvas {
    var canvas = Canvas(width: 97, height: 61, fill: RGBAColor(red: 242, green: 239, blue: 233, alpha: alpha))
    var state: UInt32 = 7
    for y in 0..<61 {
        for x in 0..<97 {
            let index = (y * 97 + x) * 4
            if noisy {
                state = state &* 1_664_525 &+ 1_013_904_223
                canvas.pixels[index] = UInt8(truncatingIfNeeded: state >> 24)
                canvas.pixels[index + 1] = UInt8(truncatingIfNeeded: state >> 16)
                canvas.pixels[index + 2] = UInt8(truncatingIfNeeded: state >> 8)
            } else if (x + y) % 7 == 0 {
                canvas.pixels[index] = UInt8(x)
                canvas.pixels[index + 2] = 255
            }
        }
    }
    return canvas
}

@Suite struct PNGRoundTripTests {
    @Test(arguments: [false, true])
    func roundTripsThroughLibpngsDecoder(noisy: Bool) throws {
        let canvas = sampleCanvas(noisy: noisy)
        let png = try PNGEncoder.encode(canvas)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // Colour type byte in IHDR: 3 = palette (few colours), 2 = RGB (noise).
        #expect(png[25] == (noisy ? 2 : 3))
        let decoded = try PNGDecoder.decode(png)
        #expect(decoded.width == canvas.width && decoded.height == canvas.height)
        #expect(decoded.pixels == canvas.pixels)
    }

    @Test func keepsAlphaWhenTheCanvasIsTranslucent() throws {
        let canvas = sampleCanvas(noisy: false, alpha: 100)
        let png = try PNGEncoder.encode(canvas)
        #expect(png[25] == 6)
        #expect(try PNGDecoder.decode(png).pixels == canvas.pixels)
    }

    @Test func trueColourAndLibpngDefaultsDecodeTheSame() throws {
        let canvas = sampleCanvas(noisy: false)
        var settings = PNGSettings()
        settings.layout = .trueColor
        #expect(try PNGDecoder.decode(try PNGEncoder.encode(canvas, settings: settings)).pixels == canvas.pixels)
        #expect(try PNGDecoder.decode(try PNGEncoder.encode(canvas, settings: .libpngDefaults)).pixels == canvas.pixels)
    }

    @Test func sameCanvasGivesTheSameBytes() throws {
        let canvas = sampleCanvas(noisy: false)
        #expect(try PNGEncoder.encode(canvas) == (try PNGEncoder.encode(canvas)))
    }

    @Test func libpngErrorsAreThrownNotCrashes() {
        let error = #expect(throws: PNGError.self) { try PNGDecoder.decode([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]) }
        #expect(error?.operation == "decode")
        var settings = PNGSettings()
        settings.compressionLevel = 42  // zlib refuses: libpng reports it through png_error
        let encodeError = #expect(throws: PNGError.self) { try PNGEncoder.encode(sampleCanvas(noisy: true), settings: settings) }
        #expect(encodeError?.message.isEmpty == false)
    }
}
