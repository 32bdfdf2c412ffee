/// The taps of every image pixel along one axis, padded to the same count per pixel (extra taps
/// weigh 0 and repeat the first source) so the filter's inner loop has no branches.
struct TapTable {
    /// Taps per pixel.
    let mostTaps: Int
    /// `count · mostTaps` source indices (absolute source pixel coordinates, unwrapped).
    let sources: [Int]
    /// `count · mostTaps` weights.
    let weights: [Float]
    /// The lowest and highest source index any tap with a weight uses.
    let lowestSource: Int, highestSource: Int

    init(count: Int, plan: TilePlan, origin: Double) {
        let all = (0..<count).map { plan.taps(forPixel: $0, origin: origin) }
        let most = all.map(\.count).max() ?? 1
        var sources = [Int](repeating: 0, count: count * most)
        var weights = [Float](repeating: 0, count: count * most)
        var lowest = Int.max, highest = Int.min
        for (pixel, taps) in all.enumerated() {
            for (index, tap) in taps.enumerated() {
                sources[pixel * most + index] = tap.source
                weights[pixel * most + index] = Float(tap.weight)
                lowest = min(lowest, tap.source)
                highest = max(highest, tap.source)
            }
            for index in taps.count..<most { sources[pixel * most + index] = taps.first?.source ?? 0 }
        }
        mostTaps = most
        self.sources = sources
        self.weights = weights
        lowestSource = lowest
        highestSource = highest
    }

    /// The taps of one pixel with a weight.
    func taps(of pixel: Int) -> [(source: Int, weight: Float)] {
        (0..<mostTaps).compactMap { index in
            let weight = weights[pixel * mostTaps + index]
            return weight > 0 ? (sources[pixel * mostTaps + index], weight) : nil
        }
    }
}

/// Source rows filtered horizontally to the image's width, kept in a small ring while image
/// rows still need them (rows are visited top to bottom, so each is filtered once). One flat
/// buffer for the ring, allocated once per image.
struct RowFilter {
    private let width: Int
    private let tapCount: Int
    /// Per image column and tap: the index into the assembled row (pixels).
    private let assembledIndex: [Int32]
    private let weights: [Float]
    private var assembled: [UInt8]
    /// `slots · width · 4` premultiplied RGBA floats, 0...255.
    private(set) var rows: [Float]
    private var slotSource: [Int]
    private var slotPresent: [Bool]
    private var next = 0

    /// `firstColumn` is the source x of the assembled row's first pixel.
    init(width: Int, columns: TapTable, rowTapsMost: Int, assembledPixels: Int, firstColumn: Int) {
        self.width = width
        tapCount = columns.mostTaps
        assembledIndex = columns.sources.map { Int32($0 - firstColumn) }
        weights = columns.weights
        assembled = [UInt8](repeating: 0, count: assembledPixels * 4)
        let slots = rowTapsMost + 1
        rows = [Float](repeating: 0, count: slots * width * 4)
        slotSource = Array(repeating: Int.min, count: slots)
        slotPresent = Array(repeating: false, count: slots)
    }

    /// The ring slot holding source row `source` filtered to the image's width, or nil when the
    /// row has no tile at all. `fill` assembles the row's tiles and says whether any exists.
    mutating func filteredRow(_ source: Int, fill: (inout [UInt8]) -> Bool) -> Int? {
        if let slot = slotSource.firstIndex(of: source) { return slotPresent[slot] ? slot : nil }
        let slot = next
        next = (next + 1) % slotSource.count
        slotSource[slot] = source
        slotPresent[slot] = fill(&assembled)
        guard slotPresent[slot] else { return nil }
        let taps = tapCount, width = width
        assembled.withUnsafeBufferPointer { pixels in
            assembledIndex.withUnsafeBufferPointer { indices in
                weights.withUnsafeBufferPointer { weights in
                    rows.withUnsafeMutableBufferPointer { rows in
                        let out = rows.baseAddress! + slot * width * 4
                        for column in 0..<width {
                            var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                            for tap in 0..<taps {
                                let weight = weights[column * taps + tap]
                                let pixel = pixels.baseAddress! + Int(indices[column * taps + tap]) * 4
                                red += weight * Float(pixel[0])
                                green += weight * Float(pixel[1])
                                blue += weight * Float(pixel[2])
                                alpha += weight * Float(pixel[3])
                            }
                            out[column * 4] = red
                            out[column * 4 + 1] = green
                            out[column * 4 + 2] = blue
                            out[column * 4 + 3] = alpha
                        }
                    }
                }
            }
        }
        return slot
    }
}
