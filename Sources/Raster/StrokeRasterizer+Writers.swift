// How `StrokeRasterizer` turns a pixel's distance into the values of the mask it draws into.

/// Turns a pixel's distance to one piece into mask values, keeping the maximum (the union).
/// `write` has no branch: which of a line's pixels are already full, inside or at the edge is
/// unpredictable (`perf`: for a band, a skip test per pixel cost more than the distance it saved).
protocol DistanceWriter {
    /// How far from a piece anything is written: the outer radius + 0.5 px.
    var reach: Double { get }
    /// Pixels whose centre is within this distance get the largest value (a fill, no distance).
    var interiorRadius: Double { get }
    /// Sets `count` values from `index` on to the largest.
    func fill(_ index: Int, count: Int)
    /// Sets `count` values `stride` apart from `index` on to the largest (down a column).
    func fill(_ index: Int, count: Int, stride: Int)
    /// Whether the value at `index` is already the largest (nothing can raise it).
    func isFull(_ index: Int) -> Bool
    /// Raises the value at mask offset `index` to the one for `distance` where that is larger.
    func write(_ index: Int, distance: Double)
}

/// Coverage in 1/255 units: (r + 0.5 − d) · 255.
struct CoverageWriter: DistanceWriter {
    /// (r + 0.5) · 255; the mask's values; `DistanceWriter`'s radii.
    let bias: Double, values: UnsafeMutablePointer<UInt8>, reach: Double, interiorRadius: Double
    /// A writer of a stroke of half width `radius` into `values`.
    init(radius: Double, values: UnsafeMutablePointer<UInt8>) {
        bias = (radius + 0.5) * 255
        self.values = values
        reach = radius + 0.5
        // Coverage rounds to 255 from r + 0.5 − d ≥ 254.5/255: d ≤ r − 0.5 is safely full.
        interiorRadius = radius - 0.5
    }
    @inline(__always) func fill(_ index: Int, count: Int) { fillBytes(values + index, count, 255) }
    @inline(__always) func fill(_ index: Int, count: Int, stride: Int) { fillStrided(values + index, count, stride, 255) }
    @inline(__always) func isFull(_ index: Int) -> Bool { values[index] == 255 }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        // Clamped to 0...255 and rounded: nothing below zero, 255 from 254.5 on.
        let value = smaller(larger(bias - distance * 255, 0), 255)
        values[index] = max(values[index], UInt8(truncatingIfNeeded: truncatedInt(value + 0.5)))
    }
}

/// Route and casing coverage from one distance.
struct RouteAndCasingWriter: DistanceWriter {
    /// The two writers; `DistanceWriter`'s radii (the casing's reach, the route's interior).
    let route: CoverageWriter, casing: CoverageWriter, reach: Double, interiorRadius: Double
    /// A writer of the route into `values` and its casing into `casingValues`.
    init(radius: Double, values: UnsafeMutablePointer<UInt8>, casingRadius: Double, casingValues: UnsafeMutablePointer<UInt8>) {
        route = CoverageWriter(radius: radius, values: values)
        casing = CoverageWriter(radius: casingRadius, values: casingValues)
        reach = max(radius, casingRadius) + 0.5
        interiorRadius = min(route.interiorRadius, casing.interiorRadius)
    }
    @inline(__always) func fill(_ index: Int, count: Int) {
        route.fill(index, count: count)
        casing.fill(index, count: count)
    }
    @inline(__always) func fill(_ index: Int, count: Int, stride: Int) {
        route.fill(index, count: count, stride: stride)
        casing.fill(index, count: count, stride: stride)
    }
    @inline(__always) func isFull(_ index: Int) -> Bool { route.isFull(index) && casing.isFull(index) }
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        route.write(index, distance: distance)
        casing.write(index, distance: distance)
    }
}

/// Ramp levels (see `StrokeRamp`); larger is closer, so the maximum is still the union.
struct RampWriter: DistanceWriter {
    /// The mask's values; `DistanceWriter`'s radii.
    let values: UnsafeMutablePointer<UInt8>, reach: Double, interiorRadius: Double
    // `StrokeRamp.level`'s terms, taken out of the pixel loop.
    private let routeBias: Double, casingBias: Double, casingLevels: Int, full: UInt8
    /// A writer of `ramp`'s levels into `values`.
    init(ramp: StrokeRamp, values: UnsafeMutablePointer<UInt8>) {
        self.values = values
        reach = ramp.outerRadiusPixels + 0.5
        // The top level needs (r + 0.5 − d)·L + 0.5 ≥ L: d ≤ r − 0.5 is safely there.
        interiorRadius = ramp.routeRadiusPixels - 0.5
        full = UInt8(ramp.maximumLevel)
        routeBias = ramp.routeRadiusPixels + 0.5
        // Without a casing its ramp starts below zero and every level of it is 0.
        casingBias = (ramp.casingRadiusPixels ?? -1) + 0.5
        casingLevels = ramp.casingRadiusPixels == nil ? 0 : StrokeRamp.levelsPerRamp
    }
    @inline(__always) func fill(_ index: Int, count: Int) { fillBytes(values + index, count, full) }
    @inline(__always) func fill(_ index: Int, count: Int, stride: Int) { fillStrided(values + index, count, stride, full) }
    @inline(__always) func isFull(_ index: Int) -> Bool { values[index] == full }
    /// `StrokeRamp.level(distance:)`, the same arithmetic, with both ramps computed and one
    /// chosen without a branch.
    @inline(__always)
    func write(_ index: Int, distance: Double) {
        let steps = Double(StrokeRamp.levelsPerRamp)
        // Distances are within the stroke's reach, so both values are small (see `truncatedInt`).
        let route = truncatedInt((routeBias - distance) * steps + 0.5), casing = truncatedInt((casingBias - distance) * steps + 0.5)
        let routeLevel = casingLevels &+ min(route, StrokeRamp.levelsPerRamp)
        let casingLevel = min(max(casing, 0), StrokeRamp.levelsPerRamp)
        let level = UInt8(truncatingIfNeeded: route >= 1 ? routeLevel : casingLevel)
        values[index] = max(values[index], level)
    }
}

/// Sets `count` bytes from `start` to `value`. A row's fill is a few bytes (a band of a dense
/// route is a few pixels long), and LLVM turns a byte loop into a call to `memset` (`callgrind`:
/// 64,000 calls a 2560×1920 image, each with its size dispatch): words instead, the last one
/// overlapping the one before where the count is not a multiple of their size.
@inline(__always)
func fillBytes(_ start: UnsafeMutablePointer<UInt8>, _ count: Int, _ value: UInt8) {
    let raw = UnsafeMutableRawPointer(start)
    if count >= 8 {
        let word = UInt64(value) &* 0x0101_0101_0101_0101
        var offset = 0
        while offset &+ 8 < count {
            raw.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        raw.storeBytes(of: word, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 {
        let word = UInt32(value) &* 0x0101_0101
        raw.storeBytes(of: word, as: UInt32.self)
        raw.storeBytes(of: word, toByteOffset: count &- 4, as: UInt32.self)
    } else if count > 0 {
        start[0] = value
        start[count &- 1] = value
        start[count >> 1] = value
    }
}

/// Sets `count` bytes `stride` apart from `start` on to `value`.
@inline(__always)
func fillStrided(_ start: UnsafeMutablePointer<UInt8>, _ count: Int, _ stride: Int, _ value: UInt8) {
    var pointer = start
    for _ in 0..<max(count, 0) {
        pointer.pointee = value
        pointer += stride
    }
}
