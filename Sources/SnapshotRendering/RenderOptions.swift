import PNGEncoding
import Raster
import TrackCleaning
import TrackFormats

/// How the route and its markers look. Plain values; every default is here.
public struct SnapshotStyle: Sendable, Equatable, Codable {
    /// Paper and grid. Default: see `GridStyle`.
    public var grid = GridStyle()
    /// The route colour, blended once over the stroke's union. Default: #0A6CFF at 85% opacity.
    public var routeColor = RGBAColor(red: 0x0A, green: 0x6C, blue: 0xFF, alpha: 217)
    /// Fixed stroke width in points; nil follows MapKit's road width for the zoom (`RoadWidth`).
    /// Default: nil.
    public var strokeWidthPoints: Double? = nil
    /// Whether a darker casing is drawn under the route. Default: true.
    public var drawsCasing = true
    /// The casing colour. Default: #08306B at 70% opacity.
    public var casingColor = RGBAColor(red: 0x08, green: 0x30, blue: 0x6B, alpha: 178)
    /// How much wider the casing is than the route, in points (half on each side). Default: 2.
    public var casingExtraWidthPoints = 2.0
    /// Whether start and end markers are drawn. Default: true.
    public var drawsMarkers = true
    /// Start marker fill. Default: #2DBE4E.
    public var startMarkerColor = RGBAColor(red: 0x2D, green: 0xBE, blue: 0x4E)
    /// End marker fill. Default: #E5322D.
    public var endMarkerColor = RGBAColor(red: 0xE5, green: 0x32, blue: 0x2D)
    /// Ring around the markers. Default: white.
    public var markerRingColor = RGBAColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    /// Smallest marker radius in points, ring included. Default: 5.
    public var markerRadiusPoints = 5.0
    /// Marker radius as a multiple of the stroke width, when that is larger. Default: 0.8.
    public var markerRadiusPerStrokeWidth = 0.8

    /// The defaults above.
    public init() {}
}

/// Everything that decides one render. Plain values; every default is here.
public struct RenderOptions: Sendable, Equatable {
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
        if widthPixels * heightPixels > 64_000_000 { return "the image would have more than 64 megapixels" }
        if !(paddingFraction >= 0 && paddingFraction < 0.45) {
            return "padding must be a fraction from 0 to 0.45 of the frame, found \(paddingFraction)"
        }
        if !(simplificationTolerancePixels > 0 && simplificationTolerancePixels <= 0.5) {
            return "the simplification tolerance must be in (0, 0.5] pixels, found \(simplificationTolerancePixels)"
        }
        if !(minimumGroundSpanMeters > 0 && minimumGroundSpanMeters.isFinite) {
            return "the minimum ground span must be a positive number of metres"
        }
        return nil
    }
}
