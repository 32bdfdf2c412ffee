/// How the PNG is compressed. Defaults are chosen by measurement (performance-notes.md, and
/// `make bench` on this project): libpng's defaults (adaptive filtering, zlib level 6) take ~5×
/// longer for files at most ~20% smaller.
public struct PNGSettings: Sendable, Equatable {
    /// The colour layout written.
    public enum Layout: Sendable, Equatable {
        /// An 8-bit palette when the image has at most 256 distinct opaque colours (exact, fastest
        /// and smallest for a flat map with one anti-aliased stroke colour), otherwise RGB(A).
        case automatic
        /// Always 8-bit RGB, or RGBA when the canvas has any transparency.
        case trueColor
    }

    /// Layout. Default: `.automatic`.
    public var layout: Layout = .automatic
    /// zlib level 0...9. Default: 6 (with `Z_RLE`, higher levels cost little and shrink a little).
    public var compressionLevel: Int32 = 6
    /// zlib strategy. Default: 3 (`Z_RLE`): run-length matches suit filtered map rows.
    public var compressionStrategy: Int32 = 3
    /// libpng filter mask. Default: 0x20 (`PNG_FILTER_UP`) for true colour; palettes always use
    /// no filter (filters do not help indexed rows).
    public var filterFlags: Int32 = 0x20

    /// The defaults above.
    public init() {}

    /// libpng's own defaults (all filters, level 6, default strategy), for comparisons.
    public static var libpngDefaults: PNGSettings {
        var settings = PNGSettings()
        settings.layout = .trueColor
        settings.compressionStrategy = 0
        settings.filterFlags = 0xF8
        return settings
    }
}
