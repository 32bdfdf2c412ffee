/// Blends a colour onto a canvas through a coverage mask, once per pixel:
/// `out = background · (1 − α·c) + colour · α·c`, with c the mask's coverage and α the colour's
/// opacity. Because the mask is a union (see `CoverageMask`), overlaps are blended once.
public enum Compositor {
    /// Blends `color` over `canvas` where `mask` covers it.
    public static func fill(_ canvas: inout Canvas, mask: CoverageMask, color: RGBAColor) {
        precondition(canvas.width == mask.width && canvas.height == mask.height, "mask and canvas sizes differ")
        fill(&canvas, mask: mask, color: color, originX: 0, originY: 0)
    }

    /// Blends through a mask placed with its top-left pixel at (originX, originY) of the canvas.
    static func fill(_ canvas: inout Canvas, mask: CoverageMask, color: RGBAColor, originX: Int, originY: Int) {
        precondition(originX >= 0 && originY >= 0 && originX + mask.width <= canvas.width && originY + mask.height <= canvas.height, "mask outside the canvas")
        guard !mask.isEmpty, color.alpha > 0 else { return }
        let width = mask.width, canvasWidth = canvas.width
        let red = UInt32(color.red), green = UInt32(color.green), blue = UInt32(color.blue)
        let alpha = UInt32(color.alpha)
        mask.values.withUnsafeBufferPointer { coverage in
            canvas.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in mask.minY...mask.maxY {
                    var column = mask.minX
                    while column <= mask.maxX {
                        // Most of a route's bounding box is uncovered: skip 8 empty pixels at a time.
                        if column + 8 <= mask.maxX + 1,
                            UnsafeRawPointer(coverage.baseAddress! + row * width + column).loadUnaligned(as: UInt64.self) == 0
                        {
                            column += 8
                            continue
                        }
                        let c = UInt32(coverage[row * width + column])
                        defer { column += 1 }
                        if c == 0 { continue }
                        // weight in 0...65025 (255 · 255); +32512 rounds the division.
                        let weight = alpha * c
                        let keep = 65_025 - weight
                        let index = ((row + originY) * canvasWidth + column + originX) * 4
                        pixels[index] = UInt8((UInt32(pixels[index]) * keep + red * weight + 32_512) / 65_025)
                        pixels[index + 1] = UInt8((UInt32(pixels[index + 1]) * keep + green * weight + 32_512) / 65_025)
                        pixels[index + 2] = UInt8((UInt32(pixels[index + 2]) * keep + blue * weight + 32_512) / 65_025)
                        // Straight alpha over an opaque or translucent destination.
                        let destinationAlpha = UInt32(pixels[index + 3])
                        pixels[index + 3] = UInt8((destinationAlpha * keep + 255 * weight + 32_512) / 65_025)
                    }
                }
            }
        }
    }

    /// Blends a filled, anti-aliased disc (a marker): coverage `clamp(r + 0.5 − d)` from the pixel
    /// centre's distance to `center`. A disc is one convex shape, so it needs no union mask.
    public static func fillDisc(_ canvas: inout Canvas, centerX: Double, centerY: Double, radiusPixels: Double, color: RGBAColor) {
        let reach = radiusPixels + 0.5
        let rowStart = max(0, Int((centerY - reach - 0.5).rounded(.down)))
        let rowEnd = min(canvas.height - 1, Int((centerY + reach - 0.5).rounded(.up)))
        let columnStart = max(0, Int((centerX - reach - 0.5).rounded(.down)))
        let columnEnd = min(canvas.width - 1, Int((centerX + reach - 0.5).rounded(.up)))
        guard rowStart <= rowEnd, columnStart <= columnEnd else { return }
        var mask = CoverageMask(width: columnEnd - columnStart + 1, height: rowEnd - rowStart + 1)
        for row in rowStart...rowEnd {
            for column in columnStart...columnEnd {
                let dx = Double(column) + 0.5 - centerX, dy = Double(row) + 0.5 - centerY
                let value = (reach - (dx * dx + dy * dy).squareRoot()) * 255
                if value > 0 {
                    mask.values[(row - rowStart) * mask.width + column - columnStart] = value >= 255 ? 255 : UInt8(value + 0.5)
                }
            }
        }
        mask.touch(minX: 0, minY: 0, maxX: mask.width - 1, maxY: mask.height - 1)
        fill(&canvas, mask: mask, color: color, originX: columnStart, originY: rowStart)
    }
}
