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
        blendStroke(levels: &mask, ramp: ramp, routeColor: routeColor, casingColor: casingColor, rowSource: nil)
    }

    /// Copies each row and blends the stroke's runs in it right after, in one pass over the
    /// rows: the same pixels and palette as `copy` for every row and then `blendStroke`.
    // At 2560×1920 the grid's copies had pushed the canvas out of cache by the time the blend
    // came back to the route's pixels: two thirds of the blend's `perf` samples were its first
    // load of a canvas or a mask line. Blended right after its copy, a row is still in L1.
    public mutating func copyRows(
        _ rows: [[UInt8]], kinds: [UInt8], thenBlendStroke levels: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor,
        casingColor: RGBAColor
    ) {
        precondition(kinds.count == height && rows.allSatisfy { $0.count == width }, "a kind per row, and rows of \(width) indices")
        // One buffer, read through pointers: a row taken out of `rows` per canvas row was a
        // retain and a release each (1% of the 2560×1920 render).
        let flat = Array(rows.joined())
        flat.withUnsafeBufferPointer { flat in
            kinds.withUnsafeBufferPointer { kinds in
                blendStroke(
                    levels: &levels, ramp: ramp, routeColor: routeColor, casingColor: casingColor,
                    rowSource: (flat.baseAddress!, kinds.baseAddress!))
            }
        }
    }

    /// `blendStroke`, with every row y first overwritten by row `kinds[y]` of `rows` (rows of
    /// `width` indices one after the other) when there is a row source.
    private mutating func blendStroke(
        levels mask: inout CoverageMask, ramp: StrokeRamp, routeColor: RGBAColor, casingColor: RGBAColor,
        rowSource: (rows: UnsafePointer<UInt8>, kinds: UnsafePointer<UInt8>)?
    ) {
        precondition(mask.originX == 0 && mask.originY == 0 && mask.width == width && mask.height == height, "the mask must cover the canvas")
        guard !mask.isEmpty else {
            if let rowSource {
                let (canvasWidth, canvasHeight) = (width, height)
                indices.withUnsafeMutableBufferPointer { indices in
                    for row in 0..<canvasHeight { Self.copyRow(row, from: rowSource, into: indices.baseAddress!, width: canvasWidth) }
                }
            }
            return
        }
        let levels = ramp.maximumLevel + 1
        // Palette index + 1 for (old index, level); 0 until first blended.
        let blendedBuffer = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: 256 * levels)
        blendedBuffer.initialize(repeating: 0)
        defer { blendedBuffer.deallocate() }
        var full = false
        let width = mask.width
        // The values are taken out so that the mask's runs (its block map, when it keeps one:
        // a route covers a few percent of its bounding box) can be read while they are cleared.
        // Row by row, as before masks kept blocks: the palette grows in the order pixels are
        // blended, so another order gives other indices (and other merges) for the same image.
        var levelValues = mask.values
        mask.values = []
        levelValues.withUnsafeMutableBufferPointer { levelsBuffer in
            let values = levelsBuffer.baseAddress!
            indices.withUnsafeMutableBufferPointer { indexBuffer in
                let indices = indexBuffer.baseAddress!
                let blended = blendedBuffer.baseAddress!
                // The runs are read from a copy made once (its values are already taken out):
                // read through the `inout` mask, each row copied the mask (1% of the render).
                let runs = mask
                // Row by row as `CoverageMask.forEachCoveredRunByRow`, over every row when each is
                // copied first.
                for row in rowSource == nil ? runs.minY...runs.maxY : 0...height - 1 {
                    if let rowSource { Self.copyRow(row, from: rowSource, into: indices, width: width) }
                    guard !full, row >= runs.minY, row <= runs.maxY else { continue }
                    runs.forEachCoveredRun(inRow: row) { first, last in
                        guard !full else { return }
                        // One pixel: its level (nonzero) blended over its index, the pair's result
                        // looked up once for the whole mask; false when the palette is full.
                        @inline(__always) func blendPixel(_ offset: Int, _ level: Int) -> Bool {
                            let key = Int(indices[offset]) &* levels &+ level
                            var entry = blended[key]
                            if entry == 0 {
                                let (casing, route) = ramp.coverages(level: level)
                                var color = palette[Int(indices[offset])]
                                color = IndexedCanvas.blend(color, casingColor, casing)
                                color = IndexedCanvas.blend(color, routeColor, route)
                                guard let index = palette.index(of: color) else { return false }
                                entry = UInt16(index) + 1
                                blended[key] = entry
                            }
                            indices[offset] = UInt8(truncatingIfNeeded: entry &- 1)
                            return true
                        }
                        var column = first
                        let rowBase = row &* width
                        while column <= last {
                            let offset = rowBase &+ column
                            let raw = UnsafeMutableRawPointer(values + offset)
                            if column &+ 8 <= last &+ 1 {
                                // Most of a run is untouched: skip 32 pixels at a time, then 8; a
                                // word with levels is blended byte by byte from its lowest set byte
                                // (left to right: the palette grows in pixel order) and zeroed whole.
                                if column &+ 32 <= last &+ 1,
                                    raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                                        | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                                        | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                                        == 0
                                {
                                    column &+= 32
                                    continue
                                }
                                var word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
                                if word != 0 {
                                    raw.storeBytes(of: 0, as: UInt64.self)
                                    // Inside a route (most of its pixels) eight equal levels over
                                    // eight equal indices, the map's paper, are one pair: blended
                                    // once, stored as one word. The first pixel is blended first, as
                                    // byte by byte, so the palette grows in the same order.
                                    let under = UnsafeMutableRawPointer(indices + offset)
                                    let pixels = under.loadUnaligned(as: UInt64.self)
                                    if word == (word & 0xFF) &* 0x0101_0101_0101_0101, pixels == (pixels & 0xFF) &* 0x0101_0101_0101_0101 {
                                        guard blendPixel(offset, Int(truncatingIfNeeded: word & 0xFF)) else {
                                            full = true
                                            return
                                        }
                                        under.storeBytes(of: UInt64(indices[offset]) &* 0x0101_0101_0101_0101, as: UInt64.self)
                                        column &+= 8
                                        continue
                                    }
                                    repeat {
                                        let shift = word.trailingZeroBitCount & ~7
                                        guard blendPixel(offset &+ shift >> 3, Int(truncatingIfNeeded: (word >> UInt64(shift)) & 0xFF)) else {
                                            full = true
                                            return
                                        }
                                        word &= ~(0xFF << UInt64(shift))
                                    } while word != 0
                                }
                                column &+= 8
                                continue
                            }
                            let level = Int(values[offset])
                            column &+= 1
                            if level == 0 { continue }
                            values[offset] = 0
                            guard blendPixel(offset, level) else {
                                full = true
                                return
                            }
                        }
                    }
                }
            }
        }
        mask.values = levelValues
        if full {
            mask.clear()
            ranOutOfColors = true
        } else {
            mask.markCleared()
        }
    }

    /// Copies row `kinds[row]` of `source.rows` into canvas row `row`.
    @inline(__always)
    private static func copyRow(
        _ row: Int, from source: (rows: UnsafePointer<UInt8>, kinds: UnsafePointer<UInt8>), into indices: UnsafeMutablePointer<UInt8>, width: Int
    ) {
        (indices + row &* width).update(from: source.rows + Int(source.kinds[row]) &* width, count: width)
    }

    /// Blends `color` where `mask` covers it, with coverage quantized to 1/32 (`StrokeRamp`'s
    /// steps); for small shapes (markers, the scale bar, labels) and vector map lines. On a full
    /// palette, sets `ranOutOfColors` and stops.
    public mutating func blend(_ mask: CoverageMask, color: RGBAColor) {
        guard !mask.isEmpty else { return }
        let canvasWidth = width, maskWidth = mask.width
        withBlender(color) { indices, blender, table in
            mask.values.withUnsafeBufferPointer { values in
                mask.forEachCoveredRun { row, first, last in
                    guard !blender.full else { return }
                    let source = values.baseAddress! + row * maskWidth + first
                    let target = indices + (row + mask.originY) * canvasWidth + mask.originX + first
                    Self.blendRun(source, target, last - first + 1, table, &blender)
                }
            }
        }
    }

    /// Resolves `accumulator` (see `AreaAccumulator.resolve(into:)`) and blends `color` by its
    /// coverage in one pass, without a mask: the running sum of each row's cells goes straight
    /// into the blend. Fills of a vector map are most of its pixels; the mask in between was
    /// written, read and cleared once per paint group (`perf`: resolve and blend were a quarter
    /// of a fill-only render).
    public mutating func blend(resolving accumulator: inout AreaAccumulator, scratch: inout CoverageMask, color: RGBAColor) {
        precondition(accumulator.width == width && accumulator.height == height, "the accumulator must be the canvas's size")
        let canvasWidth = width
        withBlender(color) { indices, blender, table in
            accumulator.drainRows { row, cells, first, last in
                // After a full palette the cells are still zeroed (the accumulator is left empty).
                guard !blender.full else {
                    (cells + first).update(repeating: 0, count: last - first + 1)
                    return
                }
                let target = indices + row * canvasWidth
                AreaAccumulator.sweepRow(
                    cells, first, last,
                    run: { x, coverage in
                        // Between edges the coverage stays that of the cell before.
                        if coverage == 255, let index = blender.opaqueIndex {
                            (target + x).update(repeating: index, count: 8)
                        } else {
                            for index in x..<(x + 8) where !blender.full { Self.blendPixel(coverage, target + index, table, &blender) }
                        }
                    },
                    pixel: { x, coverage in
                        if coverage != 0, !blender.full { Self.blendPixel(coverage, target + x, table, &blender) }
                    })
            }
        }
    }

    /// Runs `body` with the pixels, a blender of `color` and its table as pointers (the pixel
    /// loops' form), then takes the palette back and reports a full one.
    private mutating func withBlender(
        _ color: RGBAColor, _ body: (UnsafeMutablePointer<UInt8>, inout PaletteBlender, UnsafeMutablePointer<UInt16>) -> Void
    ) {
        var blender = PaletteBlender(color: color, palette: palette)
        var table = blendTable
        blendTable = []
        PaletteBlender.prepare(&table)
        table.withUnsafeMutableBufferPointer { table in
            indices.withUnsafeMutableBufferPointer { indices in body(indices.baseAddress!, &blender, table.baseAddress!) }
        }
        blendTable = table
        palette = blender.palette
        if blender.full { ranOutOfColors = true }
    }

    /// The pixel loop of `blend(_:color:)` over `count` coverage bytes and their palette indices.
    @inline(__always)
    private static func blendRun(
        _ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, _ count: Int, _ table: UnsafeMutablePointer<UInt16>,
        _ blender: inout PaletteBlender
    ) {
        var column = 0
        while column < count {
            // Eight uncovered pixels at a time: a map layer's mask spans the image but covers
            // little of it (roads, water).
            if column + 8 <= count {
                let word = UnsafeRawPointer(source + column).loadUnaligned(as: UInt64.self)
                if word == 0 {
                    column += 8
                    continue
                }
                // Fully covered pixels of an opaque colour become that colour whatever was below
                // (a map's fills are mostly this): the whole run at once.
                if word == .max, let index = blender.opaqueIndex {
                    var end = column + 8
                    while end + 8 <= count, UnsafeRawPointer(source + end).loadUnaligned(as: UInt64.self) == .max { end += 8 }
                    (target + column).update(repeating: index, count: end - column)
                    column = end
                    continue
                }
                // Only the bytes of coverage 4 and more (step 1 and up: below that a pixel
                // stays as it is), found from the word's bits, left to right: the edges of thin
                // lines leave a few such bytes in a word, and testing all eight was a branch
                // per pixel that the predictor could not learn.
                var significant = word & 0xFCFC_FCFC_FCFC_FCFC
                while significant != 0 {
                    let shift = significant.trailingZeroBitCount & ~7
                    significant &= ~(0xFF << UInt64(shift))
                    let index = column &+ (shift >> 3)
                    blendPixel(UInt8(truncatingIfNeeded: word >> UInt64(shift)), target + index, table, &blender)
                }
                if blender.full { return }
                column += 8
                continue
            }
            blendPixel(source[column], target + column, table, &blender)
            if blender.full { return }
            column += 1
        }
    }

    /// One pixel: the remembered blend of (old index, coverage step), or the blender's slow path.
    @inline(__always)
    private static func blendPixel(
        _ coverage: UInt8, _ pixel: UnsafeMutablePointer<UInt8>, _ table: UnsafeMutablePointer<UInt16>, _ blender: inout PaletteBlender
    ) {
        let step = PaletteBlender.step(coverage)
        if step == 0 { return }
        let key = Int(pixel.pointee) &* (StrokeRamp.levelsPerRamp + 1) &+ step
        var entry = table[key]
        if entry == 0 {
            entry = blender.entry(old: Int(pixel.pointee), step: step)
            guard entry != 0 else { return }
            table[key] = entry
        }
        pixel.pointee = UInt8(truncatingIfNeeded: entry &- 1)
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

/// One colour blended over palette pixels: each (old index, coverage step) pair is blended and
/// looked up in the palette once, then remembered in a table the caller keeps (`IndexedCanvas`'s
/// scratch, as raw pointers in the pixel loops). Coverage is quantized to `StrokeRamp`'s 1/32
/// steps.
///
/// The table is not a field: reached through a struct captured by the pixel loops' closures,
/// every pixel reloaded the array's address and its step table's (a chain of dependent loads;
/// `perf`: the line blend was 14% of a vector render at about 11 ns a pixel).
struct PaletteBlender {
    /// The colour blended.
    let color: RGBAColor
    /// The canvas's palette, taken out for the loop (a miss adds to it) and put back by the caller.
    var palette: CanvasPalette
    /// Whether a colour found no room: the caller stops and reports `ranOutOfColors`.
    var full = false
    /// The colour's own index once a fully covered pixel has put it in the palette (opaque
    /// colours only: full coverage then gives the colour whatever was below).
    var opaqueIndex: UInt8?

    /// Entries in a blend table: (index, step) → 1 + the blended colour's index, 0 while not yet
    /// blended.
    static let tableCount = 256 * (StrokeRamp.levelsPerRamp + 1)

    init(color: RGBAColor, palette: CanvasPalette) {
        self.color = color
        self.palette = palette
    }

    /// Makes `table` an empty blend table (sized on first use, zeroed after).
    static func prepare(_ table: inout [UInt16]) {
        if table.count != tableCount {
            table = [UInt16](repeating: 0, count: tableCount)
        } else {
            table.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
    }

    /// The coverage step (0...`StrokeRamp.levelsPerRamp`) of a coverage byte, rounded.
    @inline(__always)
    static func step(_ coverage: UInt8) -> Int { (Int(coverage) &* StrokeRamp.levelsPerRamp &+ 127) / 255 }

    /// The table entry for blending the colour at `step` over palette index `old`: 1 + the
    /// result's index, or 0 (and `full` set) when the palette has no room.
    mutating func entry(old: Int, step: Int) -> UInt16 {
        let steps = StrokeRamp.levelsPerRamp
        if step == steps, let index = opaqueIndex { return UInt16(index) + 1 }
        let result = IndexedCanvas.blend(palette[old], color, Double(step) / Double(steps))
        guard let index = palette.index(of: result) else {
            full = true
            return 0
        }
        // Full coverage of an opaque colour gives the colour's own entry whatever was below,
        // merged or exact. (Reusing a merged entry is what this table does anyway; requiring an
        // exact one sent every pixel of a background whose colour merged with the paper's down
        // the slow path: 16% of a vector render.)
        if step == steps, color.alpha == 255 { opaqueIndex = index }
        return UInt16(index) + 1
    }
}
