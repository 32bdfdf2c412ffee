/// Blends a colour onto a canvas through a coverage mask, once per pixel:
/// `out = background · (1 − α·c) + colour · α·c`, with c the mask's coverage and α the colour's
/// opacity. Because the mask is a union (see `CoverageMask`), overlaps are blended once.
public enum Compositor {
    /// Blends `color` over `canvas` where `mask` covers it.
    /// The mask is placed on the canvas at its origin and must lie inside it.
    public static func fill(_ canvas: inout Canvas, mask: CoverageMask, color: RGBAColor) {
        let originX = mask.originX, originY = mask.originY
        precondition(
            originX >= 0 && originY >= 0 && originX + mask.width <= canvas.width && originY + mask.height <= canvas.height, "mask outside the canvas")
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
}
