#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MapGeometry

/// The map rectangle and size of a region's picture: its tracks' extent fitted like a snapshot's
/// (centred, padded, at the picture's aspect), at the smallest size (the detail snapshot's) when
/// that shows streets, else larger, until the counts would pass the memory budget.
///
/// How the memory grows: at most `maximumStateBytes`. Below it, a region's counts take
/// 4 bytes × Σ scale² × (its padded extent ÷ `streetMetersPerPoint`)², so they grow with the
/// region's area and with the square of the zoom (one zoom level more is 4×). At the budget the
/// picture stops growing and the resolution coarsens with the square root of the area instead.
package struct RegionFrame: Sendable, Equatable {
    /// Picture width in points.
    package var widthPoints: Int
    /// Picture height in points.
    package var heightPoints: Int
    /// The map rectangle the picture shows, edge to edge.
    package var mapRect: MapRect
    /// Latitude of the picture's centre, degrees (the grid's ground metres are measured there).
    package var latitudeDegrees: Double

    /// The frame for tracks whose extent is `bounds`: landscape at the options' size, or portrait
    /// (the sides swapped) for a region taller than it is wide.
    package init(fitting bounds: MapRect, options: OverviewOptions) {
        let center = WebMercator.unproject(bounds.center)
        latitudeDegrees = center.latitudeDegrees
        let groundPerMercator = 1 / WebMercator.scaleFactor(atLatitudeDegrees: latitudeDegrees)
        let portrait = bounds.height > bounds.width
        let baseWidth = portrait ? options.heightPoints : options.widthPoints
        let baseHeight = portrait ? options.widthPoints : options.heightPoints
        var width = baseWidth, height = baseHeight
        let smallest = Self.fit(bounds, width: width, height: height, latitude: latitudeDegrees, options: options)
        let groundPerPoint = smallest.metersPerPixel * groundPerMercator
        if groundPerPoint > options.streetMetersPerPoint {
            let wanted = groundPerPoint / options.streetMetersPerPoint
            let budget = (Double(options.maximumStateBytes) / Double(options.stateBytes(widthPoints: width, heightPoints: height))).squareRoot()
            var growth = min(wanted, budget)
            // Rounding a side up could pass the budget by a few pixels: shrink until it fits.
            repeat {
                width = Int((Double(baseWidth) * growth).rounded(.down))
                height = Int((Double(baseHeight) * growth).rounded(.down))
                growth *= 0.999
            } while options.stateBytes(widthPoints: width, heightPoints: height) > options.maximumStateBytes
        }
        widthPoints = max(width, baseWidth)
        heightPoints = max(height, baseHeight)
        mapRect = Self.fit(bounds, width: widthPoints, height: heightPoints, latitude: latitudeDegrees, options: options).mapRect
    }

    /// A frame from its parts (a kept state).
    init(widthPoints: Int, heightPoints: Int, mapRect: MapRect, latitudeDegrees: Double) {
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.mapRect = mapRect
        self.latitudeDegrees = latitudeDegrees
    }

    /// The viewport at `scale` device pixels per point.
    package func viewport(scale: Double) -> Viewport {
        Viewport(
            mapRect: mapRect, widthPixels: Int((Double(widthPoints) * scale).rounded()),
            heightPixels: Int((Double(heightPoints) * scale).rounded()))
    }

    /// Ground metres per point at the centre.
    package var groundMetersPerPoint: Double {
        mapRect.width / Double(widthPoints) / WebMercator.scaleFactor(atLatitudeDegrees: latitudeDegrees)
    }

    /// Whether `rect` lies wholly inside the picture.
    package func contains(_ rect: MapRect) -> Bool {
        rect.minX >= mapRect.minX && rect.maxX <= mapRect.maxX && rect.minY >= mapRect.minY && rect.maxY <= mapRect.maxY
    }

    private static func fit(_ bounds: MapRect, width: Int, height: Int, latitude: Double, options: OverviewOptions) -> Viewport {
        var fitting = ViewportFitting(widthPixels: width, heightPixels: height)
        fitting.paddingFraction = options.paddingFraction
        fitting.minimumGroundSpanMeters = options.minimumGroundSpanMeters
        return fitting.fit(bounds, latitudeDegrees: latitude)
    }
}
