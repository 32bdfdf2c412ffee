import Testing

@testable import MapTiles

/// A palette tile keeps only the rows that differ from the row above (`TileImage`'s compact
/// form); every row must still read back as it was given.
struct TileImageTests {
    /// 256 opaque greys, entry 200 and above transparent padding.
    private static let palette = (0..<256).map { entry in entry < 200 ? UInt32(entry) * 0x0001_0101 | 0xFF00_0000 : 0 }

    /// Rows in runs of 3 and 7 equal rows, a row that differs from the one above only in its last
    /// pixel (the row after it equals the one before it), and a row back to the first one: `pixels` and every `copyRow` give the indices'
    /// colours, whole rows and parts of rows.
    @Test func rowsReadBackAsGiven() {
        let width = 37, height = 64
        var indices: [UInt8] = []
        for row in 0..<height {
            let run = row < 30 ? row / 3 : row / 7
            var pixels = (0..<width).map { UInt8(($0 * 7 + run * 13) % 199) }
            if row == 40 { pixels[width - 1] = 198 }
            indices += row == 50 ? Array(indices[0..<width]) : pixels
        }
        let tile = TileImage(width: width, height: height, indices: indices, palette: Self.palette)
        #expect(tile.isIndexed && tile.isOpaque)
        let expected = indices.flatMap { index in withUnsafeBytes(of: Self.palette[Int(index)].littleEndian) { Array($0) } }
        #expect(tile.pixels == expected)
        let floats = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        defer { floats.deallocate() }
        for row in 0..<height {
            floats.update(repeating: SIMD4(-1, -1, -1, -1), count: width)
            tile.copyRow(row, pixels: 5..<20, toFloats: floats)
            for x in 0..<width {
                let grey = Float(indices[row * width + x])
                #expect(floats[x] == ((5..<20).contains(x) ? SIMD4(grey, grey, grey, 255) : SIMD4(-1, -1, -1, -1)), "row \(row), pixel \(x)")
            }
        }
    }

    /// A tile of one colour keeps one row and a two-entry float palette: a few KB, not 69.
    @Test func aTileOfOneColourIsSmall() {
        let tile = TileImage(width: 256, height: 256, indices: [UInt8](repeating: 1, count: 256 * 256), palette: Self.palette)
        #expect(tile.byteCount < 3_000)
        #expect(tile.pixels.count == 256 * 256 * 4 && tile.segmentsEqualAbove(255) == 0xFF)
        #expect(Array(tile.pixels[(255 * 256 * 4)..<(255 * 256 * 4 + 4)]) == [1, 1, 1, 255])
    }

    /// Opacity looks at the entries up to the highest index used: a pixel on a transparent entry
    /// makes the tile not opaque, wherever its row is kept.
    @Test func aTransparentEntryInARepeatedRunMakesTheTileNotOpaque() {
        var indices = [UInt8](repeating: 3, count: 16 * 16)
        indices[9 * 16 + 4] = 210
        #expect(!TileImage(width: 16, height: 16, indices: indices, palette: Self.palette).isOpaque)
    }
}
