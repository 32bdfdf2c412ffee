/// The RGBA target: exact blending in integers, `out = (background · (255² − w) + colour · w + 255²/2) / 255²`
/// with `w = α · c` (colour opacity times coverage, both 0...255), so a full-coverage opaque
/// colour replaces the pixel exactly.
extension Canvas: Blitter {
    /// Routes come as two exact masks.
    public static var strokeCoverage: StrokeCoverage { .separateMasks }

    /// Never: every colour fits in RGBA.
    public var ranOutOfColors: Bool { false }

    /// The colours as R, G, B, A bytes.
    public func solidRow(_ colors: [RGBAColor]) -> [UInt8] {
        precondition(colors.count == width, "a row is \(width) colours")
        var row = [UInt8](repeating: 0, count: width * 4)
        for (x, color) in colors.enumerated() {
            row[x * 4] = color.red
            row[x * 4 + 1] = color.green
            row[x * 4 + 2] = color.blue
            row[x * 4 + 3] = color.alpha
        }
        return row
    }

    /// Copies the row's bytes.
    public mutating func copy(_ row: [UInt8], toRow y: Int) {
        let start = y * rowStride, count = rowStride
        pixels.withUnsafeMutableBufferPointer { pixels in
            row.withUnsafeBufferPointer { source in (pixels.baseAddress! + start).update(from: source.baseAddress!, count: count) }
        }
    }

    /// Blends `color` over the canvas where `mask` covers it.
    public mutating func blend(_ mask: CoverageMask, color: RGBAColor) {
        let originX = mask.originX, originY = mask.originY
        precondition(originX >= 0 && originY >= 0 && originX + mask.width <= width && originY + mask.height <= height, "mask outside the canvas")
        guard !mask.isEmpty, color.alpha > 0 else { return }
        let maskWidth = mask.width, canvasWidth = width, alpha = UInt32(color.alpha)
        mask.values.withUnsafeBufferPointer { coverage in
            pixels.withUnsafeMutableBufferPointer { pixels in
                mask.forEachCoveredRun { row, first, last in
                    var column = first
                    while column <= last {
                        // Most of a route's bounding box is uncovered: skip 8 empty pixels at a time.
                        if column + 8 <= last + 1,
                            UnsafeRawPointer(coverage.baseAddress! + row * maskWidth + column).loadUnaligned(as: UInt64.self) == 0
                        {
                            column += 8
                            continue
                        }
                        let c = UInt32(coverage[row * maskWidth + column])
                        defer { column += 1 }
                        if c == 0 { continue }
                        Canvas.blendPixel(pixels.baseAddress!, ((row + originY) * canvasWidth + column + originX) * 4, color, weight: alpha * c)
                    }
                }
            }
        }
    }

    /// Resolves into `scratch`, blends, and clears it.
    public mutating func blend(resolving accumulator: inout AreaAccumulator, scratch: inout CoverageMask, color: RGBAColor) {
        accumulator.resolve(into: &scratch)
        defer { scratch.clear() }
        if !scratch.isEmpty { blend(scratch, color: color) }
    }

    /// Blends the casing and then the route at each level's coverages, rounded to 1/255. The
    /// renderer gives an RGBA canvas exact masks instead (`strokeCoverage`); this keeps every
    /// target able to take either form.
    public mutating func blendStroke(levels: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor, casingColor: RGBAColor) {
        precondition(levels.originX == 0 && levels.originY == 0 && levels.width == width && levels.height == height, "the mask must cover the canvas")
        guard !levels.isEmpty else { return }
        let offsets = (levels.minY * width)..<((levels.maxY + 1) * width)
        pixels.withUnsafeMutableBufferPointer { pixels in
            for offset in offsets where levels.values[offset] != 0 {
                let (casing, route) = ramp.coverages(level: Int(levels.values[offset]))
                levels.values[offset] = 0
                for (coverage, color) in [(casing, casingColor), (route, routeColor)] where coverage > 0 {
                    Canvas.blendPixel(pixels.baseAddress!, offset * 4, color, weight: UInt32(color.alpha) * UInt32((coverage * 255).rounded()))
                }
            }
        }
        levels.markCleared()
    }

    /// Runs `draw` on this canvas.
    public mutating func drawRGBA(_ draw: (inout Canvas) -> Void) { draw(&self) }

    /// One pixel of `blend`: `weight` = opacity · coverage in 0...65025 (255 · 255); +32512 rounds
    /// the division. Straight alpha over an opaque or translucent destination.
    @inline(__always)
    private static func blendPixel(_ pixels: UnsafeMutablePointer<UInt8>, _ index: Int, _ color: RGBAColor, weight: UInt32) {
        let keep = 65_025 - weight
        pixels[index] = UInt8((UInt32(pixels[index]) * keep + UInt32(color.red) * weight + 32_512) / 65_025)
        pixels[index + 1] = UInt8((UInt32(pixels[index + 1]) * keep + UInt32(color.green) * weight + 32_512) / 65_025)
        pixels[index + 2] = UInt8((UInt32(pixels[index + 2]) * keep + UInt32(color.blue) * weight + 32_512) / 65_025)
        pixels[index + 3] = UInt8((UInt32(pixels[index + 3]) * keep + 255 * weight + 32_512) / 65_025)
    }
}
