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
        // (index, level) → 1 + the blended colour's index; 0 while not yet blended.
        var blended = [UInt16](repeating: 0, count: 256 * (steps + 1))
        // Coverage → level once per coverage value, so the division stays out of the pixel loop.
        let levelOf = (0..<256).map { UInt8(($0 * steps + 127) / 255) }
        let canvasWidth = width, maskWidth = mask.width, columns = mask.minX...mask.maxX
        // Raw pointers over the mask, the indices and the table: a vector map blends whole-image
        // masks for every style layer, and checked indexing cost two thirds of such a render
        // (perf, 2560×1920). The palette is taken out for the loop (a miss adds to it) and put back.
        var palette = self.palette
        var full = false
        // The colour's own index once a fully covered pixel has put it in the palette (opaque
        // colours only: full coverage then gives the colour whatever was below).
        var opaqueIndex: UInt8?
        defer {
            self.palette = palette
            if full { ranOutOfColors = true }
        }
        mask.values.withUnsafeBufferPointer { values in
            levelOf.withUnsafeBufferPointer { levelOf in
                indices.withUnsafeMutableBufferPointer { indices in
                    blended.withUnsafeMutableBufferPointer { blended in
                        for row in mask.minY...mask.maxY where !full {
                            let source = values.baseAddress! + row * maskWidth
                            let target = indices.baseAddress! + (row + mask.originY) * canvasWidth + mask.originX
                            var column = columns.lowerBound
                            while column <= columns.upperBound {
                                // Eight uncovered pixels at a time: a map layer's mask spans the
                                // image but covers little of it (roads, water).
                                if column + 8 <= columns.upperBound + 1 {
                                    let word = UnsafeRawPointer(source + column).loadUnaligned(as: UInt64.self)
                                    if word == 0 {
                                        column += 8
                                        continue
                                    }
                                    // Eight fully covered pixels of an opaque colour become that
                                    // colour whatever was below (a map's fills are mostly this).
                                    if word == .max, let index = opaqueIndex {
                                        (target + column).update(repeating: index, count: 8)
                                        column += 8
                                        continue
                                    }
                                }
                                defer { column += 1 }
                                let level = Int(levelOf[Int(source[column])])
                                if level == 0 { continue }
                                let old = Int(target[column])
                                let key = old * (steps + 1) + level
                                var entry = blended[key]
                                if entry == 0, level == steps, let index = opaqueIndex {
                                    entry = UInt16(index) + 1
                                    blended[key] = entry
                                } else if entry == 0 {
                                    let result = IndexedCanvas.blend(palette[old], color, Double(level) / Double(steps))
                                    guard let index = palette.index(of: result) else {
                                        full = true
                                        break
                                    }
                                    entry = UInt16(index) + 1
                                    blended[key] = entry
                                    // Only an exact entry: a merged one is looked up again each time
                                    // (the palette may gain a closer entry later), as the loop would.
                                    if level == steps, color.alpha == 255,
                                        palette[Int(index)] == RGBAColor(red: color.red, green: color.green, blue: color.blue)
                                    {
                                        opaqueIndex = index
                                    }
                                }
                                target[column] = UInt8(entry - 1)
                            }
                        }
                    }
                }
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
