/// How the PNG is compressed. Defaults are chosen by measurement (performance-notes.md, and
/// `make bench` on this project): libpng's defaults (adaptive filtering, zlib level 6) take ~5×
/// longer for files at most ~20% smaller.
public struct PNGSettings: Sendable, Equatable, Codable {
    /// The colour layout written.
    public enum Layout: Sendable, Equatable, Codable {
        /// An 8-bit palette when the image has at most 256 distinct opaque colours (exact, fastest
        /// and smallest for a flat map with one anti-aliased stroke colour), otherwise RGB(A).
        /// For snapshots, this also lets the renderer draw straight into a palette image
        /// (`SnapshotRenderer`, ARCHITECTURE.md "Image quality of the palette images").
        case automatic
        /// Always 8-bit RGB, or RGBA when the canvas has any transparency; snapshots are drawn in
        /// RGBA without quantization.
        case trueColor
    }

    /// Layout. Default: `.automatic`.
    public var layout: Layout = .automatic
    /// zlib level 0...9. Default: 1.
    ///
    /// Measured by `make bench` on a 512×512 snapshot with 972 colours (no exact palette):
    /// up + level 1 + default strategy 2.10 ms, 36.7 KB; up + `Z_RLE` 2.13 ms, 55.3 KB; no filter
    /// + `Z_RLE` 5.5 ms, 250 KB; libpng's defaults (all filters, level 6) 7.2 ms, 32.4 KB.
    public var compressionLevel: Int32 = 1
    /// zlib strategy. Default: 0 (`Z_DEFAULT_STRATEGY`): as fast as `Z_RLE` here, and a third smaller.
    public var compressionStrategy: Int32 = 0
    /// libpng filter mask for true-colour images. Palette images do not use it: `PNGEncoder`'s
    /// automatic palette (at most 256 colours) writes every row unfiltered, and
    /// `PalettePNGEncoder` (the renderer's palette images) filters every row with "up" itself.
    /// Default: 0x20 (`PNG_FILTER_UP`).
    public var filterFlags: Int32 = 0x20

    /// The defaults above.
    public init() {}

    /// libpng's own defaults (all filters, level 6, default strategy), for comparisons.
    public static var libpngDefaults: PNGSettings {
        var settings = PNGSettings()
        settings.layout = .trueColor
        settings.compressionLevel = 6
        settings.compressionStrategy = 0
        settings.filterFlags = 0xF8
        return settings
    }
}
