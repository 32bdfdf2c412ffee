import MapTiles
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
    /// What colours the route: one colour, or quantized bands of speed or elevation. Default: `.single`.
    public var coloring = RouteColoring.single
    /// The band colours, slowest or lowest first; 8 to 10 of them. Default: a blue-to-red ramp of 9
    /// (`RouteColoring.defaultBandColors`).
    public var bandColors = RouteColoring.defaultBandColors
    /// Whether a scale bar with its label is drawn in the bottom-left corner. Default: true.
    public var drawsScaleBar = true
    /// Scale bar and label colour. Default: #333333.
    public var scaleBarColor = RGBAColor(red: 0x33, green: 0x33, blue: 0x33)
    /// The halo under the scale bar and label, for contrast over the route. Default: paper at 80%.
    public var scaleBarHaloColor = RGBAColor(red: 0xF2, green: 0xEF, blue: 0xE9, alpha: 204)

    /// The defaults above (the light theme).
    public init() {}

    /// The style of a theme: `.light` is the defaults above; `.dark` is a night map with a
    /// brighter route (for pages shown in dark mode).
    public init(theme: Theme) {
        self.init()
        guard theme == .dark else { return }
        grid.paper = RGBAColor(red: 0x1E, green: 0x22, blue: 0x27)
        grid.minorLine = RGBAColor(red: 0xB8, green: 0xC4, blue: 0xD0, alpha: 20)
        grid.majorLine = RGBAColor(red: 0xB8, green: 0xC4, blue: 0xD0, alpha: 46)
        routeColor = RGBAColor(red: 0x4D, green: 0xA3, blue: 0xFF, alpha: 230)
        casingColor = RGBAColor(red: 0x00, green: 0x0B, blue: 0x1A, alpha: 190)
        markerRingColor = RGBAColor(red: 0x1E, green: 0x22, blue: 0x27)
        scaleBarColor = RGBAColor(red: 0xD8, green: 0xDE, blue: 0xE4)
        scaleBarHaloColor = RGBAColor(red: 0x1E, green: 0x22, blue: 0x27, alpha: 204)
    }
}

/// A map appearance preset.
public enum Theme: String, Sendable, Equatable, Codable, CaseIterable {
    /// Light paper (the default).
    case light
    /// Dark paper, light grid, brighter route.
    case dark
}

/// How the route is coloured.
public enum RouteColoring: String, Sendable, Equatable, Codable, CaseIterable {
    /// One colour (`SnapshotStyle.routeColor`).
    case single = "none"
    /// Bands of moving speed between fixes (needs times; otherwise one colour).
    case speed
    /// Bands of elevation (needs elevations; otherwise one colour).
    case elevation

    /// Nine colours from slow/low (blue) to fast/high (red), opaque; the route colour's opacity
    /// applies once over the whole route.
    public static let defaultBandColors: [RGBAColor] = [
        0x2C7BB6, 0x4A9BC7, 0x74B9D6, 0xABD9E9, 0xE0F3C8, 0xFEE090, 0xFDAE61, 0xF46D43, 0xD7191C,
    ].map { RGBAColor(red: UInt8($0 >> 16), green: UInt8(($0 >> 8) & 0xFF), blue: UInt8($0 & 0xFF)) }

    /// Fewest and most bands a style may have.
    public static let bandCountRange = 8...10
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
            return "the image would be \(widthPixels)x\(heightPixels) pixels (\((megapixels * 10).rounded() / 10) megapixels); at most 64 megapixels after the scale"
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
