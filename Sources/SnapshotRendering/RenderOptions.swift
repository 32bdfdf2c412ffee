import MapTiles
import PNGEncoding
import Raster
import TrackCleaning
import TrackFormats

/// Everything that decides one render. Plain values; every default is here.
public struct RenderOptions: Sendable, Equatable, Codable {
    /// Image width in points. Default: 512.
    public var widthPoints = 512
    /// Image height in points. Default: 512.
    public var heightPoints = 512
    /// Device pixels per point (1 for @1x, 2 for @2x). Default: 1.
    public var scale = 1.0
    /// Margin on each side as a fraction of the frame. Default: 0.1 (10%).
    public var paddingFraction = 0.1
    /// Smallest ground span shown, in metres, so a single fix renders at a sensible zoom. Default: 200.
    public var minimumGroundSpanMeters = 200.0
    /// The minimum ground spans accepted, metres: 1 m to 10,000 km (a quarter of the equator;
    /// wider asks for more than the world).
    public static let minimumGroundSpanRangeMeters = 1.0...10_000_000
    /// Largest distance of any recorded fix from the drawn polyline, in device pixels. Default: 0.5.
    public var simplificationTolerancePixels = 0.5
    /// Colours and widths.
    public var style = SnapshotStyle()
    /// Which fixes are dropped as bad.
    public var cleaning = CleaningOptions()
    /// Input limits for the readers.
    public var limits = DecodingLimits()
    /// PNG compression settings.
    public var png = PNGSettings()
    /// A map drawn under the route instead of bare grid paper; its tiles are handed to the
    /// renderer as a `TileProvider`. Default: nil (the grid).
    public var basemap: BasemapSettings? = nil

    /// The defaults above.
    public init() {}

    /// Image width in device pixels.
    public var widthPixels: Int { max(1, Int((Double(widthPoints) * scale).rounded())) }
    /// Image height in device pixels.
    public var heightPixels: Int { max(1, Int((Double(heightPoints) * scale).rounded())) }

    /// Checks the values a user can set; returns a message naming the bad one, or nil.
    public func validationProblem() -> String? {
        if widthPoints < 16 || heightPoints < 16 || widthPoints > 8192 || heightPoints > 8192 {
            return "size must be between 16x16 and 8192x8192 points, found \(widthPoints)x\(heightPoints)"
        }
        if !(scale >= 0.5 && scale <= 4) { return "scale must be between 0.5 and 4, found \(scale)" }
        if widthPixels * heightPixels > 64_000_000 {
            let megapixels = Double(widthPixels * heightPixels) / 1_000_000
            return
                "the image would be \(widthPixels)x\(heightPixels) pixels (\((megapixels * 10).rounded() / 10) megapixels); at most 64 megapixels after the scale"
        }
        if !(paddingFraction >= 0 && paddingFraction < 0.45) {
            return "padding must be a fraction from 0 to 0.45 of the frame, found \(paddingFraction)"
        }
        if !(simplificationTolerancePixels > 0 && simplificationTolerancePixels <= 0.5) {
            return "the simplification tolerance must be in (0, 0.5] pixels, found \(simplificationTolerancePixels)"
        }
        if !Self.minimumGroundSpanRangeMeters.contains(minimumGroundSpanMeters) {
            return "the minimum ground span must be from 1 to 10000000 metres, found \(minimumGroundSpanMeters)"
        }
        if style.coloring != .single, !RouteColoring.bandCountRange.contains(style.bandColors.count) {
            return "colouring by \(style.coloring.rawValue) needs 8 to 10 band colours, found \(style.bandColors.count)"
        }
        if let problem = basemap?.validationProblem() { return problem }
        if let width = style.strokeWidthPoints, !(width > 0 && width <= 64) {
            return "the stroke width must be in (0, 64] points, found \(width)"
        }
        return nil
    }
}
