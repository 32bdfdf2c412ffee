import MapGeometry
import Raster

/// Draws a tile source under a view: the tiles of `TilePlan`'s zoom resampled to the image's
/// exact pixels and blended over the canvas at the basemap's opacity.
///
/// Filtering is separable and streamed: each source row the image needs is assembled from its
/// tiles into one contiguous row (so a tap never asks which tile it is in, and neighbouring tiles
/// filter as one image: no seams), filtered horizontally once, and kept while image rows still
/// need it; memory is a few rows, not a mosaic of the view.
///
/// Colours are averaged in premultiplied sRGB, not linear light: map tiles are drawn for sRGB
/// display and every browser and map renderer shrinks them that way, so a linear average would
/// make thin dark lines (roads, labels) look lighter than on the tile server's own map; and
/// premultiplying keeps a missing or transparent tile's colour out of its neighbours.
public enum TileResampler {
    /// Blends the basemap over `canvas` (opaque RGBA) and reports what was drawn.
    public static func draw(
        into canvas: inout Canvas, viewport: Viewport, provider: any TileProvider, settings: BasemapSettings
    ) -> BasemapReport {
        let fetched = fetch(viewport: viewport, provider: provider, settings: settings)
        draw(fetched, into: &canvas)
        return fetched.report
    }

    /// The tiles `viewport` needs, fetched: the first half of `draw`, so a caller can see whether
    /// they will cover every pixel (`FetchedTiles.coversEveryPixel`) before it paints what they
    /// would hide.
    public static func fetch(viewport: Viewport, provider: any TileProvider, settings: BasemapSettings) -> FetchedTiles {
        let description = provider.sourceDescription
        let plan: TilePlan
        switch TilePlan.make(viewport: viewport, description: description, maximumOverzoomLevels: settings.maximumOverzoomLevels) {
        case .success(let made): plan = made
        case .failure(let refusal): return FetchedTiles(report: BasemapReport(zoom: nil, problems: [refusal.description]))
        }
        let width = viewport.widthPixels, height = viewport.heightPixels
        let tile = plan.tilePixels, world = plan.worldPixels, tilesPerSide = 1 << plan.zoom

        let columns = TapTable(count: width, plan: plan, origin: plan.originX)
        let rows = TapTable(count: height, plan: plan, origin: plan.originY)
        let firstColumn = floorDivide(columns.lowestSource, tile), lastColumn = floorDivide(columns.highestSource, tile)
        let firstRow = max(0, floorDivide(rows.lowestSource, tile)), lastRow = min(tilesPerSide - 1, floorDivide(rows.highestSource, tile))
        let slots = lastColumn - firstColumn + 1

        // Fetch every tile of the view once (a view wider than the world asks for a tile twice).
        var report = BasemapReport(zoom: plan.zoom)
        var problems: [String] = []
        var fetched: [TileCoordinate: TileImage?] = [:]
        var grid: [[TileImage?]] = []
        let coverage = description.boundsLonLat.flatMap { TileCoverage(boundsLonLat: $0, zoom: plan.zoom) }
        if firstRow <= lastRow {
            for tileRow in firstRow...lastRow {
                var gridRow: [TileImage?] = []
                for slot in 0..<slots {
                    let coordinate = TileCoordinate(z: plan.zoom, x: floorModulo(firstColumn + slot, tilesPerSide), y: tileRow)
                    if let known = fetched[coordinate] {
                        gridRow.append(known)
                        continue
                    }
                    var image: TileImage?
                    if let coverage, !coverage.contains(coordinate) {
                        report.tilesAbsent += 1
                    } else {
                        switch provider.tile(coordinate) {
                        case .image(let decoded) where decoded.width == tile && decoded.height == tile:
                            image = decoded
                            report.tiles += 1
                        case .image(let decoded):
                            report.tilesFailed += 1
                            problems.append("tile \(coordinate) is \(decoded.width)x\(decoded.height) pixels; the source's tiles are \(tile)x\(tile)")
                        case .absent:
                            report.tilesAbsent += 1
                        case .failed(let message):
                            report.tilesFailed += 1
                            problems.append("tile \(coordinate): \(message)")
                        case .vector:
                            report.tilesFailed += 1
                            problems.append("tile \(coordinate) is a vector tile in a raster source")
                        }
                    }
                    fetched[coordinate] = image
                    gridRow.append(image)
                }
                grid.append(gridRow)
            }
        }
        if !problems.isEmpty {
            report.problems = Array(problems.prefix(5)) + (problems.count > 5 ? ["and \(problems.count - 5) more tile(s)"] : [])
        }
        guard report.tiles > 0 else { return FetchedTiles(report: report) }
        // Every pixel is written opaque when every tap row and column lies inside the world,
        // every tile is there and opaque, and the basemap is drawn at full opacity.
        let covers =
            settings.opacity == 1 && rows.lowestSource >= 0 && rows.highestSource < world && firstRow <= lastRow
            && grid.allSatisfy { $0.allSatisfy { $0?.isOpaque ?? false } }
        return FetchedTiles(
            report: report,
            drawing: FetchedTiles.Drawing(
                plan: plan, columns: columns, rows: rows, grid: grid, firstColumn: firstColumn, firstRow: firstRow, lastRow: lastRow,
                opacity: Float(settings.opacity)),
            coversEveryPixel: covers)
    }

    /// Blends fetched tiles over `canvas` (opaque RGBA, the viewport's size): the second half of
    /// `draw`.
    public static func draw(_ fetched: FetchedTiles, into canvas: inout Canvas) {
        guard let drawing = fetched.drawing else { return }
        let width = canvas.width, height = canvas.height
        let plan = drawing.plan, tile = plan.tilePixels, world = plan.worldPixels
        let columns = drawing.columns, rows = drawing.rows, grid = drawing.grid
        let firstColumn = drawing.firstColumn, firstRow = drawing.firstRow, lastRow = drawing.lastRow
        let slots = grid.first?.count ?? 0
        var filter = RowFilter(
            width: width, columns: columns, rowTapsMost: rows.mostTaps, tileColumns: slots, tilePixels: tile, firstColumn: firstColumn * tile)
        let opacity = drawing.opacity
        var taps: [(slot: Int, weight: Float)] = []
        var opaque = true
        var sumRow = [Float](repeating: 0, count: width * 4)
        // The source rows the image row above was stored from (`storeOpaque`), if it was.
        var storedAbove: ClosedRange<Int>?
        var repeats = RepeatedColumns(segments: filter.segments, tilePixels: tile)
        sumRow.withUnsafeMutableBufferPointer { sumRow in
            canvas.pixels.withUnsafeMutableBufferPointer { pixels in
                for imageRow in 0..<height {
                    taps.removeAll(keepingCapacity: true)
                    opaque = true
                    var lowestSource = Int.max, highestSource = Int.min
                    for tap in rows.taps(of: imageRow) where tap.source >= 0 && tap.source < world {
                        let tileRow = tap.source / tile
                        guard tileRow >= firstRow, tileRow <= lastRow else { continue }
                        lowestSource = min(lowestSource, tap.source)
                        highestSource = max(highestSource, tap.source)
                        let filtered = filter.filteredRow(tap.source) { assembled, unchanged, aboveAssembled in
                            assemble(
                                &assembled, unchanged: &unchanged, aboveAssembled: aboveAssembled, tiles: grid[tileRow - firstRow],
                                row: tap.source - tileRow * tile, tilePixels: tile)
                        }
                        if let filtered {
                            taps.append((filtered.slot, tap.weight))
                            opaque = opaque && filtered.opaque
                        } else {
                            opaque = false
                        }
                    }
                    guard !taps.isEmpty else {
                        storedAbove = nil
                        continue
                    }
                    let stores = opaque && opacity == 1 && taps.count <= 3
                    if stores, let above = storedAbove {
                        let spanned = min(above.lowerBound, lowestSource)...max(above.upperBound, highestSource)
                        repeats.find(spanned: spanned, grid: grid, firstRow: firstRow)
                    } else {
                        repeats.clear()
                    }
                    storedAbove = stores ? lowestSource...highestSource : nil
                    filter.rows.withUnsafeBufferPointer { filtered in
                        let target = pixels.baseAddress! + imageRow * width * 4
                        if stores {
                            // Columns whose every tap row repeats the rows the image row above
                            // was drawn from are that row's pixels again: copied, not summed.
                            var start = 0
                            for copied in repeats.columns {
                                storeOpaque(taps, filtered: filtered.baseAddress!, into: target, width: width, columns: start..<copied.lowerBound)
                                (target + copied.lowerBound &* 4).update(from: target + (copied.lowerBound &- width) &* 4, count: copied.count &* 4)
                                start = copied.upperBound
                            }
                            storeOpaque(taps, filtered: filtered.baseAddress!, into: target, width: width, columns: start..<width)
                        } else {
                            blend(taps, filtered: filtered.baseAddress!, into: target, width: width, opacity: opacity, sumRow: sumRow.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Copies row `row` of each tile side by side into `assembled`; zeros (transparent) where a
    /// tile is missing. Sets in `unchanged` each tile's eighths that equal its row above
    /// (`TileImage.segmentsEqualAbove`; all of a missing tile's below its first row); their
    /// pixels are already there when `aboveAssembled` (`assembled` holds the source row above),
    /// so only the others are copied. Says what the tiles cover.
    private static func assemble(
        _ assembled: inout [SIMD4<Float>], unchanged: inout [UInt8], aboveAssembled: Bool, tiles: [TileImage?], row: Int, tilePixels: Int
    ) -> RowCover {
        var any = false, opaque = true
        assembled.withUnsafeMutableBufferPointer { target in
            for (slot, tile) in tiles.enumerated() {
                let destination = target.baseAddress! + slot * tilePixels
                if let tile {
                    any = true
                    opaque = opaque && tile.isOpaque
                    let mask = row > 0 ? tile.segmentsEqualAbove(row) : 0
                    unchanged[slot] = mask
                    if !aboveAssembled || mask == 0 {
                        tile.copyRow(row, toFloats: destination)
                    } else if mask != 0xFF {
                        for segment in 0..<8 where mask & (1 << UInt8(segment)) == 0 {
                            tile.copyRow(row, pixels: (segment * tilePixels / 8)..<((segment + 1) * tilePixels / 8), toFloats: destination)
                        }
                    }
                } else {
                    opaque = false
                    unchanged[slot] = row > 0 ? 0xFF : 0
                    if !(row > 0 && aboveAssembled) { destination.update(repeating: .zero, count: tilePixels) }
                }
            }
        }
        return any ? (opaque ? .opaque : .some) : .none
    }

    /// The vertical pass of a row whose taps are all opaque rows, at full opacity (nearly every
    /// row of a map): the colour covers the canvas, so the weighted sum is rounded and stored
    /// straight, one branch-free loop over the row's floats that the compiler vectorizes. Equal
    /// to `blend`'s result byte for byte; `perf`: summing into a row of floats, testing its
    /// alpha and then rounding (`sumAndStoreOpaque`) was 16% of a raster run.
    private static func storeOpaque(
        _ taps: [(slot: Int, weight: Float)], filtered: UnsafePointer<SIMD4<Float>>, into row: UnsafeMutablePointer<UInt8>, width: Int,
        columns: Range<Int>
    ) {
        guard !columns.isEmpty else { return }
        let count = columns.count &* 4, row = row + columns.lowerBound &* 4
        let a = UnsafeRawPointer(filtered + (taps[0].slot &* width &+ columns.lowerBound)).assumingMemoryBound(to: Float.self), first = taps[0].weight
        switch taps.count {
        case 1:
            for index in 0..<count { row[index] = rounded(first * a[index]) }
        case 2:
            let b = UnsafeRawPointer(filtered + (taps[1].slot &* width &+ columns.lowerBound)).assumingMemoryBound(to: Float.self)
            let second = taps[1].weight
            for index in 0..<count { row[index] = rounded(first * a[index] + second * b[index]) }
        default:
            let b = UnsafeRawPointer(filtered + (taps[1].slot &* width &+ columns.lowerBound)).assumingMemoryBound(to: Float.self)
            let c = UnsafeRawPointer(filtered + (taps[2].slot &* width &+ columns.lowerBound)).assumingMemoryBound(to: Float.self)
            let second = taps[1].weight, third = taps[2].weight
            for index in 0..<count { row[index] = rounded(first * a[index] + second * b[index] + third * c[index]) }
        }
    }

    /// A channel sum (0...255 and a rounding error) rounded to the nearest integer, at most 255,
    /// as `put` rounds.
    @inline(__always)
    private static func rounded(_ sum: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: min((sum + 12_582_912).bitPattern & 0x3FF, 255))
    }

    /// Sums the filtered rows' taps (the vertical pass) and blends the result (`sumRow`: room for
    /// a row of `width · 4` floats):
    /// `out = canvas · (1 − α·opacity) + premultiplied colour · opacity`, rounded; the canvas
    /// stays opaque.
    private static func blend(
        _ taps: [(slot: Int, weight: Float)], filtered: UnsafePointer<SIMD4<Float>>, into row: UnsafeMutablePointer<UInt8>, width: Int,
        opacity: Float, sumRow: UnsafeMutablePointer<Float>
    ) {
        let target = UnsafeMutableRawPointer(row)
        // Up to three rows (two enlarging, three shrinking by up to √2): a whole opaque row at
        // once, else pixel by pixel.
        if taps.count <= 3 {
            let first = filtered + taps[0].slot &* width, firstWeight = taps[0].weight
            let second = taps.count > 1 ? filtered + taps[1].slot &* width : first, secondWeight = taps.count > 1 ? taps[1].weight : 0
            let third = taps.count > 2 ? filtered + taps[2].slot &* width : first, thirdWeight = taps.count > 2 ? taps[2].weight : 0
            guard opacity == 1 else {
                for column in 0..<width {
                    var sum = firstWeight * first[column]
                    sum += secondWeight * second[column]
                    sum += thirdWeight * third[column]
                    put(sum, at: target + column &* 4, opacity: opacity)
                }
                return
            }
            // A row with a missing or transparent tile (the edge of a tile set's coverage) in
            // chunks: the opaque ones at once, the others pixel by pixel from the same sums.
            var start = 0
            while start < width {
                let count = min(opaqueChunkPixels, width - start)
                let weights = (firstWeight, secondWeight, thirdWeight)
                if !sumAndStoreOpaque(first + start, second + start, third + start, weights, sumRow, target + start &* 4, count) {
                    for pixel in 0..<count {
                        let sum = sumRow + pixel &* 4
                        put(SIMD4(sum[0], sum[1], sum[2], sum[3]), at: target + (start &+ pixel) &* 4, opacity: 1)
                    }
                }
                start &+= count
            }
            return
        }
        taps.withUnsafeBufferPointer { taps in
            for column in 0..<width {
                var sum = SIMD4<Float>.zero
                for tap in taps { sum += tap.weight * filtered[tap.slot &* width &+ column] }
                put(sum, at: target + column &* 4, opacity: opacity)
            }
        }
    }

    /// Pixels a row with a missing or transparent tile is blended in: each chunk whose pixels are
    /// all opaque is stored at once (`sumAndStoreOpaque`).
    private static let opaqueChunkPixels = 128

    /// The vertical sum of `width` pixels, at full opacity, when every one is opaque: what `put`
    /// does for such pixels (they cover the canvas), as two branch-free loops over the floats
    /// that the compiler vectorizes: weighted sum into `sums`, then rounded and packed into
    /// `target`. Pixel by pixel, the rounding and packing were most of a raster map's resampling
    /// (`perf`: 23% of the run). Returns false, storing nothing but the sums (`width · 4`
    /// floats), when a pixel is not opaque.
    private static func sumAndStoreOpaque(
        _ first: UnsafePointer<SIMD4<Float>>, _ second: UnsafePointer<SIMD4<Float>>, _ third: UnsafePointer<SIMD4<Float>>,
        _ weights: (Float, Float, Float), _ sums: UnsafeMutablePointer<Float>, _ target: UnsafeMutableRawPointer, _ width: Int
    ) -> Bool {
        let count = width &* 4
        let a = UnsafeRawPointer(first).assumingMemoryBound(to: Float.self), b = UnsafeRawPointer(second).assumingMemoryBound(to: Float.self)
        let c = UnsafeRawPointer(third).assumingMemoryBound(to: Float.self)
        for index in 0..<count { sums[index] = weights.0 * a[index] + weights.1 * b[index] + weights.2 * c[index] }
        // `put`'s test for covering the canvas, alpha / 255 ≥ 0.9995, on the row's least alpha:
        // four running minimums, so the loop is not one chain of dependent comparisons.
        var least = (Float.infinity, Float.infinity, Float.infinity, Float.infinity)
        var alpha = 3
        while alpha + 12 < count {
            least = (min(least.0, sums[alpha]), min(least.1, sums[alpha &+ 4]), min(least.2, sums[alpha &+ 8]), min(least.3, sums[alpha &+ 12]))
            alpha &+= 16
        }
        while alpha < count {
            least.0 = min(least.0, sums[alpha])
            alpha &+= 4
        }
        let opaque = min(least.0, least.1, least.2, least.3) >= 0.9995 * 255
        guard opaque else { return false }
        // Rounded as in `put` (1.5 · 2^23 leaves the rounded value in the low mantissa bits), at
        // most 255; alpha, at least 254.87, rounds to 255.
        let bytes = target.assumingMemoryBound(to: UInt8.self)
        for index in 0..<count {
            let rounded = (sums[index] + 12_582_912).bitPattern & 0x3FF
            bytes[index] = UInt8(truncatingIfNeeded: min(rounded, 255))
        }
        return true
    }

    /// Blends one premultiplied colour (0...255 a channel) over the opaque canvas pixel at `pixel`.
    @inline(__always)
    private static func put(_ color: SIMD4<Float>, at pixel: UnsafeMutableRawPointer, opacity: Float) {
        let cover = color.w * (opacity / 255)
        guard cover > 0.0005 else { return }
        var mixed = color * opacity
        // An opaque tile at full opacity covers the canvas: no need to read it.
        if cover < 0.9995 { mixed += floats(pixel) * (1 - cover) }
        // Rounded to the nearest integer, at most 255; the canvas stays opaque. Adding
        // 1.5 · 2^23 leaves the rounded value in the float's low mantissa bits: Swift's
        // checked Float → integer conversion (finite, in range) cost a fifth of the time,
        // as did SIMD's `clamped`, which is not inlined here.
        mixed += SIMD4<Float>(repeating: 12_582_912)
        let red = min(mixed.x.bitPattern & 0x3FF, 255), green = min(mixed.y.bitPattern & 0x3FF, 255)
        let blue = min(mixed.z.bitPattern & 0x3FF, 255)
        pixel.storeBytes(of: (red | green << 8 | blue << 16 | 0xFF00_0000).littleEndian, as: UInt32.self)
    }
}

/// `a / b` rounded towards −∞.
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

/// `a mod b` in 0..<b.
@inline(__always)
func floorModulo(_ a: Int, _ b: Int) -> Int { ((a % b) + b) % b }
