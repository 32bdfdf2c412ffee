/// Source rows filtered horizontally to the image's width, kept in a small ring while image
/// rows still need them (rows are visited top to bottom, so each is filtered once). One flat
/// buffer for the ring, allocated once per image.
///
/// Where an eighth of a tile's row equals its row above (`TileImage.segmentsEqualAbove`), the
/// image columns that draw only from such eighths filter to what the source row above gave:
/// they are copied from it instead (`perf`, a run over OSM-style tiles: the horizontal pass was
/// 13% of it; a third of such tiles' rows repeat the row above whole, four fifths at the
/// closest zooms, and more in parts).
struct RowFilter {
    private let width: Int
    private let tapCount: Int
    /// Per image column and tap: the index into the assembled row (pixels).
    private let assembledIndex: [Int32]
    private let weights: [Float]
    /// Which image columns draw only from which eighths of the assembled row's tiles.
    let segments: SegmentColumns
    /// The source row's pixels as float vectors, converted once per source pixel rather than
    /// once per tap.
    private var assembled: [SIMD4<Float>]
    /// Per tile column: the eighths of it where the row just assembled equals the source row
    /// above (bit `s` for eighth `s`).
    private var unchanged: [UInt8]
    /// The source row `assembled` holds.
    private var assembledSource = Int.min
    /// `slots · width` premultiplied RGBA pixels as float vectors, 0...255.
    private(set) var rows: [SIMD4<Float>]
    private var slotSource: [Int]
    private var slotCover: [RowCover]
    private var next = 0

    /// `firstColumn` is the source x of the assembled row's first pixel; the assembled row is
    /// `tileColumns` tiles of `tilePixels` side by side.
    init(width: Int, columns: TapTable, rowTapsMost: Int, tileColumns: Int, tilePixels: Int, firstColumn: Int) {
        self.width = width
        let taps = columns.mostTaps
        tapCount = taps
        let indices = columns.sources.map { Int32($0 - firstColumn) }
        assembledIndex = indices
        weights = columns.weights
        segments = SegmentColumns(width: width, columns: columns, tileColumns: tileColumns, tilePixels: tilePixels, firstColumn: firstColumn)
        assembled = [SIMD4<Float>](repeating: .zero, count: tileColumns * tilePixels)
        unchanged = [UInt8](repeating: 0, count: tileColumns)
        let slots = rowTapsMost + 1
        rows = [SIMD4<Float>](repeating: .zero, count: slots * width)
        slotSource = Array(repeating: Int.min, count: slots)
        slotCover = Array(repeating: .none, count: slots)
    }

    /// The ring slot holding source row `source` filtered to the image's width and what its
    /// tiles cover, or nil when the row has no tile at all. `fill` assembles the row's tiles,
    /// marks the eighths of each tile column whose row equals the row above, and says what the
    /// tiles cover; its last argument says whether `assembled` holds the source row above (then
    /// an unchanged tile column need not be copied again).
    mutating func filteredRow(_ source: Int, fill: (inout [SIMD4<Float>], inout [UInt8], Bool) -> RowCover) -> (slot: Int, opaque: Bool)? {
        if let slot = slotSource.firstIndex(of: source) { return slotCover[slot] == .none ? nil : (slot, slotCover[slot] == .opaque) }
        let slot = next
        next = (next + 1) % slotSource.count
        slotSource[slot] = source
        slotCover[slot] = fill(&assembled, &unchanged, assembledSource == source - 1)
        assembledSource = source
        guard slotCover[slot] != .none else { return nil }
        let above = slotSource.firstIndex(of: source - 1).flatMap { $0 != slot && slotCover[$0] != .none ? $0 : nil }
        let taps = tapCount, width = width, unchanged = unchanged, segments = segments
        assembled.withUnsafeBufferPointer { pixels in
            assembledIndex.withUnsafeBufferPointer { indices in
                weights.withUnsafeBufferPointer { weights in
                    rows.withUnsafeMutableBufferPointer { rows in
                        let out = rows.baseAddress! + slot * width
                        let source = pixels.baseAddress!, index = indices.baseAddress!, weight = weights.baseAddress!
                        var start = 0
                        if let above {
                            let previous = rows.baseAddress! + above * width
                            segments.forEachRun {
                                unchanged[$0]
                            } _: { copied in
                                Self.filter(start..<copied.lowerBound, source, index, weight, taps, into: out)
                                (out + copied.lowerBound).update(from: previous + copied.lowerBound, count: copied.count)
                                start = copied.upperBound
                            }
                        }
                        Self.filter(start..<width, source, index, weight, taps, into: out)
                    }
                }
            }
        }
        return (slot, slotCover[slot] == .opaque)
    }

    /// The horizontal pass over image columns `columns`: each column's weighted sum of its taps,
    /// one float vector a pixel (the four channels in one multiply-add per tap: a third of the
    /// time of four scalar channels). Two and three taps (enlarging; shrinking by up to √2)
    /// unrolled, with wrapping index arithmetic: the general loop's overflow checks and loop
    /// control cost more than the multiply-adds.
    @inline(__always)
    private static func filter(
        _ columns: Range<Int>, _ source: UnsafePointer<SIMD4<Float>>, _ index: UnsafePointer<Int32>, _ weight: UnsafePointer<Float>,
        _ taps: Int, into out: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        switch taps {
        case 2:
            for column in columns {
                let at = column &* 2
                out[column] = weight[at] * source[Int(index[at])] + weight[at &+ 1] * source[Int(index[at &+ 1])]
            }
        case 3:
            for column in columns {
                let at = column &* 3
                var sum = weight[at] * source[Int(index[at])]
                sum += weight[at &+ 1] * source[Int(index[at &+ 1])]
                sum += weight[at &+ 2] * source[Int(index[at &+ 2])]
                out[column] = sum
            }
        default:
            for column in columns {
                var sum = SIMD4<Float>.zero
                for tap in 0..<taps { sum += weight[column &* taps &+ tap] * source[Int(index[column &* taps &+ tap])] }
                out[column] = sum
            }
        }
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
