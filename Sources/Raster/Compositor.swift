/// Blends a colour onto a canvas through a coverage mask, once per pixel:
/// `out = background · (1 − α·c) + colour · α·c`, with c the mask's coverage and α the colour's
/// opacity. Because the mask is a union (see `CoverageMask`), overlaps are blended once.
public enum Compositor {
    /// Blends `color` over `canvas` where `mask` covers it.
    public static func fill(_ canvas: inout Canvas, mask: CoverageMask, color: RGBAColor) {
        precondition(canvas.width == mask.width && canvas.height == mask.height, "mask and canvas sizes differ")
        guard !mask.isEmpty, color.alpha > 0 else { return }
        let width = canvas.width
        let red = UInt32(color.red), green = UInt32(color.green), blue = UInt32(color.blue)
        let alpha = UInt32(color.alpha)
        mask.values.withUnsafeBufferPointer { coverage in
            canvas.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in mask.minY...mask.maxY {
                    for column in mask.minX...mask.maxX {
                        let c = UInt32(coverage[row * width + column])
                        if c == 0 { continue }
                        // weight in 0...65025 (255 · 255); +32512 rounds the division.
                        let weight = alpha * c
                        let keep = 65_025 - weight
                        let index = (row * width + column) * 4
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
