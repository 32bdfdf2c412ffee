/// Compositing through an intermediate layer, for a route drawn in several colours (speed or
/// elevation bands) that must still be blended once: each band is painted opaque into a
/// premultiplied layer (a later band covers an earlier one where they meet, nothing adds up), then
/// the layer goes onto the map with the route's opacity in one blend per pixel:
/// `out = background · (1 − α·A) + α·P`, with P the layer's premultiplied colour and A its coverage.
public enum LayerCompositor {
    /// A transparent layer the size of `canvas`.
    public static func emptyLayer(like canvas: Canvas) -> Canvas {
        Canvas(width: canvas.width, height: canvas.height, fill: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
    }

    /// Paints `color` (its opacity ignored: bands are opaque within the layer) over the
    /// premultiplied `layer` where `mask` covers it: `P = C·c + P·(1 − c)`, `A = c + A·(1 − c)`.
    public static func paint(_ layer: inout Canvas, mask: CoverageMask, color: RGBAColor) {
        guard !mask.isEmpty else { return }
        let width = mask.width, layerWidth = layer.width
        let source = [UInt32(color.red), UInt32(color.green), UInt32(color.blue), 255]
        mask.values.withUnsafeBufferPointer { coverage in
            layer.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in mask.minY...mask.maxY {
                    for column in mask.minX...mask.maxX {
                        let c = UInt32(coverage[row * width + column])
                        if c == 0 { continue }
                        let index = ((row + mask.originY) * layerWidth + column + mask.originX) * 4
                        for channel in 0..<4 {
                            pixels[index + channel] = UInt8((source[channel] * c + UInt32(pixels[index + channel]) * (255 - c) + 127) / 255)
                        }
                    }
                }
            }
        }
    }

    /// Blends the premultiplied `layer` over `canvas` with `opacity` (0...255), within the
    /// inclusive pixel rectangle that holds everything painted into the layer.
    public static func blend(_ canvas: inout Canvas, layer: Canvas, opacity: UInt8, minX: Int, minY: Int, maxX: Int, maxY: Int) {
        precondition(layer.width == canvas.width && layer.height == canvas.height, "layer and canvas differ in size")
        let minX = max(0, minX), minY = max(0, minY), maxX = min(canvas.width - 1, maxX), maxY = min(canvas.height - 1, maxY)
        guard minX <= maxX, minY <= maxY, opacity > 0 else { return }
        let alpha = UInt32(opacity), width = canvas.width
        layer.pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { pixels in
                for row in minY...maxY {
                    for column in minX...maxX {
                        let index = (row * width + column) * 4
                        let coverage = UInt32(source[index + 3])
                        if coverage == 0 { continue }
                        // keep in 0...65025 (255 · 255); +32512 rounds the division.
                        let keep = 65_025 - alpha * coverage
                        for channel in 0..<3 {
                            pixels[index + channel] = UInt8(
                                (UInt32(pixels[index + channel]) * keep + alpha * 255 * UInt32(source[index + channel]) + 32_512) / 65_025)
                        }
                        pixels[index + 3] = UInt8((UInt32(pixels[index + 3]) * keep + alpha * 255 * coverage + 32_512) / 65_025)
                    }
                }
            }
        }
    }
}
