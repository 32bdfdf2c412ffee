import Raster

/// What the vector map draws into: one call per style layer piece (a colour and the coverage of
/// everything it paints), blended once. Both canvases the renderer has conform: the RGBA
/// `Canvas` and the palette `IndexedCanvas`.
public protocol MapLayerTarget {
    /// Blends `color` over the target where `mask` covers it (the mask is canvas-sized and left
    /// as it was). Returns false when the target cannot take the colour (a palette that is full):
    /// the caller draws the image again in RGBA.
    mutating func blend(_ mask: CoverageMask, color: RGBAColor) -> Bool
}

extension Canvas: MapLayerTarget {
    /// Blends through `Compositor.fill`; an RGBA canvas takes every colour.
    public mutating func blend(_ mask: CoverageMask, color: RGBAColor) -> Bool {
        Compositor.fill(&self, mask: mask, color: color)
        return true
    }
}

extension IndexedCanvas: MapLayerTarget {
    /// Blends through `IndexedCompositor.fill` (coverage in 1/32 steps); false when the palette is full.
    public mutating func blend(_ mask: CoverageMask, color: RGBAColor) -> Bool {
        IndexedCompositor.fill(&self, mask: mask, color: color)
    }
}
