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
        let maskWidth = mask.width, canvasWidth = width
        // Per coverage level, the pixel's weight and the colour's rounded share: computed once,
        // not for every pixel (`perf`, a raster run: the route's two masks over an RGBA map were
        // 6% of it, mostly that arithmetic and its overflow checks).
        let terms = Self.blendTerms(color)
        // An opaque colour at full coverage replaces the pixel (the terms give the colour
        // exactly: keep = 0, and each share rounds to its channel): stored as a word, not
        // computed per channel. A route's and its casing's masks are mostly full inside.
        let opaque = color.alpha == 255
        let solid = (UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24).littleEndian
        mask.values.withUnsafeBufferPointer { coverage in
            pixels.withUnsafeMutableBufferPointer { pixels in
                terms.withUnsafeBufferPointer { terms in
                    mask.forEachCoveredRun { row, first, last in
                        let coverageRow = coverage.baseAddress! + row &* maskWidth
                        let pixelRow = pixels.baseAddress! + ((row &+ originY) &* canvasWidth &+ originX) &* 4
                        var column = first
                        while column <= last {
                            if column &+ 8 <= last &+ 1 {
                                // Most of a route's bounding box is uncovered: skip 8 empty pixels
                                // at a time; 8 full ones of an opaque colour are 8 words.
                                let eight = UnsafeRawPointer(coverageRow + column).loadUnaligned(as: UInt64.self)
                                if eight == 0 {
                                    column &+= 8
                                    continue
                                }
                                if opaque && eight == UInt64.max {
                                    let target = UnsafeMutableRawPointer(pixelRow + column &* 4)
                                    for pixel in 0..<8 { target.storeBytes(of: solid, toByteOffset: pixel &* 4, as: UInt32.self) }
                                    column &+= 8
                                    continue
                                }
                            }
                            let c = Int(coverageRow[column])
                            if c == 255 && opaque {
                                UnsafeMutableRawPointer(pixelRow + column &* 4).storeBytes(of: solid, as: UInt32.self)
                            } else if c != 0 {
                                Canvas.blendPixel(pixelRow + column &* 4, terms.baseAddress! + c &* 5)
                            }
                            column &+= 1
                        }
                    }
                }
            }
        }
    }

    /// For each coverage 0...255 five terms of `blendPixel`: 255² − w, then red, green, blue and
    /// 255 times w plus 255²/2 (w = α · coverage).
    private static func blendTerms(_ color: RGBAColor) -> [UInt32] {
        var terms = [UInt32](repeating: 0, count: 256 * 5)
        for coverage in 0..<256 {
            let weight = UInt32(color.alpha) * UInt32(coverage)
            terms[coverage * 5] = 65_025 - weight
            terms[coverage * 5 + 1] = UInt32(color.red) * weight + 32_512
            terms[coverage * 5 + 2] = UInt32(color.green) * weight + 32_512
            terms[coverage * 5 + 3] = UInt32(color.blue) * weight + 32_512
            terms[coverage * 5 + 4] = 255 * weight + 32_512
        }
        return terms
    }

    /// `blendPixel` with the terms of one coverage (`blendTerms`); wrapping arithmetic: every
    /// sum stays below 2 · 255 · 65025.
    @inline(__always)
    private static func blendPixel(_ pixel: UnsafeMutablePointer<UInt8>, _ terms: UnsafePointer<UInt32>) {
        let keep = terms[0]
        pixel[0] = UInt8(truncatingIfNeeded: (UInt32(pixel[0]) &* keep &+ terms[1]) / 65_025)
        pixel[1] = UInt8(truncatingIfNeeded: (UInt32(pixel[1]) &* keep &+ terms[2]) / 65_025)
        pixel[2] = UInt8(truncatingIfNeeded: (UInt32(pixel[2]) &* keep &+ terms[3]) / 65_025)
        pixel[3] = UInt8(truncatingIfNeeded: (UInt32(pixel[3]) &* keep &+ terms[4]) / 65_025)
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
