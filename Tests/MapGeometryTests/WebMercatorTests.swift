import Testing
@testable import MapGeometry

@Suite struct WebMercatorTests {
    @Test(arguments: [
        // (lat, lon, x, y): EPSG:3857 reference values.
        (0.0, 0.0, 0.0, 0.0),
        (0.0, 180.0, 20_037_508.342789244, 0.0),
        (0.0, -180.0, -20_037_508.342789244, 0.0),
        (45.0, 90.0, 10_018_754.171394622, 5_621_521.486192066),
        (85.05112878, 0.0, 0.0, 20_037_508.342789244),
        (-85.05112878, 0.0, 0.0, -20_037_508.342789244),
    ])
    func projectsKnownValues(lat: Double, lon: Double, x: Double, y: Double) {
        let point = WebMercator.project(latitudeDegrees: lat, longitudeDegrees: lon)
        #expect(abs(point.xMeters - x) < 1e-3 && abs(point.yMeters - y) < 1e-2, "\(point)")
    }

    @Test func clampsThePoles() {
        let pole = WebMercator.project(latitudeDegrees: 90, longitudeDegrees: 0)
        #expect(abs(pole.yMeters - 20_037_508.342789244) < 1e-2)
    }

    @Test func unprojectInvertsProject() {
        let point = WebMercator.project(latitudeDegrees: 47.3769, longitudeDegrees: 8.5417)
        let back = WebMercator.unproject(point)
        #expect(abs(back.latitudeDegrees - 47.3769) < 1e-12 && abs(back.longitudeDegrees - 8.5417) < 1e-12)
    }

    @Test func unwrapsOnlyWhenShorter() {
        #expect(LongitudeUnwrapping(longitudes: [179.9, -179.9]).shiftsWesternLongitudes)
        #expect(!LongitudeUnwrapping(longitudes: [-0.1, 0.1]).shiftsWesternLongitudes)
        #expect(!LongitudeUnwrapping(longitudes: [8.5]).shiftsWesternLongitudes)
    }
}

@Suite struct RoadWidthTests {
    @Test func followsMapKitsMeasurements() {
        // Web zoom 20 … 11 → 21, 16, 15, 12, 11, 9, 7, 6, 6, 4 points (iOS 6 measurement); the fit
        // stays within 2 points of every measured value.
        let measured: [Double] = [21, 16, 15, 12, 11, 9, 7, 6, 6, 4]
        for (index, width) in measured.enumerated() {
            let zoom = 20 - index
            let metersPerPoint = 2 * WebMercator.halfWorldMeters / (256 * Double(1 << zoom))
            #expect(abs(RoadWidth.strokeWidthPoints(metersPerPoint: metersPerPoint) - width) <= 2.0, "zoom \(zoom)")
        }
    }

    @Test func isClamped() {
        #expect(RoadWidth.strokeWidthPoints(metersPerPoint: 1e6) == 4)
        #expect(RoadWidth.strokeWidthPoints(metersPerPoint: 1e-6) == 21)
    }
}
