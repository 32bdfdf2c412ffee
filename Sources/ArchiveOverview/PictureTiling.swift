import PNGEncoding
import Raster

/// A heat map cut into tiles, each its own palette PNG, so a change of one track re-encodes and
/// writes only the tiles whose pixels it changed: a busy city's @2x picture is 1.5 MB of PNG
/// (dense tracks compress poorly), rewritten whole for every new track before it was cut.
///
/// Tiles are squares of `tilePoints` points from the top-left corner, the last column and row
/// taking what is left; at a scale their pixel edges are the point edges times the scale,
/// rounded as the picture's size is, so the tiles of every scale cover the same part of the map
/// and add up to the whole picture pixel for pixel. Whether a tile changed is told by its digest
/// (`digest(of:in:)`: its indices and the picture's palette), not by encoding it.
package struct PictureTiling: Sendable, Equatable {
    /// The picture's size in points.
    package let widthPoints: Int, heightPoints: Int
    /// A tile's side in points.
    package let tilePoints: Int

    /// The tiling of a `widthPoints`×`heightPoints` picture in tiles of `tilePoints`.
    package init(widthPoints: Int, heightPoints: Int, tilePoints: Int) {
        precondition(widthPoints > 0 && heightPoints > 0 && tilePoints > 0, "a tiling needs a size")
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.tilePoints = tilePoints
    }

    /// Tiles across.
    package var columns: Int { (widthPoints + tilePoints - 1) / tilePoints }
    /// Tiles down.
    package var rows: Int { (heightPoints + tilePoints - 1) / tilePoints }
    /// Tiles in all, numbered row by row from the top-left.
    package var count: Int { columns * rows }

    /// Tile `index`'s column and row.
    package func position(_ index: Int) -> (column: Int, row: Int) { (index % columns, index / columns) }

    /// Tile `index`'s rectangle in points.
    package func pointRect(_ index: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let (column, row) = position(index)
        let x = column * tilePoints, y = row * tilePoints
        return (x, y, min(tilePoints, widthPoints - x), min(tilePoints, heightPoints - y))
    }

    /// Tile `index`'s rectangle in the device pixels of a picture drawn at `scale` whose canvas
    /// is `pixelWidth`×`pixelHeight` (the viewport's size at that scale): the last column and
    /// row end at the canvas's edge, so rounding never leaves a gap or an overlap.
    package func pixelRect(_ index: Int, scale: Double, pixelWidth: Int, pixelHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let (column, row) = position(index)
        func edge(_ point: Int, _ last: Bool, _ size: Int) -> Int { last ? size : min(size, Int((Double(point) * scale).rounded())) }
        let minX = edge(column * tilePoints, false, pixelWidth), maxX = edge((column + 1) * tilePoints, column == columns - 1, pixelWidth)
        let minY = edge(row * tilePoints, false, pixelHeight), maxY = edge((row + 1) * tilePoints, row == rows - 1, pixelHeight)
        return (minX, minY, maxX - minX, maxY - minY)
    }

    /// Tile `index` of `canvas` (drawn at `scale`) as PNG bytes: its pixels with the canvas's palette.
    package func png(_ index: Int, of canvas: IndexedCanvas, scale: Double, encoder: inout PalettePNGEncoder) throws(PNGError) -> [UInt8] {
        let rect = pixelRect(index, scale: scale, pixelWidth: canvas.width, pixelHeight: canvas.height)
        return try encoder.encode(canvas, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The digest of every tile of `canvas` (drawn at `scale`), in order: the same pixels in the
    /// same palette give the same digest, and another tile's almost surely another (64 bits;
    /// a picture has a few dozen tiles). Some 1.5 ms for a 2560×1920 picture, where encoding it
    /// takes 30 ms.
    package func digests(of canvas: IndexedCanvas, scale: Double) -> [UInt64] {
        var paletteSeed = TileHasher(seed: 0x5453_4f56_5449_4c45)
        for color in canvas.palette.colors {
            paletteSeed.mix(UInt64(color.red) | UInt64(color.green) << 8 | UInt64(color.blue) << 16 | UInt64(color.alpha) << 24)
        }
        return (0..<count).map { index in
            let rect = pixelRect(index, scale: scale, pixelWidth: canvas.width, pixelHeight: canvas.height)
            var hasher = paletteSeed
            hasher.mix(UInt64(rect.width) << 32 | UInt64(rect.height))
            canvas.indices.withUnsafeBytes { raw in
                for row in rect.y..<(rect.y + rect.height) {
                    let start = row * canvas.width + rect.x
                    var offset = 0
                    while offset + 8 <= rect.width {
                        hasher.mix(raw.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self))
                        offset += 8
                    }
                    var tail: UInt64 = 0
                    for byte in offset..<rect.width { tail = tail << 8 | UInt64(raw[start + byte]) }
                    hasher.mix(tail ^ UInt64(rect.width - offset) << 60)
                }
            }
            return hasher.value
        }
    }
}

/// A 64-bit hash of words fed one at a time (the body and finaliser of MurmurHash3's 64-bit
/// variant): fast enough to run over every pixel of a picture at each change, where SHA-256 would
/// cost as much as encoding the tiles. Not for adversarial input: a tile's name only has to change
/// when its pixels do.
struct TileHasher {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func mix(_ word: UInt64) {
        var k = word &* 0x87c3_7b91_1142_53d5
        k = (k << 31 | k >> 33) &* 0x4cf5_ad43_2745_937f
        state ^= k
        state = (state << 27 | state >> 37) &* 5 &+ 0x52dc_e729
    }

    var value: UInt64 {
        var h = state
        h ^= h >> 33
        h = h &* 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h = h &* 0xc4ce_b9fe_1a85_ec53
        return h ^ h >> 33
    }
}
