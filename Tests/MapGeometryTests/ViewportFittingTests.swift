import Testing
@testable import MapGeometry

@Suite struct ViewportFittingTests {
    private let zurich = WebMercator.project(latitudeDegrees: 47.37, longitudeDegrees: 8.54)

    private func box(width: Double, height: Double) -> MapRect {
        MapRect(minX: zurich.xMeters, minY: zurich.yMeters, maxX: zurich.xMeters + width, maxY: zurich.yMeters + height)
    }

    @Test func matchesTheImageAspectAndCentresTheTrack() {
        let bounds = box(width: 10_000, height: 2_000)
        let viewport = ViewportFitting(widthPixels: 640, heightPixels: 480).fit(bounds, latitudeDegrees: 47.37)
        #expect(abs(viewport.mapRect.width / viewport.mapRect.height - 640.0 / 480.0) < 1e-12)
        #expect(abs(viewport.mapRect.center.xMeters - bounds.center.xMeters) < 1e-6)
        #expect(abs(viewport.mapRect.center.yMeters - bounds.center.yMeters) < 1e-6)
    }

    @Test func padsByTheFractionPlusExtraPixelsOnTheBindingAxis() {
        var fitting = ViewportFitting(widthPixels: 512, heightPixels: 512)
        fitting.paddingFraction = 0.1
        fitting.extraPaddingPixels = 6
        let bounds = box(width: 10_000, height: 2_000)
        let viewport = fitting.fit(bounds, latitudeDegrees: 47.37)
        let left = viewport.pixel(MercatorPoint(xMeters: bounds.minX, yMeters: bounds.minY))
        let right = viewport.pixel(MercatorPoint(xMeters: bounds.maxX, yMeters: bounds.maxY))
        #expect(abs(left.x - (51.2 + 6)) < 1e-9)
        #expect(abs(right.x - (512 - 51.2 - 6)) < 1e-9)
        #expect(right.y > 51.2 + 6 && left.y < 512 - 51.2 - 6)
    }

    @Test func enforcesTheMinimumGroundSpanForASingleFix() {
        let bounds = MapRect(minX: zurich.xMeters, minY: zurich.yMeters, maxX: zurich.xMeters, maxY: zurich.yMeters)
        var fitting = ViewportFitting(widthPixels: 400, heightPixels: 300)
        fitting.minimumGroundSpanMeters = 200
        let viewport = fitting.fit(bounds, latitudeDegrees: 47.37)
        // The padded area's shorter side (300 · 0.8 px) spans 200 ground metres.
        let groundPerPixel = viewport.metersPerPixel / WebMercator.scaleFactor(atLatitudeDegrees: 47.37)
        #expect(abs(groundPerPixel * 240 - 200) < 1e-6)
        let center = viewport.pixel(zurich)
        #expect(abs(center.x - 200) < 1e-9 && abs(center.y - 150) < 1e-9)
    }

    @Test func fitsAnAntimeridianCrossingOnItsShortSide() {
        let longitudes = [179.9, 179.95, -179.95, -179.9]
        let unwrapping = LongitudeUnwrapping(longitudes: longitudes)
        let points = longitudes.map { WebMercator.project(latitudeDegrees: -16.8, longitudeDegrees: unwrapping.apply($0)) }
        let bounds = MapRect(bounding: points)!
        let viewport = ViewportFitting(widthPixels: 512, heightPixels: 512).fit(bounds, latitudeDegrees: -16.8)
        // 0.2° of longitude, not 359.8°.
        #expect(abs(bounds.width - 0.2 * WebMercator.halfWorldMeters / 180) < 1e-3)
        let pixels = points.map(viewport.pixel)
        #expect(pixels.allSatisfy { $0.x >= 0 && $0.x <= 512 })
        #expect(zip(pixels, pixels.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    /// Issue 21 item 8: a 2,400-fix track near Reykjavík (−21.78° to −21.69°) was unwrapped by a
    /// whole world (viewport x 37,648,386 to 37,661,638) because the shifted span computes a hair
    /// smaller in floating point.
    @Test(arguments: [(-21.78, -21.69, 64.2), (-122.52, -122.38, 37.77), (8.5, 8.6, 47.37)])
    func keepsATrackOnOneSideOfTheAntimeridianInTheWorld(west: Double, east: Double, latitude: Double) {
        let longitudes = (0..<2400).map { west + (east - west) * Double($0) / 2399 }
        let unwrapping = LongitudeUnwrapping(longitudes: longitudes)
        #expect(!unwrapping.shiftsWesternLongitudes)
        let points = longitudes.map { WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: unwrapping.apply($0)) }
        let viewport = ViewportFitting(widthPixels: 512, heightPixels: 512).fit(MapRect(bounding: points)!, latitudeDegrees: latitude)
        #expect(viewport.mapRect.minX > -WebMercator.halfWorldMeters && viewport.mapRect.maxX < WebMercator.halfWorldMeters)
        let centre = WebMercator.unproject(viewport.mapRect.center)
        #expect(abs(centre.longitudeDegrees - (west + east) / 2) < 1e-9)
    }
}
