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
    /// The source row's pixels as float vectors, converted once per source pixel rather than
    /// once per tap.
    private var assembled: [SIMD4<Float>]
    /// `slots · width` premultiplied RGBA pixels as float vectors, 0...255.
    private(set) var rows: [SIMD4<Float>]
    private var slotSource: [Int]
    private var slotCover: [RowCover]
    private var next = 0

    /// `firstColumn` is the source x of the assembled row's first pixel.
    init(width: Int, columns: TapTable, rowTapsMost: Int, assembledPixels: Int, firstColumn: Int) {
        self.width = width
        tapCount = columns.mostTaps
        assembledIndex = columns.sources.map { Int32($0 - firstColumn) }
        weights = columns.weights
        assembled = [SIMD4<Float>](repeating: .zero, count: assembledPixels)
        let slots = rowTapsMost + 1
        rows = [SIMD4<Float>](repeating: .zero, count: slots * width)
        slotSource = Array(repeating: Int.min, count: slots)
        slotCover = Array(repeating: .none, count: slots)
    }

    /// The ring slot holding source row `source` filtered to the image's width and what its
    /// tiles cover, or nil when the row has no tile at all. `fill` assembles the row's tiles and
    /// says what they cover.
    mutating func filteredRow(_ source: Int, fill: (inout [SIMD4<Float>]) -> RowCover) -> (slot: Int, opaque: Bool)? {
        if let slot = slotSource.firstIndex(of: source) { return slotCover[slot] == .none ? nil : (slot, slotCover[slot] == .opaque) }
        let slot = next
        next = (next + 1) % slotSource.count
        slotSource[slot] = source
        slotCover[slot] = fill(&assembled)
        guard slotCover[slot] != .none else { return nil }
        let taps = tapCount, width = width
        assembled.withUnsafeBufferPointer { pixels in
            assembledIndex.withUnsafeBufferPointer { indices in
                weights.withUnsafeBufferPointer { weights in
                    rows.withUnsafeMutableBufferPointer { rows in
                        // One float vector a pixel: the four channels in one multiply-add per tap
                        // (a third of the time of four scalar channels).
                        let out = rows.baseAddress! + slot * width
                        let source = pixels.baseAddress!, index = indices.baseAddress!, weight = weights.baseAddress!
                        // Two and three taps (enlarging; shrinking by up to √2) unrolled, with
                        // wrapping index arithmetic: the general loop's overflow checks and loop
                        // control cost more than the multiply-adds.
                        switch taps {
                        case 2:
                            for column in 0..<width {
                                let at = column &* 2
                                out[column] = weight[at] * source[Int(index[at])] + weight[at &+ 1] * source[Int(index[at &+ 1])]
                            }
                        case 3:
                            for column in 0..<width {
                                let at = column &* 3
                                var sum = weight[at] * source[Int(index[at])]
                                sum += weight[at &+ 1] * source[Int(index[at &+ 1])]
                                sum += weight[at &+ 2] * source[Int(index[at &+ 2])]
                                out[column] = sum
                            }
                        default:
                            for column in 0..<width {
                                var sum = SIMD4<Float>.zero
                                for tap in 0..<taps { sum += weight[column &* taps &+ tap] * source[Int(index[column &* taps &+ tap])] }
                                out[column] = sum
                            }
                        }
                    }
                }
            }
        }
        return (slot, slotCover[slot] == .opaque)
    }
}

/// What the tiles of one assembled source row cover.
enum RowCover {
    /// No tile: nothing to draw.
    case none
    /// Some tiles, or tiles with transparent pixels.
    case some
    /// Every tile present and opaque: every pixel of the filtered row is.
    case opaque
}

/// Four bytes (an RGBA pixel) as a float vector. Element by element: the generic SIMD conversion
/// initializers are not specialized here and cost 5× the whole filter.
@inline(__always)
func floats(_ pixel: UnsafeRawPointer) -> SIMD4<Float> {
    let word = pixel.loadUnaligned(as: UInt32.self)
    return SIMD4<Float>(Float(word & 0xFF), Float((word >> 8) & 0xFF), Float((word >> 16) & 0xFF), Float(word >> 24))
}
