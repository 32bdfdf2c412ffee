import MapGeometry
import PNGEncoding
import Raster
import Testing

@testable import ArchiveOverview

/// A square loop of `sideMeters` whose south-west corner is `eastMeters` east and `northMeters`
/// north of a point in Zürich.
private func loop(_ id: String, eastMeters: Double, northMeters: Double, sideMeters: Double = 400) -> OverviewRoute {
    let latitude = 47.37
    let origin = WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: 8.54)
    let factor = WebMercator.scaleFactor(atLatitudeDegrees: latitude)
    let corners = [(0.0, 0.0), (1, 0), (1, 1), (0, 1), (0, 0)].map { x, y in
        MercatorPoint(
            xMeters: origin.xMeters + (eastMeters + x * sideMeters) * factor, yMeters: origin.yMeters + (northMeters + y * sideMeters) * factor)
    }
    return OverviewRoute(id: id, segments: [corners], distanceMeters: 4 * sideMeters, startTime: nil)!
}

/// A city of loops spread over 8 km, each track a few times over some streets.
private func city(_ count: Int) -> [OverviewRoute] {
    var state: UInt64 = 11
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { index in
        // Every fourth loop on one of a few busy squares, so counts pile up there.
        index % 4 == 0
            ? loop("t\(index)", eastMeters: Double(index % 3) * 100, northMeters: 0)
            : loop("t\(index)", eastMeters: next() * 8000, northMeters: next() * 8000, sideMeters: 200 + next() * 600)
    }
}

@Suite struct PictureTilingTests {
    /// The tiles of an odd-sized picture cover every pixel once at every scale, and each tile's
    /// PNG is the PNG of exactly its pixels in the picture's palette.
    @Test func tilesAddUpToTheWholePicturePixelForPixel() throws {
        var options = OverviewOptions()
        options.widthPoints = 700
        options.heightPoints = 530
        let region = RegionOverview(routes: city(60), options: options)
        var encoder = PalettePNGEncoder()
        for (scaleIndex, scale) in region.scales.enumerated() {
            let canvas = region.canvas(scaleIndex: scaleIndex)
            let tiling = PictureTiling(widthPoints: region.frame.widthPoints, heightPoints: region.frame.heightPoints, tilePoints: 320)
            #expect(tiling.count == 6 || tiling.count == 9)
            var covered = [Int](repeating: 0, count: canvas.width * canvas.height)
            for index in 0..<tiling.count {
                let rect = tiling.pixelRect(index, scale: scale, pixelWidth: canvas.width, pixelHeight: canvas.height)
                var alone = IndexedCanvas()
                alone.reset(width: rect.width, height: rect.height)
                alone.palette = canvas.palette
                for y in 0..<rect.height {
                    for x in 0..<rect.width {
                        covered[(rect.y + y) * canvas.width + rect.x + x] += 1
                        alone.indices[y * rect.width + x] = canvas.indices[(rect.y + y) * canvas.width + rect.x + x]
                    }
                }
                #expect(try tiling.png(index, of: canvas, scale: scale, encoder: &encoder) == (try encoder.encode(alone)))
            }
            #expect(covered.allSatisfy { $0 == 1 }, "scale \(scale): every pixel in exactly one tile")
        }
    }

    /// A track added to a busy city changes the digests of the tiles it passes and of no other;
    /// taking it away gives every digest back.
    @Test func aNewTrackChangesOnlyTheTilesItPasses() {
        var region = RegionOverview(routes: city(400), options: OverviewOptions())
        let tiling = PictureTiling(widthPoints: region.frame.widthPoints, heightPoints: region.frame.heightPoints, tilePoints: 320)
        #expect(tiling.count == 12)
        func digests() -> [[UInt64]] {
            region.scales.indices.map { region.tiledImage(scaleIndex: $0, tilePoints: 320, labelScale: 1, basemap: nil).digests }
        }
        let before = digests()
        #expect(Set(before[0]).count == tiling.count, "every tile of the city differs from the others")
        let new = loop("new", eastMeters: 6500, northMeters: 6500, sideMeters: 300)
        region.add(new)
        let after = digests()
        for (scaleIndex, scale) in region.scales.enumerated() {
            let viewport = region.frame.viewport(scale: scale)
            let box = new.pixelSegments(in: viewport).joined().reduce(
                into: (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
            ) {
                box, point in box = (min(box.minX, point.x), min(box.minY, point.y), max(box.maxX, point.x), max(box.maxY, point.y))
            }
            let changed = (0..<tiling.count).filter { before[scaleIndex][$0] != after[scaleIndex][$0] }
            let passed = (0..<tiling.count).filter { index in
                let rect = tiling.pixelRect(index, scale: scale, pixelWidth: viewport.widthPixels, pixelHeight: viewport.heightPixels)
                return box.maxX >= Double(rect.x) - 1 && box.minX <= Double(rect.x + rect.width) + 1 && box.maxY >= Double(rect.y) - 1
                    && box.minY <= Double(rect.y + rect.height) + 1
            }
            #expect(
                !changed.isEmpty && Set(changed).isSubset(of: passed) && passed.count < tiling.count / 2, "scale \(scale): \(changed) of \(passed)")
        }
        region.subtract(new)
        #expect(digests() == before)
    }

    /// The scale's top moves only when the largest count passes a step of its series (10, 20,
    /// 40, …), so the levels of every other pixel stay as they were while a street gains tracks.
    @Test func theRampsTopMovesOnlyAtItsSteps() {
        let ramp = DensityRamp()
        #expect((0...10).allSatisfy { ramp.top(forMaximum: UInt32($0)) == 10 })
        #expect((11...20).allSatisfy { ramp.top(forMaximum: UInt32($0)) == 20 })
        #expect(ramp.top(forMaximum: 21) == 40 && ramp.top(forMaximum: 1000) == 1280 && ramp.top(forMaximum: .max) == .max)
        #expect((11...20).allSatisfy { ramp.level(count: 7, maximum: UInt32($0)) == ramp.level(count: 7, maximum: 20) })
        #expect(ramp.level(count: 7, maximum: 21) < ramp.level(count: 7, maximum: 20))
        var exact = DensityRamp()
        exact.topStep = 1
        #expect(exact.top(forMaximum: 37) == 37 && exact.level(count: 37, maximum: 37) == exact.levels)
    }
}
