import MapGeometry
import TrackModel

/// The fitted viewport and the stroke width that goes with its zoom.
struct FramePlan {
    /// The map rectangle and pixel transform.
    var viewport: Viewport
    /// The route stroke width in device pixels.
    var strokeWidthPixels: Double
    /// The casing's total width in device pixels (0 when there is none).
    var casingWidthPixels: Double
    /// Marker radius in device pixels (0 when there are none).
    var markerRadiusPixels: Double
    /// Latitude used for ground distances (grid spacing).
    var latitudeDegrees: Double

    /// Fits the viewport. The stroke width depends on the zoom and the padding on the stroke width,
    /// so this fits twice: zooming out can only narrow the stroke, so the padding from the first
    /// width always holds the final one.
    init(projection: ProjectedTrack, options: RenderOptions) {
        let style = options.style
        var fitting = ViewportFitting(widthPixels: options.widthPixels, heightPixels: options.heightPixels)
        fitting.paddingFraction = options.paddingFraction
        fitting.minimumGroundSpanMeters = options.minimumGroundSpanMeters
        func widths(_ viewport: Viewport) -> (stroke: Double, casing: Double, marker: Double) {
            let strokePoints = style.strokeWidthPoints ?? RoadWidth.strokeWidthPoints(metersPerPoint: viewport.metersPerPixel * options.scale)
            let stroke = strokePoints * options.scale
            let casing = style.drawsCasing ? stroke + style.casingExtraWidthPoints * options.scale : 0
            let marker = style.drawsMarkers ? max(style.markerRadiusPoints * options.scale, style.markerRadiusPerStrokeWidth * stroke) : 0
            return (stroke, casing, marker)
        }
        var viewport = fitting.fit(projection.bounds, latitudeDegrees: projection.centerLatitudeDegrees)
        var sizes = widths(viewport)
        // + 1 point for the anti-aliased fringe. Everything here scales with `scale`, so @1x and @2x
        // show exactly the same map rectangle (what `srcset` swapping needs).
        fitting.extraPaddingPixels = max(sizes.stroke / 2, sizes.casing / 2, sizes.marker) + options.scale
        viewport = fitting.fit(projection.bounds, latitudeDegrees: projection.centerLatitudeDegrees)
        sizes = widths(viewport)
        self.viewport = viewport
        strokeWidthPixels = sizes.stroke
        casingWidthPixels = sizes.casing
        markerRadiusPixels = sizes.marker
        latitudeDegrees = projection.centerLatitudeDegrees
    }
}
