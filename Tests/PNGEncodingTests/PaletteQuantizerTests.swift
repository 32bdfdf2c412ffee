import Raster
import Testing

@testable import PNGEncoding

/// `PaletteQuantizer`'s index pass: every pixel gets its colour's index, also where the row
/// repeats the row above, a pixel repeats the one before, or its colour is only in rows the
/// histogram skipped.
@Suite struct PaletteQuantizerTests {
    /// Rows in bands of 1–9 equal rows, with a lone odd pixel in some rows (a colour of its own,
    /// often in a row the histogram skips), more than 256 colours, an odd width: each colour has
    /// one index wherever it is, and the palette stays near every pixel.
    @Test func eachColourHasOneIndexWhereverItIs() {
        let width = 301, height = 260
        var canvas = Canvas(width: width, height: height, fill: RGBAColor(red: 0, green: 0, blue: 0))
        var band = 0, bandStart = 0
        for y in 0..<height {
            if y - bandStart >= band % 9 + 1 {
                band += 1
                bandStart = y
            }
            for x in 0..<width {
                var color = RGBAColor(red: UInt8((x * 7 + band * 13) % 256), green: UInt8(x / 5 * 11 % 256), blue: UInt8(band * 29 % 256))
                if y % 7 == 3 && x == y * 37 % width { color = RGBAColor(red: 255, green: 0, blue: UInt8(y % 256)) }
                let offset = (y * width + x) * 4
                (canvas.pixels[offset], canvas.pixels[offset + 1], canvas.pixels[offset + 2]) = (color.red, color.green, color.blue)
            }
        }
        var quantizer = PaletteQuantizer()
        let (indices, palette) = quantizer.quantize(canvas)
        #expect(palette.count == 256 * 3)
        var indexOfColor: [UInt32: UInt8] = [:]
        var mismatches = 0, worst = 0
        for pixel in 0..<(width * height) {
            let offset = pixel * 4
            let key = UInt32(canvas.pixels[offset]) | UInt32(canvas.pixels[offset + 1]) << 8 | UInt32(canvas.pixels[offset + 2]) << 16
            let index = indices[pixel]
            if let known = indexOfColor[key], known != index { mismatches += 1 }
            indexOfColor[key] = indexOfColor[key] ?? index
            for channel in 0..<3 { worst = max(worst, abs(Int(palette[Int(index) * 3 + channel]) - Int(canvas.pixels[offset + channel]))) }
        }
        #expect(mismatches == 0, "pixels whose colour has another index elsewhere: \(mismatches)")
        #expect(worst <= 64, "largest channel difference \(worst) (measured 52: the lone odd pixels)")
    }
}
