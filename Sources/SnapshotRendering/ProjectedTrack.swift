import MapGeometry
import TrackModel

/// A cleaned track in Web Mercator: one polyline per segment, longitudes unwrapped so a track
/// across the antimeridian stays one short piece, plus its bounds.
struct ProjectedTrack {
    /// Mercator points per segment.
    var segments: [[MercatorPoint]]
    /// Bounding rectangle of every point.
    var bounds: MapRect
    /// Latitude of the bounds' centre, for ground distances.
    var centerLatitudeDegrees: Double

    /// Projects every fix. The track must have at least one fix.
    init(_ track: Track) {
        var extremes = LongitudeExtremes()
        for segment in track.segments {
            for fix in segment.fixes { extremes.add(fix.longitudeDegrees) }
        }
        let unwrapping = LongitudeUnwrapping(extremes)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        segments = track.segments.map { segment in
            var points: [MercatorPoint] = []
            points.reserveCapacity(segment.fixes.count)
            for fix in segment.fixes {
                let point = WebMercator.project(latitudeDegrees: fix.latitudeDegrees, longitudeDegrees: unwrapping.apply(fix.longitudeDegrees))
                minX = min(minX, point.xMeters)
                maxX = max(maxX, point.xMeters)
                minY = min(minY, point.yMeters)
                maxY = max(maxY, point.yMeters)
                points.append(point)
            }
            return points
        }
        bounds = MapRect(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        centerLatitudeDegrees = WebMercator.unproject(bounds.center).latitudeDegrees
    }
}

extension ProjectedTrack {
    /// The bounds in degrees, `[west, south, east, north]`; longitudes back in -180...180, so west
    /// is greater than east when the track crosses the antimeridian.
    var boundsLonLat: [Double] {
        let southWest = WebMercator.unproject(MercatorPoint(xMeters: bounds.minX, yMeters: bounds.minY))
        let northEast = WebMercator.unproject(MercatorPoint(xMeters: bounds.maxX, yMeters: bounds.maxY))
        func wrap(_ longitude: Double) -> Double { longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude }
        return [wrap(southWest.longitudeDegrees), southWest.latitudeDegrees, wrap(northEast.longitudeDegrees), northEast.latitudeDegrees]
    }
}

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
