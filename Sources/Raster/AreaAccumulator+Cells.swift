import MapGeometry

// The hot loops of polygon filling: edges into cells, and cells into coverage. Raw pointers, and
// nothing else in the accumulator touches the buffers.

extension AreaAccumulator {
    /// Turns everything added since the last `resolve` into coverage, combined into `mask` by
    /// maximum (union with what the mask holds), and leaves the accumulator empty and zeroed.
    /// `mask` must be the accumulator's frame size.
    public mutating func resolve(into mask: inout CoverageMask) {
        precondition(mask.width == width && mask.height == height, "the mask must be the accumulator's frame size")
        guard !isEmpty else { return }
        let width = width
        var touched = (minX: Int.max, maxX: -1, minY: Int.max, maxY: -1)
        mask.withBlockMarker { mask, marker in
            mask.values.withUnsafeMutableBufferPointer { values in
                drainRows { row, cells, first, last in
                    Self.resolveRow(cells, values.baseAddress! + row * width, first, last, row: row, marker: marker)
                    touched = (min(touched.minX, first), max(touched.maxX, last), min(touched.minY, row), row)
                }
            }
        }
        if touched.minX <= touched.maxX {
            mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY)
        }
    }

    /// Hands each touched row to `body` (the row, its cells, and the first and last visible cell
    /// written), top to bottom; `body` turns them into coverage by a running sum and must zero
    /// them. The cells past the frame's right edge are zeroed here, and the accumulator is left
    /// empty. The one place rows leave the accumulator: `resolve(into:)` and the fused blends
    /// (`IndexedCanvas.blend(resolving:scratch:color:)`) both go through it.
    public mutating func drainRows(_ body: (_ row: Int, _ cells: UnsafeMutablePointer<Float>, _ first: Int, _ last: Int) -> Void) {
        guard !isEmpty else { return }
        let (width, stride) = (width, width + 2)
        let rows = firstRow...lastRow
        cells.withUnsafeMutableBufferPointer { cells in
            rowFirst.withUnsafeMutableBufferPointer { rowFirst in
                rowLast.withUnsafeMutableBufferPointer { rowLast in
                    for row in rows {
                        let first = Int(rowFirst[row]), last = Int(rowLast[row])
                        guard first <= last else { continue }
                        rowFirst[row] = Int32.max
                        rowLast[row] = -1
                        let cellRow = cells.baseAddress! + row * stride
                        let visibleLast = min(last, width - 1)
                        if first <= visibleLast { body(row, cellRow, first, visibleLast) }
                        // The right-hand remainders past the frame (and rounding left in them).
                        let tail = max(first, visibleLast + 1)
                        if tail <= last { (cellRow + tail).update(repeating: 0, count: last - tail + 1) }
                    }
                }
            }
        }
        firstRow = height
        lastRow = -1
    }

    /// Running sum of one row's cells `first...last` into coverage levels, max into `output`, cells
    /// zeroed.
    @inline(__always)
    private static func resolveRow(
        _ cells: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<UInt8>, _ first: Int, _ last: Int, row: Int, marker: BlockMarker
    ) {
        sweepRow(
            cells, first, last,
            run: { x, level in
                marker.mark(row: row, first: x, last: x + 7)
                if level == 255 {
                    (output + x).update(repeating: 255, count: 8)
                } else {
                    for index in x..<(x + 8) where output[index] < level { output[index] = level }
                }
            },
            pixel: { x, level in
                if level > output[x] {
                    output[x] = level
                    marker.mark(row: row, x: x)
                }
            })
    }

    /// The one walk of a row's cells `first...last` as a running sum, zeroing them, shared by
    /// `resolve(into:)` and the fused palette blend: `pixel(x, coverage)` for each cell summed
    /// (coverage 0–255, 0 included), and `run(x, coverage)` for eight cells at `x` that are all
    /// zero, where the coverage stays that of the cell before (called only when it is not 0).
    /// Between edges most cells are 0: such runs are recognised by their bits at once.
    @inline(__always)
    public static func sweepRow(
        _ cells: UnsafeMutablePointer<Float>, _ first: Int, _ last: Int, run: (_ x: Int, _ coverage: UInt8) -> Void,
        pixel: (_ x: Int, _ coverage: UInt8) -> Void
    ) {
        var sum: Float = 0
        var coverage: UInt8 = 0
        var x = first
        while x <= last {
            if x + 8 <= last + 1, eightCellsAreZero(cells + x) {
                if coverage != 0 { run(x, coverage) }
                x += 8
                continue
            }
            let end = min(x + 8, last + 1)
            while x < end {
                sum += cells[x]
                cells[x] = 0
                coverage = UInt8(min(abs(sum), 1) * 255 + 0.5)
                pixel(x, coverage)
                x += 1
            }
        }
    }

    /// Whether the eight cells at `cells` are all +0, read as four 64-bit words: the cells between
    /// edges, which add nothing to the running sum (a −0 only sends its eight down the slower path).
    @inline(__always)
    private static func eightCellsAreZero(_ cells: UnsafeMutablePointer<Float>) -> Bool {
        let words = UnsafeRawPointer(cells)
        return words.loadUnaligned(as: UInt64.self) | words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            | words.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | words.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == 0
    }

    /// Adds every edge of a checked ring (finite, within ±1e300) to the cells.
    mutating func accumulate(_ ring: UnsafeBufferPointer<PixelPoint>, orientation: Float) {
        guard width > 0, height > 0, ring.count >= 2 else { return }
        let (width, height) = (width, height)
        var scan = EdgeScan(width: width, height: height)
        cells.withUnsafeMutableBufferPointer { cells in
            rowFirst.withUnsafeMutableBufferPointer { rowFirst in
                rowLast.withUnsafeMutableBufferPointer { rowLast in
                    scan.cells = cells.baseAddress!
                    scan.rowFirst = rowFirst.baseAddress!
                    scan.rowLast = rowLast.baseAddress!
                    var previous = ring[ring.count - 1]
                    for point in ring {
                        scan.edge(previous, point, orientation)
                        previous = point
                    }
                }
            }
        }
        cellVisits += scan.visits
        if scan.topRow <= scan.bottomRow {
            firstRow = min(firstRow, scan.topRow)
            lastRow = max(lastRow, scan.bottomRow)
        }
    }
}

/// One ring's walk over the cells: clip each edge to the frame, cut it at row boundaries, and add
/// each row piece's swept area to the cells it crosses.
private struct EdgeScan {
    let width: Int, height: Int
    let frameWidth: Double, frameHeight: Double
    var cells: UnsafeMutablePointer<Float>! = nil
    var rowFirst: UnsafeMutablePointer<Int32>! = nil
    var rowLast: UnsafeMutablePointer<Int32>! = nil
    var topRow = Int.max, bottomRow = -1
    var visits = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        frameWidth = Double(width)
        frameHeight = Double(height)
    }

    /// Adds the edge from `p` to `q`. Downward edges (y growing) add `orientation`, upward ones
    /// subtract it. Rows outside the frame are dropped (each row is summed on its own). Parts of
    /// the edge left of the frame are flattened onto x = 0 (they count fully for every pixel either
    /// way) and parts right of it onto x = width (they count for none, but a row's running sum must
    /// run on to the frame's edge when the rest of the ring lies beyond it).
    @inline(__always)
    mutating func edge(_ p: PixelPoint, _ q: PixelPoint, _ orientation: Float) {
        guard p.y != q.y else { return }
        let down = p.y < q.y
        let (a, b) = down ? (p, q) : (q, p)
        guard b.y > 0, a.y < frameHeight else { return }
        let sign = down ? orientation : -orientation
        // Clip to the frame's rows, always interpolating from the upper point so both uses of an
        // edge (a ring and a neighbour sharing it) give the same bits.
        var (x0, y0, x1, y1) = (a.x, a.y, b.x, b.y)
        if a.y < 0 {
            x0 = a.x + (b.x - a.x) * ((0 - a.y) / (b.y - a.y))
            y0 = 0
        }
        if b.y > frameHeight {
            x1 = a.x + (b.x - a.x) * ((frameHeight - a.y) / (b.y - a.y))
            y1 = frameHeight
        }
        if x0 >= 0 && x1 >= 0 && x0 <= frameWidth && x1 <= frameWidth {
            span(x0, y0, x1, y1, sign)
            return
        }
        if (x0 <= 0 && x1 <= 0) || (x0 >= frameWidth && x1 >= frameWidth) {
            let side = x0 <= 0 ? 0 : frameWidth
            span(side, y0, side, y1, sign)
            return
        }
        // Cut where the edge crosses x = 0 and x = width, in order along y.
        var ys: (Double, Double) = (y0, y0)
        var count = 0
        let crossings = x0 < x1 ? (0.0, frameWidth) : (frameWidth, 0.0)
        for crossing in [crossings.0, crossings.1] where min(x0, x1) < crossing && crossing < max(x0, x1) {
            let y = y0 + (y1 - y0) * ((crossing - x0) / (x1 - x0))
            if count == 0 { ys.0 = y } else { ys.1 = y }
            count += 1
        }
        var (fromX, fromY) = (x0, y0)
        for index in 0...count {
            let toY = index == count ? y1 : (index == 0 ? ys.0 : ys.1)
            let toX = index == count ? x1 : x0 + (x1 - x0) * ((toY - y0) / (y1 - y0))
            let clampedFrom = min(max(fromX, 0), frameWidth), clampedTo = min(max(toX, 0), frameWidth)
            span(clampedFrom, fromY, clampedTo, toY, sign)
            (fromX, fromY) = (toX, toY)
        }
    }

    /// Adds an edge inside the frame (0 ≤ x ≤ width, 0 ≤ y0 < y1 ≤ height) row by row.
    @inline(__always)
    mutating func span(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ sign: Float) {
        // A sliver under 1e-12 px tall adds under 1e-12 to any pixel: not worth a division.
        guard y1 - y0 > 1e-12 else { return }
        let firstRow = floorInt(y0), endRow = min(ceilInt(y1), height)
        guard firstRow < endRow else { return }
        let slope = (x1 - x0) / (y1 - y0)
        var xTop = x0
        for row in firstRow..<endRow {
            let top = max(Double(row), y0), bottom = min(Double(row + 1), y1)
            let xBottom = bottom >= y1 ? x1 : x0 + (bottom - y0) * slope
            cover(row, xTop, xBottom, (bottom - top) * Double(sign))
            xTop = xBottom
        }
        topRow = min(topRow, firstRow)
        bottomRow = max(bottomRow, endRow - 1)
    }

    /// Adds one row piece of an edge, `height` tall (signed), running between x = `xa` and `xb`.
    ///
    /// Let F(i) be the piece's contribution to the running sum at cell i: `height` times the mean,
    /// over the piece, of how much of [x, ∞) lies left of i + 1, i.e. clamp(i + 1 − x, 0, 1). Cell i
    /// gets F(i) − F(i − 1). For x spread evenly over [lo, hi] that mean is (R(i + 1 − lo) −
    /// R(i + 1 − hi)) / (hi − lo) with R(s) = ∫ clamp(s, 0, 1) ds: s²/2 on [0, 1], s − ½ beyond, so
    /// the cells strictly between the ends all get the same step.
    @inline(__always)
    mutating func cover(_ row: Int, _ xa: Double, _ xb: Double, _ height: Double) {
        let lo = min(max(min(xa, xb), 0), frameWidth), hi = min(max(max(xa, xb), 0), frameWidth)
        let first = floorInt(lo), last = floorInt(hi)
        let cell = cells + row * (width + 2)
        if first == last {
            let left = height * ((Double(first) + 1) - (lo + hi) * 0.5)
            cell[first] += Float(left)
            cell[first + 1] += Float(height - left)
            mark(row, first, first + 1)
            return
        }
        let step = height / (hi - lo)
        let head = Double(first + 1) - lo
        var previous = step * head * head * 0.5
        cell[first] += Float(previous)
        if last > first + 1 {
            cell[first + 1] += Float(step * (head + 0.5) - previous)
            let middle = Float(step)
            var index = first + 2
            while index < last {
                cell[index] += middle
                index += 1
            }
            previous = step * (Double(last) - 0.5 - lo)
        }
        let tail = Double(last + 1) - hi
        let atLast = step * ((Double(last) + 0.5 - lo) - tail * tail * 0.5)
        cell[last] += Float(atLast - previous)
        cell[last + 1] += Float(height - atLast)
        mark(row, first, last + 1)
    }

    @inline(__always)
    mutating func mark(_ row: Int, _ first: Int, _ last: Int) {
        if Int32(first) < rowFirst[row] { rowFirst[row] = Int32(first) }
        if Int32(last) > rowLast[row] { rowLast[row] = Int32(last) }
        visits += last - first + 1
    }
}
