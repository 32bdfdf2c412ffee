import Raster

/// Reduces an opaque RGBA canvas with more than 256 colours (a raster basemap resampled to the
/// image) to an 8-bit palette image: median cut over a 6-bit-per-channel histogram, each box's
/// colour the mean of its pixels, each pixel the colour of its histogram cell's box. No dithering:
/// a map's flat areas stay flat (a dithered pattern would also compress worse).
///
/// Why: a 2560×1920 map image as RGB costs ~1 MB and ~25 ms in zlib; as a palette image through
/// `RowDeflater` a quarter of the bytes and a few milliseconds. What it costs in colour is stated
/// and tested (`RasterPaletteQualityTests`, ARCHITECTURE.md "Image quality of the palette
/// images"): a map's flat colours fill cells of their own and come out exact or within a level;
/// the error sits on anti-aliased edges and in gradients.
///
/// Keeps its buffers (a 1 MiB histogram, the boxes) for the next image: one per thread.
public struct PaletteQuantizer: Sendable {
    /// Most palette entries. Default: 256.
    public var maximumColors = 256

    /// Per histogram cell (6 bits a channel, 2^18 cells): pixel count and channel sums.
    private var counts: [UInt32] = []
    private var sums: [UInt64] = []
    /// Per cell: the sum over its pixels of the squared channels (for a box's spread).
    private var squares: [UInt64] = []
    /// The cells with pixels, then, per cell, its box's palette index.
    private var used: [Int32] = []
    private var cellIndex: [UInt8] = []

    private static let cellBits = 6
    private static let cellCount = 1 << (3 * cellBits)

    /// A quantizer with empty buffers.
    public init() {}

    /// One palette index per pixel (row-major) and the palette (3 bytes an entry). The canvas must
    /// be opaque.
    public mutating func quantize(_ canvas: Canvas) -> (indices: [UInt8], paletteRGB: [UInt8]) {
        var indices: [UInt8] = []
        let palette = quantize(canvas, indices: &indices)
        return (indices, palette)
    }

    /// Writes one palette index per pixel into the first width × height entries of `indices`
    /// (grown when shorter: an encoder passes the same buffer for every image) and returns the
    /// palette (3 bytes an entry). The canvas must be opaque.
    public mutating func quantize(_ canvas: Canvas, indices: inout [UInt8]) -> [UInt8] {
        if counts.isEmpty {
            counts = [UInt32](repeating: 0, count: Self.cellCount)
            sums = [UInt64](repeating: 0, count: Self.cellCount * 3)
            squares = [UInt64](repeating: 0, count: Self.cellCount)
            cellIndex = [UInt8](repeating: 0, count: Self.cellCount)
        }
        let pixelCount = canvas.width * canvas.height
        histogram(canvas)
        var boxes = [Box(start: 0, end: used.count)]
        boxes[0].measure(used, counts, sums, squares)
        split(&boxes)
        var palette: [UInt8] = []
        palette.reserveCapacity(boxes.count * 3)
        for box in boxes { palette += box.meanRGB }
        for (index, box) in boxes.enumerated() {
            for position in box.start..<box.end {
                let cell = Int(used[position])
                cellIndex[cell] = UInt8(index)
                // A cell far from its box's colour (a rare colour in a box of common ones: an
                // anti-aliased edge of the route) takes the nearest palette colour instead; few
                // cells are, so the search over the palette stays cheap.
                // Scalars, not arrays: a map image has thousands of cells, and two small arrays
                // each were a fifth of the quantizer's time.
                let count = UInt64(counts[cell])
                let red = Int((sums[cell * 3] + count / 2) / count), green = Int((sums[cell * 3 + 1] + count / 2) / count)
                let blue = Int((sums[cell * 3 + 2] + count / 2) / count)
                let distance = max(abs(red - Int(box.meanRGB[0])), abs(green - Int(box.meanRGB[1])), abs(blue - Int(box.meanRGB[2])))
                if distance > 6 { cellIndex[cell] = Self.nearest(red, green, blue, in: palette) }
            }
        }
        if indices.count < pixelCount { indices = [UInt8](repeating: 0, count: pixelCount) }
        indices.withUnsafeMutableBufferPointer { output in
            canvas.pixels.withUnsafeBytes { raw in
                let words = raw.bindMemory(to: UInt32.self)
                // A pixel equal to the one before (most of a map) reuses its index.
                var previous = ~words[0], index: UInt8 = 0
                for pixel in 0..<pixelCount {
                    let word = words[pixel]
                    if word != previous {
                        let value = UInt32(littleEndian: word), cell = Self.cell(value)
                        // A cell only the rows the histogram skipped have: the palette colour
                        // nearest this pixel, kept for the cell's other pixels.
                        if counts[cell] == 0 {
                            counts[cell] = 1
                            used.append(Int32(cell))
                            cellIndex[cell] = Self.nearest(Int(value & 0xFF), Int((value >> 8) & 0xFF), Int((value >> 16) & 0xFF), in: palette)
                        }
                        index = cellIndex[cell]
                        previous = word
                    }
                    output[pixel] = index
                }
            }
        }
        // Clear only the cells this image touched, for the next image.
        for cell in used {
            counts[Int(cell)] = 0
            sums[Int(cell) * 3] = 0
            sums[Int(cell) * 3 + 1] = 0
            sums[Int(cell) * 3 + 2] = 0
            squares[Int(cell)] = 0
        }
        return palette
    }

    /// The index of the palette colour nearest (`red`, `green`, `blue`) (squared distance; the
    /// first of equals). Scalars and a raw pointer: with an array argument every call allocated,
    /// and a raster map image makes thousands of calls (`perf`: 1.2–1.6% of a raster run). Not
    /// inlined: inside the index pass's loop it slowed the loop more than the call costs.
    @inline(never)
    private static func nearest(_ red: Int, _ green: Int, _ blue: Int, in palette: [UInt8]) -> UInt8 {
        palette.withUnsafeBufferPointer { palette in
            var best = 0, bestDistance = Int.max
            for entry in 0..<(palette.count / 3) {
                let r = red &- Int(palette[entry &* 3]), g = green &- Int(palette[entry &* 3 &+ 1]), b = blue &- Int(palette[entry &* 3 &+ 2])
                let distance = r &* r &+ g &* g &+ b &* b
                if distance < bestDistance { (best, bestDistance) = (entry, distance) }
            }
            return UInt8(truncatingIfNeeded: best)
        }
    }

    /// The histogram cell of a little-endian RGBA word: the top 6 bits of red, green, blue.
    @inline(__always)
    private static func cell(_ word: UInt32) -> Int {
        Int((word >> 2) & 0x3F) << 12 | Int((word >> 10) & 0x3F) << 6 | Int((word >> 18) & 0x3F)
    }

    /// The histogram counts every `histogramRowStep`-th row of an image of at least
    /// `sampledPixelsMinimum` pixels: the palette is chosen from half the rows. Why: the histogram
    /// was half the quantizer's time (`perf`, a raster run: 7.5% of it); a map's colours
    /// continue from row to row, so the rows between add few colours, and a cell that only they
    /// have takes the palette colour nearest its first pixel (measured on the raster bench's 96
    /// images against the full histogram: see docs/performance.md).
    static let histogramRowStep = 2
    /// Below this many pixels every row is counted (a small image's rare colours matter more).
    static let sampledPixelsMinimum = 256 * 256

    /// Counts the pixels of each cell (of every `histogramRowStep`-th row) and sums their
    /// channels; lists the cells with pixels.
    private mutating func histogram(_ canvas: Canvas) {
        used.removeAll(keepingCapacity: true)
        let width = canvas.width
        let step = width * canvas.height >= Self.sampledPixelsMinimum ? Self.histogramRowStep : 1
        canvas.pixels.withUnsafeBytes { raw in
            counts.withUnsafeMutableBufferPointer { counts in
                squares.withUnsafeMutableBufferPointer { squares in
                    sums.withUnsafeMutableBufferPointer { sums in
                        let words = raw.bindMemory(to: UInt32.self)
                        for row in stride(from: 0, to: canvas.height, by: step) {
                            Self.count(words, from: row * width, to: row * width + width, &used, counts, sums, squares)
                        }
                    }
                }
            }
        }
    }

    /// Adds pixels `start..<end` to the histogram; a cell's first pixel lists it in `used`.
    @inline(__always)
    private static func count(
        _ words: UnsafeBufferPointer<UInt32>, from start: Int, to pixelEnd: Int, _ used: inout [Int32], _ counts: UnsafeMutableBufferPointer<UInt32>,
        _ sums: UnsafeMutableBufferPointer<UInt64>, _ squares: UnsafeMutableBufferPointer<UInt64>
    ) {
        var pixel = start
        while pixel < pixelEnd {
            // Runs of one colour (most of a map) are counted once.
            let word = words[pixel]
            var end = pixel + 1
            while end < pixelEnd && words[end] == word { end += 1 }
            let run = end - pixel
            let value = UInt32(littleEndian: word), cell = cell(value)
            if counts[cell] == 0 { used.append(Int32(cell)) }
            counts[cell] += UInt32(run)
            sums[cell * 3] += UInt64(value & 0xFF) * UInt64(run)
            sums[cell * 3 + 1] += UInt64((value >> 8) & 0xFF) * UInt64(run)
            sums[cell * 3 + 2] += UInt64((value >> 16) & 0xFF) * UInt64(run)
            let red = UInt64(value & 0xFF), green = UInt64((value >> 8) & 0xFF), blue = UInt64((value >> 16) & 0xFF)
            squares[cell] += (red * red + green * green + blue * blue) * UInt64(run)
            pixel = end
        }
    }

    /// Splits boxes until there are `maximumColors` or none can be split: each time the box whose
    /// pixels spread most (the sum of their squared distances to its mean colour), at the pixel
    /// median of its widest channel.
    private mutating func split(_ boxes: inout [Box]) {
        while boxes.count < maximumColors {
            var best = -1
            var bestScore = 0.0
            for (index, box) in boxes.enumerated() where box.end - box.start > 1 && box.score > bestScore {
                best = index
                bestScore = box.score
            }
            guard best >= 0 else { return }
            let box = boxes[best]
            let channel = box.widestChannel
            let shift = [12, 6, 0][channel]
            used[box.start..<box.end].sort { ($0 >> Int32(shift)) & 0x3F < ($1 >> Int32(shift)) & 0x3F }
            // The first cell past half the box's pixels starts the second box (never empty: the
            // cells differ along the widest channel).
            var seen: UInt64 = 0
            var cut = box.start + 1
            for position in box.start..<(box.end - 1) {
                seen += UInt64(counts[Int(used[position])])
                cut = position + 1
                if seen * 2 >= box.pixels { break }
            }
            var low = Box(start: box.start, end: cut), high = Box(start: cut, end: box.end)
            low.measure(used, counts, sums, squares)
            high.measure(used, counts, sums, squares)
            boxes[best] = low
            boxes.append(high)
        }
    }
}

/// A run of histogram cells (positions `start..<end` of the used-cell list) that becomes one
/// palette entry.
private struct Box {
    var start: Int, end: Int
    var pixels: UInt64 = 0
    var meanRGB: [UInt8] = [0, 0, 0]
    var widestChannel = 0
    var score = 0.0

    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Pixel count, mean colour, widest channel (in cells) and split score (squared distances of
    /// the pixels to the mean).
    mutating func measure(_ used: [Int32], _ counts: [UInt32], _ sums: [UInt64], _ squares: [UInt64]) {
        var total: UInt64 = 0, squareSum: UInt64 = 0
        var channelSums: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var low = (Int32(63), Int32(63), Int32(63)), high = (Int32(0), Int32(0), Int32(0))
        for position in start..<end {
            let cell = used[position], index = Int(cell)
            total += UInt64(counts[index])
            squareSum += squares[index]
            channelSums.0 += sums[index * 3]
            channelSums.1 += sums[index * 3 + 1]
            channelSums.2 += sums[index * 3 + 2]
            let red = cell >> 12, green = (cell >> 6) & 0x3F, blue = cell & 0x3F
            low = (min(low.0, red), min(low.1, green), min(low.2, blue))
            high = (max(high.0, red), max(high.1, green), max(high.2, blue))
        }
        pixels = total
        let half = total / 2
        meanRGB = [
            UInt8((channelSums.0 + half) / max(1, total)), UInt8((channelSums.1 + half) / max(1, total)),
            UInt8((channelSums.2 + half) / max(1, total)),
        ]
        let ranges = [high.0 - low.0, high.1 - low.1, high.2 - low.2]
        widestChannel = ranges[1] > ranges[0] ? (ranges[2] > ranges[1] ? 2 : 1) : (ranges[2] > ranges[0] ? 2 : 0)
        let count = Double(max(1, total))
        let meanSquare = [channelSums.0, channelSums.1, channelSums.2].reduce(0.0) { $0 + Double($1) * Double($1) } / count
        score = ranges[widestChannel] == 0 ? 0 : Double(squareSum) - meanSquare
    }
}
