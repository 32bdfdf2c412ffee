/// A line of text in the bitmap font on a halo, in a corner of the image: the basemap's
/// attribution. Shrinks to one-pixel dots, then shortens with "..." when the image is too
/// narrow, so a licence line never runs off the image or over the scale bar's half.
public enum TextLabelPainter {
    /// The halo and ink masks of `text` on a `width`×`height` image, or nil when not even a
    /// few characters fit. `maximumWidthFraction` of the width is the most the label may take.
    public static func masks(
        text: String, width: Int, height: Int, dotPixels: Int, marginPixels: Int, maximumWidthFraction: Double = 0.62
    ) -> (halo: CoverageMask, ink: CoverageMask, drawn: String)? {
        var label = BitmapFont.drawable(text)
        let room = Int(Double(width) * maximumWidthFraction) - marginPixels
        var dot = max(1, dotPixels)
        if BitmapFont.widthDots(label) * dot > room { dot = 1 }
        while !label.isEmpty, BitmapFont.widthDots(label) * dot > room {
            label = String(label.dropLast(label.hasSuffix("...") ? 4 : 1)) + "..."
            if label == "..." { return nil }
        }
        guard !label.isEmpty else { return nil }
        let halo = max(1, dot)
        let labelWidth = BitmapFont.widthDots(label) * dot, labelHeight = BitmapFont.glyphHeightDots * dot
        let right = width - 1 - marginPixels, bottom = height - 1 - marginPixels
        let left = right - labelWidth + 1, top = bottom - labelHeight + 1
        guard left - halo >= 0, top - halo >= 0 else { return nil }
        let originX = left - halo, originY = top - halo
        let maskWidth = labelWidth + 2 * halo, maskHeight = labelHeight + 2 * halo
        var haloMask = CoverageMask(width: maskWidth, height: maskHeight, originX: originX, originY: originY)
        var inkMask = CoverageMask(width: maskWidth, height: maskHeight, originX: originX, originY: originY)
        BitmapFont.forEachDot(label) { column, row in
            let x = halo + column * dot, y = halo + row * dot
            for dy in -halo..<(dot + halo) {
                for dx in -halo..<(dot + halo) { haloMask.values[(y + dy) * maskWidth + x + dx] = 255 }
            }
            for dy in 0..<dot {
                for dx in 0..<dot { inkMask.values[(y + dy) * maskWidth + x + dx] = 255 }
            }
        }
        haloMask.touch(minX: 0, minY: 0, maxX: maskWidth - 1, maxY: maskHeight - 1)
        inkMask.touch(minX: halo, minY: halo, maxX: maskWidth - 1 - halo, maxY: maskHeight - 1 - halo)
        return (haloMask, inkMask, label)
    }
}
