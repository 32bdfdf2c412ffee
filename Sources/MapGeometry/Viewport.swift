/// The exact map rectangle an image shows, and the transform from Mercator metres to pixels.
public struct Viewport: Sendable, Equatable {
    /// The map rectangle covered by the whole image, edge to edge.
    public var mapRect: MapRect
    /// Image width in device pixels.
    public var widthPixels: Int
    /// Image height in device pixels.
    public var heightPixels: Int

    /// Creates a viewport; `mapRect` must have the image's aspect ratio.
    public init(mapRect: MapRect, widthPixels: Int, heightPixels: Int) {
        self.mapRect = mapRect
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
    }

    /// Mercator metres per device pixel (the same on both axes).
    public var metersPerPixel: Double { mapRect.width / Double(widthPixels) }

    /// The pixel position of a Mercator point (y flipped: north is up).
    @inlinable
    public func pixel(_ point: MercatorPoint) -> PixelPoint {
        let scale = Double(widthPixels) / mapRect.width
        return PixelPoint(x: (point.xMeters - mapRect.minX) * scale, y: (mapRect.maxY - point.yMeters) * scale)
    }

    /// The Mercator position of a pixel position.
    public func mercator(_ pixel: PixelPoint) -> MercatorPoint {
        let size = metersPerPixel
        return MercatorPoint(xMeters: mapRect.minX + pixel.x * size, yMeters: mapRect.maxY - pixel.y * size)
    }
}

/// How a viewport is fitted around a track.
public struct ViewportFitting: Sendable, Equatable {
    /// Image width in device pixels.
    public var widthPixels: Int
    /// Image height in device pixels.
    public var heightPixels: Int
    /// Empty margin on each side as a fraction of the frame's width (left/right) and height
    /// (top/bottom). Default: 0.1.
    public var paddingFraction: Double = 0.1
    /// Further margin on each side in pixels, e.g. half the stroke width so it is never clipped.
    /// Default: 0.
    public var extraPaddingPixels: Double = 0
    /// The smallest ground distance the shorter side of the padded area spans, in metres, so a
    /// single fix or a tiny loop renders at a sensible zoom. Default: 200.
    public var minimumGroundSpanMeters: Double = 200

    /// Creates fitting settings for an image size; other values take their defaults.
    public init(widthPixels: Int, heightPixels: Int) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
    }

    /// The viewport that shows `bounds` centred, at the image's aspect ratio, with the padding.
    /// `latitudeDegrees` (usually the track's centre) converts the minimum ground span to metres
    /// of Mercator.
    public func fit(_ bounds: MapRect, latitudeDegrees: Double) -> Viewport {
        let width = Double(widthPixels), height = Double(heightPixels)
        let padding = min(max(paddingFraction, 0), 0.45)
        let usableWidth = max(1, width * (1 - 2 * padding) - 2 * extraPaddingPixels)
        let usableHeight = max(1, height * (1 - 2 * padding) - 2 * extraPaddingPixels)
        let minimumSpan = minimumGroundSpanMeters * WebMercator.scaleFactor(atLatitudeDegrees: latitudeDegrees)
        // The minimum span applies to the shorter usable side; the other side follows the aspect.
        let shorterSide = min(usableWidth, usableHeight)
        var metersPerPixel = max(bounds.width / usableWidth, bounds.height / usableHeight)
        metersPerPixel = max(metersPerPixel, minimumSpan / shorterSide)
        let center = bounds.center
        let halfWidth = width * metersPerPixel / 2, halfHeight = height * metersPerPixel / 2
        let rect = MapRect(
            minX: center.xMeters - halfWidth, minY: center.yMeters - halfHeight,
            maxX: center.xMeters + halfWidth, maxY: center.yMeters + halfHeight)
        return Viewport(mapRect: rect, widthPixels: widthPixels, heightPixels: heightPixels)
    }
}
