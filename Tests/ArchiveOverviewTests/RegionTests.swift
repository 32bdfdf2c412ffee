import MapGeometry
import PNGEncoding
import Raster
import Testing

@testable import ArchiveOverview

/// A straight route `lengthMeters` east from a point, as a track's route.
private func route(_ id: String, latitude: Double, longitude: Double, eastMeters: Double = 3000, northMeters: Double = 800) -> OverviewRoute {
    let start = WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: longitude)
    let factor = WebMercator.scaleFactor(atLatitudeDegrees: latitude)
    let points = [
        start, MercatorPoint(xMeters: start.xMeters + eastMeters * factor, yMeters: start.yMeters),
        MercatorPoint(xMeters: start.xMeters + eastMeters * factor, yMeters: start.yMeters + northMeters * factor),
    ]
    return OverviewRoute(id: id, segments: [points], distanceMeters: eastMeters + northMeters, startTime: nil)!
}

/// Degrees of longitude for `meters` east at `latitude`.
private func degreesEast(_ meters: Double, latitude: Double) -> Double {
    meters / (WebMercator.radiusMeters * Double.pi / 180) * WebMercator.scaleFactor(atLatitudeDegrees: latitude)
}

@Suite struct RegionTests {
    @Test func tracksWithinTheGapChainIntoOneRegionAndFarOnesStayApart() {
        let latitude = 47.0
        let tracks = [
            route("a", latitude: latitude, longitude: 9.5),
            // 40 km east of a's end, then 40 km further: a chain of gaps under 50 km.
            route("b", latitude: latitude, longitude: 9.5 + degreesEast(43_000, latitude: latitude)),
            route("far", latitude: latitude, longitude: 12.5),
            route("c", latitude: latitude, longitude: 9.5 + degreesEast(86_000, latitude: latitude)),
            route("sf", latitude: 37.77, longitude: -122.45),
        ]
        let regions = RegionGrouping.regions(of: tracks.map(\.bounds), gapMeters: 50_000)
        #expect(regions == [[0, 1, 3], [2], [4]])
        #expect(RegionGrouping.regions(of: tracks.map(\.bounds), gapMeters: 30_000) == [[0], [1], [2], [3], [4]])
    }

    @Test func manyTracksInOneCityAreOneRegionAndAFarOneIsAnother() {
        let city = route("a", latitude: 47, longitude: 9.5).bounds
        let extents = Array(repeating: city, count: 5000) + [route("far", latitude: 40, longitude: -3.7).bounds] + Array(repeating: city, count: 5000)
        let regions = RegionGrouping.regions(of: extents, gapMeters: 50_000)
        #expect(regions.count == 2)
        #expect(regions[0].count == 10_000 && regions[1] == [5000])
    }

    /// Against the definition, by brute force: regions are the finest grouping in which no two
    /// regions' grown extents overlap (groups whose unions overlap merged until none do).
    @Test func scatteredTracksGroupAsTheBruteForceClosureOfOverlapsDoes() {
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for trial in 0..<20 {
            let count = 20 + trial * 7
            let extents = (0..<count).map { _ in
                route("t", latitude: 46 + next() * 2, longitude: 8 + next() * 3, eastMeters: 500 + next() * 20_000, northMeters: 500 + next() * 9_000)
                    .bounds
            }
            let gap = 5_000 + Double(trial) * 1_000
            let grown = extents.map { rect -> MapRect in
                let margin = gap / 2 * WebMercator.scaleFactor(atLatitudeDegrees: WebMercator.unproject(rect.center).latitudeDegrees)
                return MapRect(minX: rect.minX - margin, minY: rect.minY - margin, maxX: rect.maxX + margin, maxY: rect.maxY + margin)
            }
            var groups = grown.indices.map { ([$0], grown[$0]) }
            func overlaps(_ a: MapRect, _ b: MapRect) -> Bool { a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY }
            var merged = true
            while merged {
                merged = false
                search: for first in groups.indices {
                    for second in groups.indices where second > first && overlaps(groups[first].1, groups[second].1) {
                        groups[first] = (groups[first].0 + groups[second].0, union(groups[first].1, groups[second].1))
                        groups.remove(at: second)
                        merged = true
                        break search
                    }
                }
            }
            let expected = groups.map { $0.0.sorted() }.sorted { $0[0] < $1[0] }
            #expect(RegionGrouping.regions(of: extents, gapMeters: gap) == expected, "trial \(trial)")
        }
    }

    @Test func aCityRegionGetsTheDetailSizeAndALargeOneGrowsWithinTheBudget() {
        let options = OverviewOptions()
        let city = RegionFrame(fitting: route("a", latitude: 47, longitude: 9.5).bounds, options: options)
        #expect(city.widthPoints == 1280 && city.heightPoints == 960)
        #expect(city.groundMetersPerPoint <= options.streetMetersPerPoint)
        let wide = RegionFrame(fitting: route("w", latitude: 47, longitude: 9.5, eastMeters: 60_000, northMeters: 40_000).bounds, options: options)
        #expect(wide.widthPoints > 1280)
        #expect(options.stateBytes(widthPoints: wide.widthPoints, heightPoints: wide.heightPoints) <= options.maximumStateBytes)
        #expect(wide.contains(route("w", latitude: 47, longitude: 9.5, eastMeters: 60_000, northMeters: 40_000).bounds))
        var small = OverviewOptions()
        small.maximumStateBytes = 8 << 20
        let capped = RegionFrame(fitting: route("w", latitude: 47, longitude: 9.5, eastMeters: 60_000, northMeters: 40_000).bounds, options: small)
        #expect(capped.widthPoints == 1280)
        let tall = RegionFrame(fitting: route("t", latitude: 47, longitude: 9.5, eastMeters: 800, northMeters: 3000).bounds, options: options)
        #expect(tall.widthPoints == 960 && tall.heightPoints == 1280)
    }

    @Test func addingThenRemovingATrackLeavesThePicturesByteIdentical() throws {
        var options = OverviewOptions()
        options.widthPoints = 320
        options.heightPoints = 240
        let routes = (0..<4).map { route("t\($0)", latitude: 47, longitude: 9.5 + 0.004 * Double($0), northMeters: 600 + 100 * Double($0)) }
        var region = RegionOverview(routes: routes, options: options)
        let before = try options.scales.indices.map { try region.png(scaleIndex: $0) }
        let grids = region.grids, distance = region.distanceMeters
        let extra = route("x", latitude: 47.001, longitude: 9.501, eastMeters: 1200.4, northMeters: 300)
        #expect(region.fits(extra))
        region.add(extra)
        #expect(region.trackCount == 5)
        #expect(try region.png(scaleIndex: 1) != before[1])
        region.subtract(extra)
        #expect(region.grids == grids)
        #expect(region.distanceMeters == distance)
        #expect(try options.scales.indices.map { try region.png(scaleIndex: $0) } == before)
    }

    @Test func thePictureShowsPaperWhereNoTrackWentAndTheRampWhereOneDid() throws {
        var options = OverviewOptions()
        options.widthPoints = 200
        options.heightPoints = 150
        options.scales = [1]
        let region = RegionOverview(routes: [route("a", latitude: 47, longitude: 9.5)], options: options)
        let canvas = try PNGDecoder.decode(try region.png(scaleIndex: 0))
        let grid = region.grids[0]
        let ramp = DensityRamp(), palette = ramp.palette()
        var drawn = 0
        for y in 0..<grid.height {
            for x in 0..<grid.width where grid.count(x: x, y: y) > 0 {
                #expect(canvas.color(x: x, y: y) == palette[ramp.level(count: 1, maximum: 1)])
                drawn += 1
            }
        }
        #expect(drawn > 100)
        var emptyCanvas = IndexedCanvas()
        DensityPainter.paint(
            DensityGrid(width: grid.width, height: grid.height), viewport: region.frame.viewport(scale: 1),
            latitudeDegrees: region.frame.latitudeDegrees, scale: 1, into: &emptyCanvas)
        let empty = emptyCanvas.expanded()
        for y in 0..<grid.height {
            for x in 0..<grid.width where grid.count(x: x, y: y) == 0 { #expect(canvas.color(x: x, y: y) == empty.color(x: x, y: y)) }
        }
    }

    @Test func everyLevelOfTheRampKeepsItsOwnColourInThePicture() throws {
        // Pixels at every count 1...640 (the top of the scale for that largest count: every level reached), read back from the PNG.
        var grid = DensityGrid(width: 640, height: 2)
        var tracer = FootprintTracer(width: 640, height: 2)
        for count in 1...640 {
            grid.add(tracer.trace([[PixelPoint(x: Double(640 - count) + 0.5, y: 0.5), PixelPoint(x: 599.5, y: 0.5)]]))
        }
        let viewport = Viewport(mapRect: MapRect(minX: 0, minY: 0, maxX: 640, maxY: 2), widthPixels: 640, heightPixels: 2)
        let canvas = try PNGDecoder.decode(try DensityPainter.png(grid, viewport: viewport, latitudeDegrees: 0, scale: 1))
        let ramp = DensityRamp(), colors = ramp.palette()
        var levelsSeen: Set<Int> = []
        for x in 0..<640 {
            let level = ramp.level(count: grid.count(x: x, y: 0), maximum: 640)
            levelsSeen.insert(level)
            #expect(canvas.color(x: x, y: 0) == colors[level])
        }
        #expect(levelsSeen.count >= 40)  // all but levels 2...5, which lie between 1 and 2 tracks
        // Neighbouring levels differ by more than the palette's merge tolerance (2 levels of 255
        // below 64 entries), so no level can take another's entry in any picture.
        for (a, b) in zip(colors.dropFirst(), colors.dropFirst(2)) {
            #expect(max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue))) > 2)
        }
    }

    @Test func theRampIsLogLikeAndDarkensAsTheCountGrows() {
        let ramp = DensityRamp()
        #expect(ramp.level(count: 1, maximum: 500) == 1)
        #expect(ramp.level(count: 1, maximum: 500) < ramp.level(count: 2, maximum: 500))
        // The top is 640 (10 × 2⁶, `DensityRamp.topStep`): the largest count sits just below the last level.
        #expect(ramp.level(count: 500, maximum: 500) >= ramp.levels - 3 && ramp.level(count: 500, maximum: 500) < ramp.levels)
        #expect(ramp.level(count: 640, maximum: 500) == ramp.levels && ramp.level(count: 700, maximum: 500) == ramp.levels)
        // Log-like: two tracks are a tenth of the way up at 500, far above the linear 2/500.
        #expect(ramp.level(count: 2, maximum: 500) > ramp.levels / 10)
        // A few tracks are not drawn all in the hottest colour.
        #expect(ramp.level(count: 2, maximum: 2) < ramp.levels / 2)
        let palette = ramp.palette()
        #expect(palette.count == ramp.levels + 1)
        #expect(palette[1] == ramp.stops[0] && palette[ramp.levels] == ramp.stops[ramp.stops.count - 1])
        let lightness = palette.dropFirst().map { Oklab($0).lightness }
        #expect(lightness.first! > lightness.last! + 0.2)
    }
}
