import MapGeometry
import MapTiles
import SnapshotRendering
import Testing
import TrackModel
import TrackSynthesis

/// Every background pixel shows the colour of its exact map position: tiles whose pixels encode
/// their global position (`SyntheticTiles.positionField`), rendered at several continuous zooms,
/// both scales and across the antimeridian, must land within 0.5 px, with no drift on average
/// (a half-pixel shift would show as a mean of ±0.5) and never a wrong tile.
struct AlignmentTests {
    static let cases: [(name: String, from: (Double, Double), to: (Double, Double))] = [
        ("city, 2 km", (47.370, 8.530), (47.385, 8.548)),
        ("region, 40 km", (46.90, 7.30), (47.20, 7.70)),
        ("country, 600 km", (44.0, 2.0), (48.5, 8.0)),
        ("across the antimeridian", (-17.5, 179.7), (-16.9, 180.4)),
    ]

    @Test(arguments: 0..<4, [1.0, 2.0])
    func backgroundPixelsShowTheirMapPosition(caseIndex: Int, scale: Double) throws {
        let (name, from, to) = Self.cases[caseIndex]
        let track = straightTrack(from: from, to: to)
        for (width, height) in [(320, 240), (500, 333)] {
            let tiles = GeneratedTiles()
            let options = backgroundOnlyOptions(width: width, height: height, scale: scale)
            let snapshot = try SnapshotRenderer.render(track: track, options: options, tiles: tiles)
            let report = try #require(snapshot.info.basemap)
            #expect(report.tilesFailed == 0 && report.tiles > 0, "\(name): \(report)")
            let error = try measureAlignment(snapshot)
            let label = "\(name) \(width)x\(height)@\(scale)x zoom \(report.zoom ?? -1)"
            #expect(error.checked > width * height / 2, "\(label): only \(error.checked) pixels checked")
            #expect(error.worstPixels <= 0.5, "\(label): worst \(error.worstPixels) px")
            #expect(
                abs(error.meanSignedX) < 0.05 && abs(error.meanSignedY) < 0.05, "\(label): mean shift \(error.meanSignedX), \(error.meanSignedY) px")
            #expect(error.tileChecked > 0 && error.wrongTiles == 0, "\(label): \(error.wrongTiles) of \(error.tileChecked) pixels from a wrong tile")
        }
    }

    /// Views where global pixel coordinates are large (tile zoom 15–18: tens of millions of
    /// source pixels, beyond Float's 24-bit mantissa) and the scale far from 1, at world
    /// positions on each side of the origin. Issue 21 item 9: a 2 km track near San Francisco at
    /// 400×300 @2x (zoom 17) showed the map 0.6 px off.
    static let farCases: [(name: String, from: (Double, Double), to: (Double, Double), width: Int, height: Int, scale: Double)] = [
        ("San Francisco, 2 km @2x", (37.770, -122.450), (37.785, -122.432), 400, 300, 2),
        ("San Francisco, 1 km @1x", (37.770, -122.450), (37.7775, -122.441), 400, 300, 1),
        ("San Francisco, 600 m @2x", (37.770, -122.450), (37.774, -122.445), 400, 300, 2),
        ("Tokyo, 1 km @2x", (35.680, 139.760), (35.688, 139.770), 400, 300, 2),
        ("Punta Arenas, 800 m @2x", (-53.165, -70.915), (-53.160, -70.905), 320, 240, 2),
        ("Auckland, 1.5 km @1.5x", (-36.860, 174.750), (-36.850, 174.765), 500, 333, 1.5),
        ("Reykjavik, 500 m @2x", (64.144, -21.945), (64.147, -21.937), 400, 300, 2),
    ]

    @Test(arguments: 0..<7)
    func backgroundPixelsShowTheirMapPositionAtHighZooms(caseIndex: Int) throws {
        let (name, from, to, width, height, scale) = Self.farCases[caseIndex]
        let snapshot = try SnapshotRenderer.render(
            track: straightTrack(from: from, to: to), options: backgroundOnlyOptions(width: width, height: height, scale: scale),
            tiles: GeneratedTiles())
        let report = try #require(snapshot.info.basemap)
        #expect(report.tilesFailed == 0 && report.tiles > 0, "\(name): \(report)")
        let error = try measureAlignment(snapshot)
        let label = "\(name) zoom \(report.zoom ?? -1)"
        #expect(report.zoom ?? 0 >= 15, "\(label): expected a high zoom")
        // In the world: a track west of Greenwich is not moved one world east (it was, when
        // adding 360° happened to round its longitude span down).
        let view = snapshot.info.viewportEpsg3857
        #expect(view[0] >= -WebMercator.halfWorldMeters && view[2] <= WebMercator.halfWorldMeters, "\(label): viewport \(view)")
        #expect(error.checked > width * height / 4, "\(label): only \(error.checked) pixels checked")
        #expect(error.worstPixels <= 0.5, "\(label): worst \(error.worstPixels) px")
        #expect(abs(error.meanSignedX) < 0.05 && abs(error.meanSignedY) < 0.05, "\(label): mean shift \(error.meanSignedX), \(error.meanSignedY) px")
        #expect(error.tileChecked > 0 && error.wrongTiles == 0, "\(label): \(error.wrongTiles) of \(error.tileChecked) pixels from a wrong tile")
    }

    /// A view closer than the source's highest zoom enlarges its tiles (bilinear) and stays
    /// aligned. One level over (tiles enlarged 1–2×), so the tiles' 8-bit steps stay finer than
    /// the 0.5 px asked for.
    @Test(arguments: [1.0, 2.0])
    func enlargedTilesStayAligned(scale: Double) throws {
        let track = straightTrack(from: (47.370, 8.530), to: (47.40, 8.57))
        let options = backgroundOnlyOptions(width: 320, height: 240, scale: scale)
        let natural = try SnapshotRenderer.render(track: track, options: options, tiles: GeneratedTiles()).info.basemap!.zoom!
        let snapshot = try SnapshotRenderer.render(track: track, options: options, tiles: GeneratedTiles(maximumZoom: natural - 1))
        #expect(snapshot.info.basemap?.zoom == natural - 1)
        let error = try measureAlignment(snapshot)
        #expect(error.worstPixels <= 0.5 && abs(error.meanSignedX) < 0.05, "worst \(error.worstPixels), mean \(error.meanSignedX)")
    }

    /// @2x asks for tiles one zoom higher than @1x of the same view.
    @Test func doubleScaleUsesTheNextZoom() throws {
        let track = straightTrack(from: (46.90, 7.30), to: (47.20, 7.70))
        let one = try SnapshotRenderer.render(
            track: track, options: backgroundOnlyOptions(width: 320, height: 240, scale: 1), tiles: GeneratedTiles())
        let two = try SnapshotRenderer.render(
            track: track, options: backgroundOnlyOptions(width: 320, height: 240, scale: 2), tiles: GeneratedTiles())
        #expect(two.info.basemap!.zoom! == one.info.basemap!.zoom! + 1)
    }
}
