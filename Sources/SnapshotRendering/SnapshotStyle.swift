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
