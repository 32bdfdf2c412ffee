import Foundation
import MapTiles
import SnapshotRendering
import Testing
import TileSources
import VectorTiles

/// The built-in map styles over real OpenStreetMap data, `Tests/Fixtures/vector/openmaptiles-vaduz.mbtiles`
/// (OpenMapTiles schema, ODbL), and over the same tiles converted to the Protomaps schema
/// (`ProtomapsTileConverter`, written to a PMTiles archive as Protomaps ships them), light and
/// dark: a 5 km loop around Vaduz at 512×384 @1x (tile zoom 13) and a walk through its Städtle at
/// 256×192 @2x (tile zoom 14), compared with `Tests/Golden/{vaduz,stadtle}-*.png` within
/// `GoldenImage`'s tolerance. Regenerate with `make golden`.
@Suite struct VectorGoldenImageTests {
    /// The tile schemas drawn, as the goldens' names spell them.
    enum Schema: String, Sendable, CaseIterable { case openmaptiles, protomaps }

    /// The OpenMapTiles fixture.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vector/openmaptiles-vaduz.mbtiles").path

    /// A 5 km run from the Städtle north towards Schaan, up past the castle and back by the Rhine.
    static let vaduzLoop = """
        <?xml version="1.0"?><gpx version="1.1" creator="TrackSnap tests"><trk><name>Vaduz loop</name><trkseg>
        <trkpt lat="47.1410" lon="9.5209"/><trkpt lat="47.1445" lon="9.5195"/><trkpt lat="47.1480" lon="9.5185"/>
        <trkpt lat="47.1512" lon="9.5170"/><trkpt lat="47.1530" lon="9.5215"/><trkpt lat="47.1500" lon="9.5260"/>
        <trkpt lat="47.1462" lon="9.5275"/><trkpt lat="47.1400" lon="9.5262"/><trkpt lat="47.1360" lon="9.5240"/>
        <trkpt lat="47.1320" lon="9.5215"/><trkpt lat="47.1300" lon="9.5170"/><trkpt lat="47.1320" lon="9.5120"/>
        <trkpt lat="47.1360" lon="9.5140"/><trkpt lat="47.1390" lon="9.5180"/><trkpt lat="47.1410" lon="9.5209"/>
        </trkseg></trk></gpx>
        """

    /// A 700 m walk through the Städtle and up the hill east of it: tile zoom 14, buildings and paths.
    static let stadtleWalk = """
        <?xml version="1.0"?><gpx version="1.1" creator="TrackSnap tests"><trk><name>Städtle</name><trkseg>
        <trkpt lat="47.1393" lon="9.5222"/><trkpt lat="47.1410" lon="9.5212"/><trkpt lat="47.1428" lon="9.5206"/>
        <trkpt lat="47.1424" lon="9.5228"/><trkpt lat="47.1412" lon="9.5243"/><trkpt lat="47.1398" lon="9.5240"/>
        </trkseg></trk></gpx>
        """

    /// Every golden: schema, dark, track, name and size in points at a scale.
    static let cases: [(schema: Schema, dark: Bool, track: String, name: String, width: Int, height: Int, scale: Double)] =
        Schema.allCases.flatMap { schema in
            [false, true].flatMap { dark in
                [(schema, dark, vaduzLoop, "vaduz", 512, 384, 1.0), (schema, dark, stadtleWalk, "stadtle", 256, 192, 2.0)]
            }
        }

    /// The tiles of `schema`: the fixture itself, or its Protomaps conversion (made once per process).
    static func tiles(_ schema: Schema) throws -> (path: String, tiles: BasemapTiles) {
        let path: String
        switch (schema, protomapsArchive) {
        case (.openmaptiles, _): path = fixture
        case (.protomaps, .success(let archive)): path = archive
        case (.protomaps, .failure(let problem)): throw problem
        }
        return (path, try BasemapOpener(tileCacheDirectory: NSTemporaryDirectory()).open(BasemapSettings(source: path)))
    }

    /// The fixture's tiles in the Protomaps schema, as a PMTiles archive in a temporary folder.
    static let protomapsArchive: Result<String, ConversionProblem> = {
        do { return .success(try makeProtomapsArchive()) } catch { return .failure(ConversionProblem(message: "\(error)")) }
    }()

    /// Why the Protomaps archive could not be made.
    struct ConversionProblem: Error { let message: String }

    private static func makeProtomapsArchive() throws -> String {
        let source = try BasemapOpener(tileCacheDirectory: NSTemporaryDirectory()).openSource(BasemapSettings(source: fixture))
        let description = source.sourceDescription
        let bounds = description.boundsLonLat ?? [-180, -85, 180, 85]
        var converted: [PMTilesWriter.Tile] = []
        for zoom in description.minimumZoom...description.maximumZoom {
            let tiles = Double(1 << zoom)
            func row(_ latitude: Double) -> Int { Int((1 - asinh(tan(latitude * .pi / 180)) / .pi) / 2 * tiles) }
            for x in Int((bounds[0] + 180) / 360 * tiles)...Int((bounds[2] + 180) / 360 * tiles) {
                for y in row(bounds[3])...row(bounds[1]) {
                    guard let bytes = try source.tileBytes(TileCoordinate(z: zoom, x: x, y: y), limit: 1 << 22) else { continue }
                    let tile = try VectorTile(bytes: try VectorTileBytes.inflateIfNeeded(bytes)).decoded()
                    converted.append(.init(z: zoom, x: x, y: y, bytes: ProtomapsTileConverter.convert(tile)))
                }
            }
        }
        var options = PMTilesWriter.Options()
        options.header.minimumZoom = UInt8(description.minimumZoom)
        options.header.maximumZoom = UInt8(description.maximumZoom)
        options.header.minimumLongitudeE7 = Int32((bounds[0] * 1e7).rounded())
        options.header.minimumLatitudeE7 = Int32((bounds[1] * 1e7).rounded())
        options.header.maximumLongitudeE7 = Int32((bounds[2] * 1e7).rounded())
        options.header.maximumLatitudeE7 = Int32((bounds[3] * 1e7).rounded())
        let folder = NSTemporaryDirectory() + "tracksnap-protomaps-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/vaduz-protomaps.pmtiles"
        try Data(try PMTilesWriter.write(converted, options: options)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The render options of a golden scene over the tiles at `path`.
    static func options(path: String, dark: Bool, width: Int, height: Int, scale: Double) -> RenderOptions {
        var options = RenderOptions()
        options.widthPoints = width
        options.heightPoints = height
        options.scale = scale
        options.style = SnapshotStyle(theme: dark ? .dark : .light)
        options.basemap = BasemapSettings(source: path)
        return options
    }

    @Test(arguments: cases.indices)
    func matchesTheGoldenImage(index: Int) throws {
        let (schema, dark, track, trackName, width, height, scale) = Self.cases[index]
        let (path, tiles) = try Self.tiles(schema)
        let options = Self.options(path: path, dark: dark, width: width, height: height, scale: scale)
        let snapshot = try SnapshotRenderer.render(trackBytes: Array(track.utf8), options: options, tiles: tiles)
        let report = try #require(snapshot.info.basemap)
        #expect(report.kind == "vector" && report.tilesFailed == 0 && report.tilesAbsent == 0, "\(report)")
        #expect((report.featuresDrawn ?? 0) > 30, "\(report)")
        let name = "\(trackName)-\(schema.rawValue)-\(dark ? "dark" : "light")-\(width)x\(height)" + (scale == 1 ? "" : "@\(Int(scale))x")
        try GoldenImage.check(snapshot.png, name: name)
    }

    /// Protomaps tiles are told by their layers: drawn exactly as with the Protomaps style given
    /// by hand (not as with the OpenMapTiles one), and credited to Protomaps.
    @Test func protomapsTilesAreDrawnWithTheProtomapsStyle() throws {
        let (path, tiles) = try Self.tiles(.protomaps)
        func render(mapStyle: String?) throws -> RenderedSnapshot {
            var options = RenderOptions()
            options.widthPoints = 512
            options.heightPoints = 384
            options.basemap = BasemapSettings(source: path)
            if let mapStyle {
                let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("Sources/MapStyle/Styles/\(mapStyle).json")
                options.basemap?.mapStyle = try String(contentsOf: file, encoding: .utf8)
            }
            return try SnapshotRenderer.render(trackBytes: Array(Self.vaduzLoop.utf8), options: options, tiles: tiles)
        }
        let detected = try render(mapStyle: nil)
        #expect(detected.info.basemap?.attribution == "© Protomaps © OpenStreetMap contributors", "\(String(describing: detected.info.basemap))")
        #expect(try detected.png == render(mapStyle: "protomaps-light").png)
        #expect(try detected.png != render(mapStyle: "openmaptiles-light").png)
    }
}
