import Testing

@testable import Raster

@Suite struct LargeBufferTests {
    /// Below, at and past the two huge pages from which pages are advised; floats as the
    /// accumulator's cells, bytes as masks and canvases.
    @Test(arguments: [0, 1, 4_095, 4 << 20, (4 << 20) + 1, 5_000_000])
    func zeroedArraysHoldOnlyZeros(count: Int) {
        let bytes = LargeBuffer.zeroed(UInt8.self, count: count)
        #expect(bytes.count == count)
        #expect(bytes.allSatisfy { $0 == 0 })
        let cells = LargeBuffer.zeroed(Float.self, count: count)
        #expect(cells.count == count)
        #expect(cells.allSatisfy { $0 == 0 })
    }

    @Test func aCanvasGrownPastTwoHugePagesStartsBlank() {
        var canvas = IndexedCanvas()
        canvas.reset(width: 16, height: 16)
        canvas.indices[7] = 3
        canvas.reset(width: 2_560, height: 1_920)
        #expect(canvas.indices.count == 2_560 * 1_920)
        #expect(canvas.indices.allSatisfy { $0 == 0 })
    }
}
