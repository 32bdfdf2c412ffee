import Testing
import MapGeometry
@testable import Raster

@Suite struct GridPainterTests {
    @Test(arguments: [(0.7, 1.0, 5.0), (1.0, 1.0, 5.0), (1.5, 2.0, 10.0), (3.0, 5.0, 10.0), (420.0, 500.0, 1000.0), (1_001.0, 2_000.0, 10_000.0)])
    func picksRoundSpacings(minimum: Double, minor: Double, major: Double) {
        let spacing = GridSpacing(minimumMeters: minimum)
        #expect(spacing.minorMeters == minor && spacing.majorMeters == major)
    }

    @Test func drawsSubtleLinesAtRoundGroundDistancesOverPaper() {
        let rect = MapRect(minX: 0, minY: 0, maxX: 2_560, maxY: 2_560)  // 10 m per pixel at the equator
        let viewport = Viewport(mapRect: rect, widthPixels: 256, heightPixels: 256)
        let style = GridStyle()
        var canvas = Canvas(width: 256, height: 256, fill: RGBAColor(red: 0, green: 0, blue: 0))
        let spacing = GridPainter.paint(&canvas, viewport: viewport, latitudeDegrees: 0, style: style, scale: 1)
        // 24 px minimum at 10 m/px → 500 m minor lines (50 px), 1 km major lines.
        #expect(spacing.minorMeters == 500 && spacing.majorMeters == 1_000)
        #expect(canvas.color(x: 25, y: 25) == style.paper)
        // A major line at x = 1000 m = pixel 100 (boundary between columns 99 and 100).
        let onLine = canvas.color(x: 100, y: 25)
        #expect(onLine != style.paper)
        #expect(Int(style.paper.red) - Int(onLine.red) < 40, "lines stay subtle")
        #expect(canvas.color(x: 25, y: 25).alpha == 255)
    }
}
