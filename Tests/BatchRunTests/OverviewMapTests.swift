import ArchiveOverview
import BatchRun
import FileStore
import Foundation
import MapGeometry
import MapTiles
import Raster
import StyleFile
import Testing
import ThumbnailCache
import TrackSynthesis

/// The run's basemap under an overview picture (`OverviewMap`): map pixels where no track
/// passes, faded so no map pixel can pass for a heat colour; the ramp's exact colours where
/// tracks pass; the attribution in the corner; a stamp that changes with the map.
@Suite struct OverviewMapTests {
    /// A map of central Paris (generated tiles whose colour follows the position, at zoom 14,
    /// enlarged up to the picture's) and a region of two crossing tracks on it, one of them twice.
    private struct Scene {
        let root: String
        let mbtiles: String
        let region: RegionOverview
        var settings: BasemapSettings

        init() throws {
            root = NSTemporaryDirectory() + "tracksnap-overview-map-\(UUID().uuidString)"
            try FileStore.createDirectories([root])
            mbtiles = root + "/paris.mbtiles"
            _ = try TileSetMaker.writeMBTiles(
                mbtiles, kind: .position, boundsLonLat: [2.30, 48.83, 2.40, 48.88], zooms: 14...14, attribution: "© Test Map")
            func route(_ id: String, _ points: [(latitude: Double, longitude: Double)]) -> OverviewRoute {
                OverviewRoute(id: id, latitudeLongitudeSegments: [points], distanceMeters: 3_000, startTime: nil, toleranceGroundMeters: 0)!
            }
            // A small picture: the checks below visit every pixel, in a debug build.
            var options = OverviewOptions()
            options.widthPoints = 400
            options.heightPoints = 300
            region = RegionOverview(
                routes: [
                    route("east", [(48.850, 2.330), (48.858, 2.365)]), route("again", [(48.850, 2.330), (48.858, 2.365)]),
                    route("north", [(48.845, 2.350), (48.862, 2.348)]),
                ], options: options)
            settings = BasemapSettings(source: mbtiles)
            settings.contentStamp = "test"
        }

        func map(_ settings: BasemapSettings) -> OverviewMap {
            var configuration = RunConfiguration()
            configuration.jobsDirectory = root + "/Jobs"
            return configuration.makeOverviewMap(settings)
        }

        /// The @1x picture over `settings`' map, and the fade's merge tolerance.
        func picture(_ settings: BasemapSettings) -> (canvas: Canvas, problems: [String], tolerance: Int) {
            let viewport = region.frame.viewport(scale: 1)
            var tolerance = -1
            let picture = map(settings).draw(
                viewport: viewport, latitudeDegrees: region.frame.latitudeDegrees, labelScale: 1, mapColors: DensityPainter.mapColors()
            ) { canvas in
                tolerance = DensityPainter.paintHeat(region.grids[0], over: &canvas)
            }
            return (picture.canvas.expanded(), picture.problems, tolerance)
        }
    }

    @Test func tracksShowInTheRampsColoursOverAFadedMapWithItsAttribution() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.root) }
        let picture = scene.picture(scene.settings)
        #expect(picture.problems.isEmpty, "\(picture.problems)")
        // Raster tiles are reduced to the map's share of the palette first: their fade fits it exactly.
        #expect(picture.tolerance == 0)
        let canvas = picture.canvas, grid = scene.region.grids[0]
        let ramp = DensityRamp(), colors = ramp.palette()
        // The attribution's corner (bottom right) is left out of the per-pixel checks.
        func inCorner(_ x: Int, _ y: Int) -> Bool { x > canvas.width / 3 && y > canvas.height - 30 }
        var mapColors: Set<RGBAColor> = [], heatPixels = 0, twice = 0
        var wrongHeat: [(Int, Int)] = [], darkMap: [(Int, Int)] = []
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where !inCorner(x, y) {
                let color = canvas.color(x: x, y: y), count = grid.count(x: x, y: y)
                if count > 0 {
                    heatPixels += 1
                    if count == 2 { twice += 1 }
                    if color != colors[ramp.level(count: count, maximum: grid.maximumCount)] { wrongHeat.append((x, y)) }
                } else {
                    mapColors.insert(color)
                    // Faded: lighter in every channel than each ramp colour is in one of its own.
                    if min(color.red, color.green, color.blue) < 114 { darkMap.append((x, y)) }
                }
            }
        }
        #expect(heatPixels > 500 && twice > 200, "\(heatPixels) \(twice)")
        #expect(wrongHeat.isEmpty && darkMap.isEmpty, "\(wrongHeat.prefix(3)) \(darkMap.prefix(3))")
        // The grid paper alone is four shades; the map is terrain.
        #expect(mapColors.count > 50, "\(mapColors.count)")
        #expect(colors.dropFirst().allSatisfy { min($0.red, $0.green, $0.blue) < 114 })

        // The attribution: without it, only the bottom-right corner changes.
        var none = scene.settings
        none.attribution = ""
        let bare = scene.picture(none).canvas
        var changed: [(Int, Int)] = []
        for y in 0..<canvas.height {
            for x in 0..<canvas.width where canvas.color(x: x, y: y) != bare.color(x: x, y: y) { changed.append((x, y)) }
        }
        #expect(changed.count > 50 && changed.allSatisfy { inCorner($0.0, $0.1) }, "\(changed.count) \(changed.prefix(3))")
    }

    @Test func theStampChangesWithTheMapAndOnlyWithIt() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.root) }
        let stamp = scene.map(scene.settings).stamp
        #expect(scene.map(scene.settings).stamp == stamp)
        var replaced = scene.settings
        replaced.contentStamp = "another file"
        var fainter = scene.settings
        fainter.opacity = 0.5
        var styled = scene.settings
        styled.mapStyle = #"{"version": 8, "sources": {}, "layers": []}"#
        var credited = scene.settings
        credited.attribution = "© Someone else"
        let others = [replaced, fainter, styled, credited].map { scene.map($0).stamp }
        #expect(Set(others + [stamp]).count == 5)
    }

    @Test func aMissingBasemapDrawsTheGridAndSaysWhichFile() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.root) }
        var gone = scene.settings
        gone.source = scene.root + "/gone.mbtiles"
        let picture = scene.picture(gone)
        #expect(picture.problems.count == 1 && picture.problems[0].contains(gone.source), "\(picture.problems)")
        // Paper and grid: a handful of shades, besides the heat colours.
        var colors: Set<RGBAColor> = []
        for y in 0..<picture.canvas.height { for x in 0..<picture.canvas.width { colors.insert(picture.canvas.color(x: x, y: y)) } }
        #expect(colors.count < 12, "\(colors.count)")
    }

    /// What a run keeps for a listing given no settings: the map's stamp as the run made it, and
    /// a URL template without its credentials, which the listing then does not ask for tiles.
    @Test func aKeptMapStandsForTheRunsAndKeepsNoCredentials() throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(atPath: scene.root) }
        let store = ThumbnailStore(root: scene.root + "/Output", settings: ThumbnailSettings())
        try store.prepare()
        try OverviewMap.record(scene.settings, in: store)
        let kept = try #require(try OverviewMap.recorded(in: store))
        #expect(kept.settings == scene.settings && !kept.sourceWithheld && kept.stamp == scene.map(scene.settings).stamp)

        var secret = scene.settings
        secret.source = "http://tileuser:PASSWORD-xyz@127.0.0.1:9/{z}/{x}/{y}.png?api_key=SECRET-abc"
        try OverviewMap.record(secret, in: store)
        let text = String(decoding: try FileStore.readFile(scene.root + "/Output/.tracksnap/overview-basemap.json"), as: UTF8.self)
        #expect(!text.contains("PASSWORD-xyz") && !text.contains("SECRET-abc") && !text.contains("tileuser"), "\(text)")
        let withheld = try #require(try OverviewMap.recorded(in: store))
        #expect(withheld.sourceWithheld && withheld.stamp == scene.map(secret).stamp)
        var configuration = RunConfiguration()
        configuration.jobsDirectory = scene.root + "/Jobs"
        let map = configuration.makeOverviewMap(withheld.settings, kept: withheld)
        #expect(map.stamp == scene.map(secret).stamp)
        let viewport = scene.region.frame.viewport(scale: 1)
        let picture = map.draw(viewport: viewport, latitudeDegrees: scene.region.frame.latitudeDegrees, labelScale: 1, mapColors: 192) { _ in }
        #expect(picture.problems.count == 1 && picture.problems[0].contains("--basemap"), "\(picture.problems)")

        // A kept map that cannot be read is an error naming the file, not "no map".
        let path = scene.root + "/Output/.tracksnap/overview-basemap.json"
        try FileStore.writeAtomically(Array("{\"settings\":".utf8), to: path)
        #expect(throws: OverviewMap.RecordError.self) { try OverviewMap.recorded(in: store) }
        do {
            _ = try OverviewMap.recorded(in: store)
        } catch {
            #expect(error.description.contains(path), "\(error)")
        }
        try FileStore.remove(path)
        #expect(try OverviewMap.recorded(in: store) == nil)
    }
}
