import MapTiles
import SnapshotRendering
import Testing
import TileSources
import TrackSynthesis

/// Issue 21 item 6: MBTiles metadata is outside input. `bounds` of `7,46,1e20,47` or `-1e308,…`
/// crashed the worker (an unchecked conversion to a tile number); zooms were taken as given.
/// Random and extreme metadata must give a clear refusal naming the field, or a description a
/// render can use without trapping.
struct MetadataFuzzTests {
    static let numbers = [
        "0", "-0", "7", "46", "47", "180", "-180", "181", "85.06", "-90", "90", "1e20", "-1e20", "1e308", "-1e308", "1e400", "nan",
        "inf", "5e-324", "", " ", "x", "9223372036854775807", "-9223372036854775808", "30", "31", "-1", "22", "1e2",
    ]

    static func randomNumber(_ generator: inout SplitMix64) -> String {
        if Bool.random(using: &generator) { return numbers.randomElement(using: &generator)! }
        return "\(Double.random(in: -400...400, using: &generator))"
    }

    /// The bounds that crashed, then random ones: drawn over (through the renderer, with tiles
    /// made in memory) they either clamp to the world or are ignored.
    @Test func outsideBoundsAreClampedToTheWorld() throws {
        var generator = SplitMix64(seed: 20261125)  // fixed: a failure is reproducible
        var cases = ["7,46,1e20,47", "-1e308,46,8,47", "7,-1e308,8,1e308", "-1e20,-1e20,1e20,1e20", "7,46,8", "7,46,8,47,9", "8,46,7,47"]
        for _ in 0..<40 { cases.append((0..<4).map { _ in Self.randomNumber(&generator) }.joined(separator: ",")) }
        for bounds in cases {
            let description = try MBTilesSource.description(metadata: ["bounds": bounds], tableZooms: 0...18)
            if let clamped = description.boundsLonLat {
                #expect(clamped.count == 4 && clamped[0] >= -180 && clamped[2] <= 180 && clamped[0] < clamped[2], "\(bounds): \(clamped)")
                #expect(clamped[1] >= -85.06 && clamped[3] <= 85.06 && clamped[1] < clamped[3], "\(bounds): \(clamped)")
            }
            // The renderer reads a provider's description as given: it must cope with raw bounds too.
            let raw = bounds.split(separator: ",").compactMap { Double($0) }
            for declared in [description.boundsLonLat, raw] {
                let tiles = GeneratedTiles(maximumZoom: 18, boundsLonLat: declared)
                let snapshot = try SnapshotRenderer.render(
                    track: straightTrack(from: (46.5, 7.2), to: (46.6, 7.4)), options: backgroundOnlyOptions(width: 64, height: 48, scale: 1),
                    tiles: tiles)
                #expect(snapshot.info.basemap != nil, "\(bounds)")
            }
        }
    }

    @Test func zoomsOutsideZeroToThirtyAreRefusedByName() throws {
        var generator = SplitMix64(seed: 20261126)  // fixed: a failure is reproducible
        for _ in 0..<300 {
            var metadata: [String: String] = [:]
            for field in ["minzoom", "maxzoom", "bounds", "center"] where Bool.random(using: &generator) {
                metadata[field] =
                    field == "bounds" || field == "center"
                    ? (0..<(field == "bounds" ? 4 : 3)).map { _ in Self.randomNumber(&generator) }.joined(separator: ",")
                    : Self.randomNumber(&generator)
            }
            let table: ClosedRange<Int>? =
                Bool.random(using: &generator) ? nil : [0...18, -5...40, 3...3, 100...200].randomElement(using: &generator)!
            do {
                let description = try MBTilesSource.description(metadata: metadata, tableZooms: table)
                #expect(
                    (0...30).contains(description.minimumZoom) && (0...30).contains(description.maximumZoom),
                    "\(metadata) \(String(describing: table))")
                #expect(description.minimumZoom <= description.maximumZoom, "\(metadata)")
                let tiles = GeneratedTiles(
                    minimumZoom: description.minimumZoom, maximumZoom: description.maximumZoom, boundsLonLat: description.boundsLonLat)
                for scale in [1.0, 4.0] {
                    _ = try SnapshotRenderer.render(
                        track: straightTrack(from: (46.5, 7.2), to: (46.5001, 7.2001)),
                        options: backgroundOnlyOptions(width: 64, height: 48, scale: scale),
                        tiles: tiles)
                }
            } catch let problem as TileProblem {
                let text = problem.description
                #expect(text.contains("minzoom") || text.contains("maxzoom"), "\(metadata): \(text)")
                #expect(text.contains("0 to 30") || text.contains("above maxzoom"), "\(metadata): \(text)")
            }
        }
    }

    /// The file itself: an MBTiles whose metadata says `maxzoom` 99 is refused at open, naming it.
    @Test func anMBTilesWithAnImpossibleZoomIsRefusedAtOpen() throws {
        let folder = try temporaryFolder("zoom99")
        let path = folder + "/zoom99.mbtiles"
        let writer = try MBTilesWriter(path: path, metadata: ["format": "png", "minzoom": "0", "maxzoom": "99", "bounds": "7,46,1e20,47"])
        try writer.add(TileCoordinate(z: 9, x: 266, y: 180), bytes: TileSetMaker.encodedTile(TileCoordinate(z: 9, x: 266, y: 180), kind: .position))
        try writer.finish()
        #expect {
            _ = try BasemapOpener(tileCacheDirectory: folder).openSource(BasemapSettings(source: path))
        } throws: { "\($0)".contains(path) && "\($0)".contains("maxzoom is '99'") && "\($0)".contains("0 to 30") }
    }
}
