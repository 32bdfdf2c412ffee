import MapTiles
import PNGEncoding
import Raster
import SnapshotRendering
import Testing

/// Where the attribution label sits on a map image.
@Suite struct AttributionLabelTests {
    /// The label keeps the scale bar's margin (6 pt) from the right and bottom edges, at @1x and
    /// @2x: at 2 pt it touched the frame of a card (issue 21 item 13).
    @Test(arguments: [1.0, 2.0])
    func theAttributionKeepsTheScaleBarsMarginFromTheEdges(scale: Double) throws {
        var options = backgroundOnlyOptions(width: 320, height: 240, scale: scale)
        options.basemap?.attribution = "Map data test"
        options.basemap?.opacity = 1
        let flat = GeneratedTiles { _, _, _ in (0..<256 * 256).flatMap { _ in [128, 128, 128, 255] as [UInt8] } }
        let snapshot = try SnapshotRenderer.render(
            track: straightTrack(from: (46.94, 7.44), to: (46.95, 7.45)), options: options, tiles: flat)
        let canvas = try PNGDecoder.decode(snapshot.png)
        let background = canvas.color(x: 0, y: 0)
        var rightmost = -1, lowest = -1
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas.color(x: x, y: y) != background {
                rightmost = max(rightmost, x)
                lowest = max(lowest, y)
            }
        }
        let margin = Int((6 * scale).rounded())
        #expect(rightmost >= 0, "no label was drawn")
        // The halo reaches one dot beyond the ink: the gap to the edge is at least the margin minus that dot.
        let dot = max(1, Int(scale.rounded()))
        #expect(canvas.width - 1 - rightmost >= margin - dot, "right gap \(canvas.width - 1 - rightmost) px, margin \(margin) px")
        #expect(canvas.height - 1 - lowest >= margin - dot, "bottom gap \(canvas.height - 1 - lowest) px, margin \(margin) px")
    }
}
