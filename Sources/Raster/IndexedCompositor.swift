/// Draws strokes into an `IndexedCanvas`: each touched pixel's new colour depends only on its old
/// palette index and its ramp level, so each (index, level) pair is blended once and remembered.
public enum IndexedCompositor {
    /// Draws the route (and casing) whose ramp levels `mask` holds, blending each colour once:
    /// the casing over the background, the route over that, like `Compositor.fill` twice. The
    /// mask is cleared as it is read, ready for the next image. Returns false when the palette is
    /// full (the canvas is then partly drawn; draw the image in RGBA instead).
    public static func drawStroke(
        _ canvas: inout IndexedCanvas, mask: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor, casingColor: RGBAColor
    ) -> Bool {
        precondition(
            mask.originX == 0 && mask.originY == 0 && mask.width == canvas.width && mask.height == canvas.height, "the mask must cover the canvas")
        guard !mask.isEmpty else { return true }
        let levels = ramp.maximumLevel + 1
        // Palette index + 1 for (old index, level); 0 until first blended.
        var blended = [UInt16](repeating: 0, count: 256 * levels)
        var full = false
        let width = mask.width, minX = mask.minX, maxX = mask.maxX, minY = mask.minY, maxY = mask.maxY
        mask.values.withUnsafeMutableBufferPointer { levelsBuffer in
            let values = levelsBuffer.baseAddress!
            canvas.indices.withUnsafeMutableBufferPointer { indexBuffer in
                let indices = indexBuffer.baseAddress!
                rows: for row in minY...maxY {
                    var column = minX
                    while column <= maxX {
                        let offset = row * width + column
                        // Most of the route's bounding box is untouched: skip 32 pixels at a time,
                        // then 8.
                        let raw = UnsafeRawPointer(values + offset)
                        if column + 32 <= maxX + 1,
                            raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                                | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == 0
                        {
                            column += 32
                            continue
                        }
                        if column + 8 <= maxX + 1, raw.loadUnaligned(as: UInt64.self) == 0 {
                            column += 8
                            continue
                        }
                        column += 1
                        let level = Int(values[offset])
                        if level == 0 { continue }
                        values[offset] = 0
                        let key = Int(indices[offset]) * levels + level
                        var entry = blended[key]
                        if entry == 0 {
                            let (casing, route) = ramp.coverages(level: level)
                            var color = canvas.palette[Int(indices[offset])]
                            color = blend(color, casingColor, casing)
                            color = blend(color, routeColor, route)
                            guard let index = canvas.palette.index(of: color) else {
                                full = true
                                break rows
                            }
                            entry = UInt16(index) + 1
                            blended[key] = entry
                        }
                        indices[offset] = UInt8(entry - 1)
                    }
                }
            }
        }
        if full { mask.clear() } else { mask.markCleared() }
        return !full
    }

    /// Blends `color` over the canvas where `mask` (placed at its origin, inside the canvas)
    /// covers it, like `Compositor.fill`, with coverage quantized to 1/32 (`StrokeRamp`'s steps).
    /// For small shapes: the markers' discs and the scale bar. Returns false when the palette is full.
    public static func fill(_ canvas: inout IndexedCanvas, mask: CoverageMask, color: RGBAColor) -> Bool {
        guard !mask.isEmpty else { return true }
        let steps = StrokeRamp.levelsPerRamp
        var blended = [UInt16](repeating: 0, count: 256 * (steps + 1))
        for row in mask.minY...mask.maxY {
            for column in mask.minX...mask.maxX {
                let level = (Int(mask.values[row * mask.width + column]) * steps + 127) / 255
                if level == 0 { continue }
                let offset = (row + mask.originY) * canvas.width + column + mask.originX
                let key = Int(canvas.indices[offset]) * (steps + 1) + level
                if blended[key] == 0 {
                    let result = blend(canvas.palette[Int(canvas.indices[offset])], color, Double(level) / Double(steps))
                    guard let index = canvas.palette.index(of: result) else { return false }
                    blended[key] = UInt16(index) + 1
                }
                canvas.indices[offset] = UInt8(blended[key] - 1)
            }
        }
        return true
    }

    /// `base · (1 − α·c) + color · α·c`, rounded, as `Compositor.fill` computes it.
    static func blend(_ base: RGBAColor, _ color: RGBAColor, _ coverage: Double) -> RGBAColor {
        guard coverage > 0, color.alpha > 0 else { return base }
        let weight = Double(color.alpha) / 255 * coverage
        func channel(_ below: UInt8, _ above: UInt8) -> UInt8 { UInt8((Double(below) * (1 - weight) + Double(above) * weight).rounded()) }
        return RGBAColor(red: channel(base.red, color.red), green: channel(base.green, color.green), blue: channel(base.blue, color.blue))
    }
}
