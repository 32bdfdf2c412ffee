#if canImport(Glibc)
import Glibc
#endif
import MapGeometry
import Testing

@testable import MapTiles

/// The zoom policy and the pixel ↔ source mapping of `TilePlan`, without any tile source.
struct TilePlanTests {
    private let worldMeters = 2 * WebMercator.halfWorldMeters

    /// A `width`×`height` view whose continuous zoom (for 256-px tiles) is `zoom`, west/north edge at the given metres.
    private func view(zoom: Double, width: Int = 512, height: Int = 384, west: Double = 0, north: Double = 0) -> Viewport {
        let metersPerPixel = worldMeters / (256 * pow(2, zoom))
        let rect = MapRect(
            minX: west, minY: north - Double(height) * metersPerPixel, maxX: west + Double(width) * metersPerPixel, maxY: north)
        return Viewport(mapRect: rect, widthPixels: width, heightPixels: height)
    }

    private func plan(_ viewport: Viewport, minimum: Int = 0, maximum: Int = 19, overzoom: Int = 2) -> Result<TilePlan, RefusalError> {
        var description = TileSourceDescription()
        description.minimumZoom = minimum
        description.maximumZoom = maximum
        return TilePlan.make(viewport: viewport, description: description, maximumOverzoomLevels: overzoom)
    }

    /// `TilePlan.nearestZoomBias`: the nearest zoom, tiles enlarged by at most √2 or shrunk by less.
    @Test func aViewBetweenZoomsUsesTheNearestZoom() throws {
        let below = try plan(view(zoom: 12.3)).get()
        #expect(below.zoom == 12)
        #expect(abs(below.sourcePixelsPerPixel - pow(2, 12 - 12.3)) < 1e-9)
        let above = try plan(view(zoom: 12.7)).get()
        #expect(above.zoom == 13)
        #expect(abs(above.sourcePixelsPerPixel - pow(2, 13 - 12.7)) < 1e-9)
        // Exactly half way: the lower zoom, enlarged √2 (never more).
        let half = try plan(view(zoom: 12.5)).get()
        #expect(half.zoom == 12 && abs(half.sourcePixelsPerPixel - 1 / 2.0.squareRoot()) < 1e-9)
        #expect(try plan(view(zoom: 12.51)).get().zoom == 13)
        // Nearest would be 12, below the source's lowest zoom 13: 13 shrunk by less than 2 instead.
        #expect(try plan(view(zoom: 12.3), minimum: 13).get().zoom == 13)
    }

    @Test func aViewAtExactlyAWholeZoomUsesThatZoomDespiteRounding() throws {
        let made = try plan(view(zoom: 12)).get()
        #expect(made.zoom == 12)
        #expect(abs(made.sourcePixelsPerPixel - 1) < 1e-9)
    }

    @Test func closerThanTheSourceAllowsIsEnlargedUpToTheOverzoomLimitThenRefused() throws {
        let enlarged = try plan(view(zoom: 16.5), maximum: 15, overzoom: 2).get()
        #expect(enlarged.zoom == 15)
        #expect(enlarged.sourcePixelsPerPixel < 1)
        guard case .failure(let refusal) = plan(view(zoom: 17.6), maximum: 15, overzoom: 2) else {
            Issue.record("a view three levels past the source's highest zoom was not refused")
            return
        }
        guard case .aboveMaximumZoom(let zoom, let maximum) = refusal.refusal else {
            Issue.record("refused for the wrong reason: \(refusal)")
            return
        }
        #expect(abs(zoom - 17.6) < 1e-9 && maximum == 15)
        #expect(refusal.description.contains("highest zoom 15"))
    }

    @Test func widerThanTheLowestZoomIsRefusedAndSaysTheGridIsDrawn() {
        guard case .failure(let refusal) = plan(view(zoom: 3.5), minimum: 6) else {
            Issue.record("a view wider than the lowest zoom was not refused")
            return
        }
        #expect(refusal.description.contains("lowest zoom 6"))
        #expect(refusal.description.hasSuffix("the grid is drawn"))
    }

    @Test func aDegenerateViewIsRefusedNotTrapped() {
        let empty = Viewport(mapRect: MapRect(minX: 0, minY: 0, maxX: 0, maxY: 0), widthPixels: 10, heightPixels: 10)
        guard case .failure = plan(empty) else {
            Issue.record("a view of zero metres per pixel got a plan")
            return
        }
    }

    @Test func theOriginIsTheViewsWestAndNorthEdgeInSourcePixels() throws {
        // The view's west edge at the prime meridian and north edge on the equator: at zoom z the
        // world is 256·2^z source pixels wide, so the origin is half of that on both axes.
        let made = try plan(view(zoom: 10, west: 0, north: 0)).get()
        #expect(abs(made.originX - Double(made.worldPixels) / 2) < 1e-6)
        #expect(abs(made.originY - Double(made.worldPixels) / 2) < 1e-6)
    }

    @Test(arguments: [0.37, 1.0, 1.5, 1.999])
    func theTapsOfEveryPixelWeighOneInTotal(scale: Double) {
        let made = TilePlan(zoom: 10, tilePixels: 256, sourcePixelsPerPixel: scale, originX: 1234.25, originY: 0)
        for pixel in 0..<40 {
            let taps = made.taps(forPixel: pixel, origin: made.originX)
            #expect(abs(taps.reduce(0) { $0 + $1.weight } - 1) < 1e-9, "pixel \(pixel) at scale \(scale)")
            #expect(taps.allSatisfy { $0.weight > 0 })
        }
    }

    @Test func shrinkingAveragesThePixelsFootprintAndEnlargingUsesTheTwoNearest() {
        let halved = TilePlan(zoom: 3, tilePixels: 256, sourcePixelsPerPixel: 2, originX: 0, originY: 0)
        let box = halved.taps(forPixel: 3, origin: 0)
        #expect(box.map(\.source) == [6, 7])
        #expect(box.map(\.weight) == [0.5, 0.5])
        // Enlarged twice: image pixel 4's centre (4.5) lands on source position 2.25, three
        // quarters of the way from source pixel 1's centre (1.5) to pixel 2's (2.5).
        let doubled = TilePlan(zoom: 3, tilePixels: 256, sourcePixelsPerPixel: 0.5, originX: 0, originY: 0)
        let bilinear = doubled.taps(forPixel: 4, origin: 0)
        #expect(bilinear.map(\.source) == [1, 2])
        #expect(abs(bilinear[0].weight - 0.25) < 1e-12 && abs(bilinear[1].weight - 0.75) < 1e-12)
    }
}
