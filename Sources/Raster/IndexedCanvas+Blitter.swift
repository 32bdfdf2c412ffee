/// The palette target: each touched pixel's new colour depends only on its old palette index and
/// its coverage level, so each (index, level) pair is blended once, looked up in the palette once,
/// and remembered for the rest of the mask. Coverage is quantized to `StrokeRamp`'s 1/32 steps.
extension IndexedCanvas: Blitter {
    /// Routes come as ramp levels: one pass, and the casing and route blended together.
    public static var strokeCoverage: StrokeCoverage { .rampLevels }

    /// The colours' palette indices (sets `ranOutOfColors` when one has no room).
    public mutating func solidRow(_ colors: [RGBAColor]) -> [UInt8] {
        precondition(colors.count == width, "a row is \(width) colours")
        var row = [UInt8](repeating: 0, count: width)
        var previous: (color: RGBAColor, index: UInt8)?
        for (x, color) in colors.enumerated() {
            if let previous, previous.color == color {
                row[x] = previous.index
                continue
            }
            guard let index = palette.index(of: color) else {
                ranOutOfColors = true
                return row
            }
            row[x] = index
            previous = (color, index)
        }
        return row
    }

    /// Copies the row's indices.
    public mutating func copy(_ row: [UInt8], toRow y: Int) {
        let start = y * width, count = width
        indices.withUnsafeMutableBufferPointer { indices in
            row.withUnsafeBufferPointer { source in (indices.baseAddress! + start).update(from: source.baseAddress!, count: count) }
        }
    }

    /// Blends the casing and the route of each level (`StrokeRamp.coverages`) over the pixel's
    /// colour and stores the palette index of the result; on a full palette, sets
    /// `ranOutOfColors` and stops (the canvas is then partly drawn).
    public mutating func blendStroke(levels mask: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor, casingColor: RGBAColor) {
        precondition(mask.originX == 0 && mask.originY == 0 && mask.width == width && mask.height == height, "the mask must cover the canvas")
        guard !mask.isEmpty else { return }
        let levels = ramp.maximumLevel + 1
        // Palette index + 1 for (old index, level); 0 until first blended.
        var blended = [UInt16](repeating: 0, count: 256 * levels)
        var full = false
        let width = mask.width, minX = mask.minX, maxX = mask.maxX, minY = mask.minY, maxY = mask.maxY
        mask.values.withUnsafeMutableBufferPointer { levelsBuffer in
            let values = levelsBuffer.baseAddress!
            indices.withUnsafeMutableBufferPointer { indexBuffer in
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
                            var color = palette[Int(indices[offset])]
                            color = IndexedCanvas.blend(color, casingColor, casing)
                            color = IndexedCanvas.blend(color, routeColor, route)
                            guard let index = palette.index(of: color) else {
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
        if full {
            mask.clear()
            ranOutOfColors = true
        } else {
            mask.markCleared()
        }
    }

    /// Blends `color` where `mask` covers it, with coverage quantized to 1/32 (`StrokeRamp`'s
    /// steps); for small shapes (markers, the scale bar, labels). On a full palette, sets
    /// `ranOutOfColors` and stops.
    public mutating func blend(_ mask: CoverageMask, color: RGBAColor) {
        guard !mask.isEmpty else { return }
        let steps = StrokeRamp.levelsPerRamp
        var blended = [UInt16](repeating: 0, count: 256 * (steps + 1))
        for row in mask.minY...mask.maxY {
            for column in mask.minX...mask.maxX {
                let level = (Int(mask.values[row * mask.width + column]) * steps + 127) / 255
                if level == 0 { continue }
                let offset = (row + mask.originY) * width + column + mask.originX
                let key = Int(indices[offset]) * (steps + 1) + level
                if blended[key] == 0 {
                    let result = IndexedCanvas.blend(palette[Int(indices[offset])], color, Double(level) / Double(steps))
                    guard let index = palette.index(of: result) else {
                        ranOutOfColors = true
                        return
                    }
                    blended[key] = UInt16(index) + 1
                }
                indices[offset] = UInt8(blended[key] - 1)
            }
        }
    }

    /// A palette cannot hold a layer whose colour varies per pixel: sets `ranOutOfColors`.
    public mutating func drawRGBA(_ draw: (inout Canvas) -> Void) { ranOutOfColors = true }

    /// `base · (1 − α·c) + color · α·c`, rounded: `Canvas.blend`'s formula in floating point.
    static func blend(_ base: RGBAColor, _ color: RGBAColor, _ coverage: Double) -> RGBAColor {
        guard coverage > 0, color.alpha > 0 else { return base }
        let weight = Double(color.alpha) / 255 * coverage
        func channel(_ below: UInt8, _ above: UInt8) -> UInt8 { UInt8((Double(below) * (1 - weight) + Double(above) * weight).rounded()) }
        return RGBAColor(red: channel(base.red, color.red), green: channel(base.green, color.green), blue: channel(base.blue, color.blue))
    }
}
