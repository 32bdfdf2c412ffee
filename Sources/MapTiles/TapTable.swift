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

/// Four bytes (an RGBA pixel) as a float vector. Element by element: the generic SIMD conversion
/// initializers are not specialized here and cost 5× the whole filter.
@inline(__always)
func floats(_ pixel: UnsafeRawPointer) -> SIMD4<Float> {
    let word = pixel.loadUnaligned(as: UInt32.self)
    return SIMD4<Float>(Float(word & 0xFF), Float((word >> 8) & 0xFF), Float((word >> 16) & 0xFF), Float(word >> 24))
}
