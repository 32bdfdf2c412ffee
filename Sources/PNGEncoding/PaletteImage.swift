import Raster

/// An exact 8-bit palette version of an opaque canvas, when it has at most 256 distinct colours.
/// A map snapshot usually does: paper, a few grid blends and the anti-aliased blends of the route
/// colour. Nothing is quantised: with more colours, there is no palette image.
struct PaletteImage {
    /// 3 bytes per palette entry.
    var paletteRGB: [UInt8]
    /// One palette index per pixel, row-major.
    var indices: [UInt8]

    /// Builds the palette with a small open-addressing table keyed by the packed colour; gives up
    /// as soon as a 257th colour appears.
    init?(_ canvas: Canvas) {
        let tableSize = 1024  // a power of two, 4× the most entries, so probes stay short
        var keys = [UInt32](repeating: UInt32.max, count: tableSize)
        var slots = [UInt8](repeating: 0, count: tableSize)
        var palette: [UInt8] = []
        palette.reserveCapacity(768)
        var indices = [UInt8](repeating: 0, count: canvas.width * canvas.height)
        var colorCount = 0
        var lastKey = UInt32.max
        var lastIndex: UInt8 = 0
        let complete = canvas.pixels.withUnsafeBytes { raw -> Bool in
            let words = raw.bindMemory(to: UInt32.self)
            return indices.withUnsafeMutableBufferPointer { output -> Bool in
                for pixel in 0..<words.count {
                    let key = UInt32(littleEndian: words[pixel]) & 0x00FF_FFFF
                    if key == lastKey {
                        output[pixel] = lastIndex
                        continue
                    }
                    var slot = Int((key &* 0x9E37_79B1) >> 22) & (tableSize - 1)
                    while keys[slot] != key && keys[slot] != UInt32.max { slot = (slot + 1) & (tableSize - 1) }
                    if keys[slot] == UInt32.max {
                        if colorCount == 256 { return false }
                        keys[slot] = key
                        slots[slot] = UInt8(colorCount)
                        palette.append(UInt8(key & 0xFF))
                        palette.append(UInt8((key >> 8) & 0xFF))
                        palette.append(UInt8((key >> 16) & 0xFF))
                        colorCount += 1
                    }
                    lastKey = key
                    lastIndex = slots[slot]
                    output[pixel] = lastIndex
                }
                return true
            }
        }
        guard complete else { return nil }
        paletteRGB = palette
        self.indices = indices
    }
}
