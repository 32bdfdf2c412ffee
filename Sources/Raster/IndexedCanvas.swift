/// An opaque 8-bit palette image: one palette index per pixel, rows top to bottom, and at most 256
/// colours. A map snapshot is a few flat colours plus anti-aliased blends of the route, so it is
/// drawn straight into indices (a quarter of the bytes of RGBA, and what the PNG stores).
///
/// The storage is kept when the canvas is reset to another size, so a worker drawing many images
/// allocates (and page-faults) its largest image once. Only the first `width * height` indices
/// are the image; every scene writes every one of them first (`GridPainter`). Drawn through
/// `Blitter` (`IndexedCanvas+Blitter.swift`).
public struct IndexedCanvas: Sendable {
    /// Width in pixels.
    public private(set) var width = 0
    /// Height in pixels.
    public private(set) var height = 0
    /// Palette index per pixel, row-major with a stride of `width`; may hold more than
    /// `width * height` entries (left from a larger image), which are not part of this one.
    public var indices: [UInt8] = []
    /// The colours.
    public var palette = CanvasPalette()
    /// Whether a write found the palette full (see `Blitter.ranOutOfColors`); cleared by `reset`.
    public internal(set) var ranOutOfColors = false
    /// The blend table `PaletteBlender` fills, kept so each blend reuses it (empty until first used).
    var blendTable: [UInt16] = []

    /// An empty canvas; call `reset` before drawing.
    public init() {}

    /// Makes the canvas `width`×`height` with an empty palette. Pixel values are left as they were:
    /// the background painter overwrites every pixel.
    public mutating func reset(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "canvas size must be positive")
        self.width = width
        self.height = height
        if indices.count < width * height {
            indices = LargeBuffer.zeroed(UInt8.self, count: width * height)
        }
        palette.removeAll()
        ranOutOfColors = false
    }

    /// The palette index of an opaque colour, adding it when new; nil when the palette is full
    /// (unless it `takesNearestWhenFull`).
    public mutating func index(of color: RGBAColor) -> UInt8? { palette.index(of: color) }

    /// The image as an RGBA canvas (tests and tools).
    public func expanded() -> Canvas {
        var canvas = Canvas(width: width, height: height, fill: RGBAColor(red: 0, green: 0, blue: 0))
        // One word a pixel from a 256-entry table of the palette's colours as stored (R, G, B, A
        // in memory order).
        var words = [UInt32](repeating: UInt32(0xFF00_0000).littleEndian, count: 256)
        for (index, color) in palette.colors.enumerated() {
            words[index] = (UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | 0xFF00_0000).littleEndian
        }
        let count = width * height
        canvas.pixels.withUnsafeMutableBytes { raw in
            let output = raw.bindMemory(to: UInt32.self)
            indices.withUnsafeBufferPointer { indices in
                words.withUnsafeBufferPointer { words in
                    for pixel in 0..<count { output[pixel] = words[Int(indices[pixel])] }
                }
            }
        }
        return canvas
    }
}

/// Up to 256 opaque colours, each once, with a lookup from colour to index.
public struct CanvasPalette: Sendable {
    /// The colours in index order (alpha 255).
    public private(set) var colors: [RGBAColor] = []
    private var table = ColorTable()

    /// The colour at `index`.
    @inlinable
    public subscript(index: Int) -> RGBAColor { colors[index] }

    /// How many colours there are.
    public var count: Int { colors.count }

    /// An empty palette.
    public init() {}

    /// How eagerly a new colour takes the index of a near one (see `mergeTolerance`).
    public enum Merging: Sendable {
        /// The first attempt at an image: 2, then 3 from 64 entries and 4 from 128.
        case fine
        /// The second attempt at an image whose edges did not fit: 4, then 6 from 128 entries.
        case coarse
        /// A vector map's first attempt: coarse until 192 entries, then 12, and 16 from 224.
        case graded
        /// A vector map's last attempt: 8, then 12 from 128 entries and 16 from 192.
        case coarsest
        /// The same tolerance whatever the count (0: only an identical colour shares an entry);
        /// for a palette built from known colours (the overview's faded map, then its ramp).
        case uniform(levels: Int)
    }

    /// How colours are merged. Default: `.fine`.
    public var merging = Merging.fine
    /// Whether a colour that finds the palette full takes the index of the nearest colour
    /// (largest channel difference) instead of failing. For what is drawn over a palette made
    /// with room to spare (the overview's attribution over its map and heat colours), where a
    /// shade off is better than no image. Default: false.
    public var takesNearestWhenFull = false

    /// How far (in levels of 255, largest channel difference) a new colour may be from one
    /// already in the palette to take that one's index instead of a new entry (per `merging`).
    /// The tolerance grows as the palette fills: the many blends along anti-aliased edges (casing
    /// over grid lines, a marker's ring over the route) share entries more as space runs short.
    /// It applies to every colour added; a map's flat colours come first (the background, then
    /// each layer's fill), so it is mostly their edge blends that merge.
    ///
    /// A vector map starts `graded`: started `coarse`, 21 of the 48 large images of 24 tracks
    /// over Liechtenstein overflowed and were drawn again `coarsest`, whole (a third of the map's
    /// time). Graded is coarse for every image that fits coarse (the same bytes) and reaches the
    /// coarsest tolerances only for the colours past 192, so the overflowing ones fit at once;
    /// the largest error stays the coarsest's 16 levels (how often each attempt is needed:
    /// `make bench`, docs/performance.md).
    public func mergeTolerance(paletteCount: Int) -> Int {
        switch merging {
        case .fine: paletteCount < 64 ? 2 : paletteCount < 128 ? 3 : 4
        case .coarse: paletteCount < 128 ? 4 : 6
        case .graded: paletteCount < 128 ? 4 : paletteCount < 192 ? 6 : paletteCount < 224 ? 12 : 16
        case .coarsest: paletteCount < 128 ? 8 : paletteCount < 192 ? 12 : 16
        case .uniform(let levels): levels
        }
    }

    /// The index of an opaque colour: its own, or that of a colour within `mergeTolerance`, or a
    /// new one; when all 256 are taken, the nearest's with `takesNearestWhenFull`, else nil.
    public mutating func index(of color: RGBAColor) -> UInt8? {
        let key = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16
        if let index = table.find(key) { return index }
        if let near = nearest(color, within: mergeTolerance(paletteCount: colors.count)) {
            // Remember the alias while the table stays sparse (at most 3/4 full).
            if table.count < 768 { table.insert(key, near) }
            return near
        }
        guard colors.count < 256 else { return takesNearestWhenFull ? nearest(color, within: 255) : nil }
        let index = UInt8(colors.count)
        colors.append(RGBAColor(red: color.red, green: color.green, blue: color.blue))
        table.insert(key, index)
        return index
    }

    /// Replaces each colour by the one at its index in `colors` (as many), keeping every pixel's
    /// index: the overview fades a map's palette so, without touching its pixels. Two entries
    /// may then hold one colour; a lookup finds the first.
    public mutating func recolor(_ colors: [RGBAColor]) {
        precondition(colors.count == self.colors.count, "one colour an entry")
        table.removeAll()
        self.colors = colors.map { RGBAColor(red: $0.red, green: $0.green, blue: $0.blue) }
        for (index, color) in self.colors.enumerated() {
            let key = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16
            if table.find(key) == nil { table.insert(key, UInt8(index)) }
        }
    }

    /// The closest colour within `tolerance` (largest channel difference), if any.
    private func nearest(_ color: RGBAColor, within tolerance: Int) -> UInt8? {
        var best = -1, bestDistance = tolerance + 1
        for (index, entry) in colors.enumerated() {
            let distance = max(abs(Int(entry.red) - Int(color.red)), abs(Int(entry.green) - Int(color.green)), abs(Int(entry.blue) - Int(color.blue)))
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best >= 0 ? UInt8(best) : nil
    }

    /// Forgets every colour (and goes back to fine merging, failing when full).
    mutating func removeAll() {
        merging = .fine
        takesNearestWhenFull = false
        colors.removeAll(keepingCapacity: true)
        table.removeAll()
    }
}

/// Packed RGB → palette index, open addressing in 1,024 slots (4× the most entries, so probes
/// stay short).
private struct ColorTable: Sendable {
    private var keys = [UInt32](repeating: .max, count: 1024)
    private var values = [UInt8](repeating: 0, count: 1024)
    private var used: [Int] = []

    var count: Int { used.count }

    func find(_ key: UInt32) -> UInt8? {
        var slot = ColorTable.slot(key)
        while keys[slot] != .max {
            if keys[slot] == key { return values[slot] }
            slot = (slot + 1) & 1023
        }
        return nil
    }

    mutating func insert(_ key: UInt32, _ value: UInt8) {
        var slot = ColorTable.slot(key)
        while keys[slot] != .max { slot = (slot + 1) & 1023 }
        keys[slot] = key
        values[slot] = value
        used.append(slot)
    }

    /// Empties the table, touching only the slots in use.
    mutating func removeAll() {
        for slot in used { keys[slot] = .max }
        used.removeAll(keepingCapacity: true)
    }

    private static func slot(_ key: UInt32) -> Int { Int((key &* 0x9E37_79B1) >> 22) & 1023 }
}
