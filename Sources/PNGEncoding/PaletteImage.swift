import Raster

/// An exact 8-bit palette version of an opaque canvas, when it has at most 256 distinct colours.
/// A map snapshot usually does: paper, a few grid blends and the anti-aliased blends of the route
/// colour. Nothing is quantised: with more colours, there is no palette image.
struct PaletteImage {
    /// 3 bytes per palette entry.
    var paletteRGB: [UInt8]
    /// One palette index per pixel, row-major.
    var indices: [UInt8]

    /// The canvas's exact palette image, or nil past 256 colours.
    init?(_ canvas: Canvas) {
        var indices: [UInt8] = []
        guard let palette = Self.palette(of: canvas, indices: &indices) else { return nil }
        paletteRGB = palette
        self.indices = indices
    }

    /// Writes the canvas's palette indices into the first width × height entries of `indices`
    /// (grown when shorter; a worker's encoder passes the same buffer for every image, so a
    /// 2560×1920 image costs no fresh 5 MB of pages) and returns the palette, 3 bytes an entry;
    /// nil as soon as a 257th colour appears. Builds the palette with a small open-addressing
    /// table keyed by the packed colour.
    static func palette(of canvas: Canvas, indices: inout [UInt8]) -> [UInt8]? {
        let tableSize = 1024  // a power of two, 4× the most entries, so probes stay short
        var keys = [UInt32](repeating: UInt32.max, count: tableSize)
        var slots = [UInt8](repeating: 0, count: tableSize)
        var palette: [UInt8] = []
        palette.reserveCapacity(768)
        let pixelCount = canvas.width * canvas.height
        if indices.count < pixelCount { indices = [UInt8](repeating: 0, count: pixelCount) }
        var colorCount = 0
        var lastKey = UInt32.max
        var lastIndex: UInt8 = 0
        let complete = canvas.pixels.withUnsafeBytes { raw -> Bool in
            let words = raw.bindMemory(to: UInt32.self)
            return indices.withUnsafeMutableBufferPointer { output -> Bool in
                for pixel in 0..<pixelCount {
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
        return complete ? palette : nil
    }
}
