import ArchiveOverview
import MapTiles
import Raster
import SnapshotRendering
import Testing
import ThumbnailCache

@testable import StyleFile

/// The cache fingerprint hashes a canonical encoding of the settings: the same settings give the
/// same fingerprint, every drawn field changes it, the input limits do not.
struct FingerprintTests {
    /// Settings with every optional set, so each field is present to be changed.
    static var full: ThumbnailSettings {
        var settings = ThumbnailSettings()
        settings.options.style.strokeWidthPoints = 4
        settings.options.basemap = BasemapSettings(source: "alps.mbtiles")
        settings.options.basemap?.attribution = "© OSM"
        settings.options.basemap?.subdomains = ["a", "b"]
        settings.options.basemap?.mapStyle = #"{"version": 8, "layers": []}"#
        return settings
    }

    /// One change per drawn field, by its path in the settings (`Mirror` labels).
    static let changes: [String: @Sendable (inout ThumbnailSettings) -> Void] = [
        "images": { $0.images[1].scale = 3 },
        "rendererVersion": { $0.rendererVersion += "+1" },
        "options.widthPoints": { $0.options.widthPoints += 1 },
        "options.heightPoints": { $0.options.heightPoints += 1 },
        "options.scale": { $0.options.scale = 2 },
        "options.paddingFraction": { $0.options.paddingFraction = 0.1 + 1e-15 },
        "options.minimumGroundSpanMeters": { $0.options.minimumGroundSpanMeters = 201 },
        "options.simplificationTolerancePixels": { $0.options.simplificationTolerancePixels = 0.25 },
        "options.style.grid.paper": { $0.options.style.grid.paper = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.grid.minorLine": { $0.options.style.grid.minorLine = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.grid.majorLine": { $0.options.style.grid.majorLine = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.grid.lineWidthPoints": { $0.options.style.grid.lineWidthPoints = 2 },
        "options.style.grid.minimumMinorSpacingPoints": { $0.options.style.grid.minimumMinorSpacingPoints = 30 },
        "options.style.grid.drawsLines": { $0.options.style.grid.drawsLines = false },
        "options.style.routeColor": { $0.options.style.routeColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.strokeWidthPoints": { $0.options.style.strokeWidthPoints = nil },
        "options.style.drawsCasing": { $0.options.style.drawsCasing = false },
        "options.style.casingColor": { $0.options.style.casingColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.casingExtraWidthPoints": { $0.options.style.casingExtraWidthPoints = 3 },
        "options.style.drawsMarkers": { $0.options.style.drawsMarkers = false },
        "options.style.startMarkerColor": { $0.options.style.startMarkerColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.endMarkerColor": { $0.options.style.endMarkerColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.markerRingColor": { $0.options.style.markerRingColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.markerRadiusPoints": { $0.options.style.markerRadiusPoints = 6 },
        "options.style.markerRadiusPerStrokeWidth": { $0.options.style.markerRadiusPerStrokeWidth = 0.9 },
        "options.style.coloring": { $0.options.style.coloring = .speed },
        "options.style.bandColors": { $0.options.style.bandColors[0] = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.drawsScaleBar": { $0.options.style.drawsScaleBar = false },
        "options.style.scaleBarColor": { $0.options.style.scaleBarColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.style.scaleBarHaloColor": { $0.options.style.scaleBarHaloColor = RGBAColor(red: 1, green: 2, blue: 3) },
        "options.cleaning.spikeSpeedFactor": { $0.options.cleaning.spikeSpeedFactor = 9 },
        "options.cleaning.minimumSpikeSpeedMetersPerSecond": { $0.options.cleaning.minimumSpikeSpeedMetersPerSecond = 31 },
        "options.cleaning.spikeDistanceFactor": { $0.options.cleaning.spikeDistanceFactor = 21 },
        "options.cleaning.minimumSpikeDistanceMeters": { $0.options.cleaning.minimumSpikeDistanceMeters = 501 },
        "options.cleaning.elevationGainHysteresisMeters": { $0.options.cleaning.elevationGainHysteresisMeters = 4 },
        "options.cleaning.dropNullIsland": { $0.options.cleaning.dropNullIsland = false },
        "options.cleaning.movingSpeedMetersPerSecond": { $0.options.cleaning.movingSpeedMetersPerSecond = 0.4 },
        "options.cleaning.movingGapLimitSeconds": { $0.options.cleaning.movingGapLimitSeconds = 301 },
        "options.cleaning.plausibleTimes": { $0.options.cleaning.plausibleTimes = 0...4_102_444_800 },
        "options.png.layout": { $0.options.png.layout = .trueColor },
        "options.png.compressionLevel": { $0.options.png.compressionLevel = 6 },
        "options.png.compressionStrategy": { $0.options.png.compressionStrategy = 1 },
        "options.png.filterFlags": { $0.options.png.filterFlags = 0x08 },
        "options.basemap.source": { $0.options.basemap?.source = "alps2.mbtiles" },
        "options.basemap.opacity": { $0.options.basemap?.opacity = 0.5 },
        "options.basemap.attribution": { $0.options.basemap?.attribution = nil },
        "options.basemap.contentStamp": { $0.options.basemap?.contentStamp = "size 1 mtime 2" },
        "options.basemap.maximumOverzoomLevels": { $0.options.basemap?.maximumOverzoomLevels = 3 },
        "options.basemap.subdomains": { $0.options.basemap?.subdomains = ["a", "c"] },
        "options.basemap.mapStyle": { $0.options.basemap?.mapStyle = #"{"version": 8, "layers": [], "name": "edited"}"# },
    ]

    /// Every stored field of the settings, by path: structs are walked (optionals unwrapped),
    /// colours, enums, lists and ranges are single fields; the input limits are left out.
    static func fieldPaths(_ value: Any, _ path: String = "") -> [String] {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional, let wrapped = mirror.children.first { return fieldPaths(wrapped.value, path) }
        guard mirror.displayStyle == .struct, !(value is RGBAColor), !(value is ClosedRange<Double>), !mirror.children.isEmpty else {
            return [path]
        }
        return mirror.children.flatMap { child in
            let name = path.isEmpty ? child.label ?? "?" : path + "." + (child.label ?? "?")
            // The overview's named regions draw no track's image (`theOverviewsRegionsAreNotInTheFingerprint`).
            return name == "options.limits" || name == "overviewRegions" ? [] : fieldPaths(child.value, name)
        }
    }

    @Test func equalSettingsHaveOneFingerprint() {
        #expect(Self.full.fingerprint == Self.full.fingerprint)
        #expect(ThumbnailSettings().fingerprint == ThumbnailSettings().fingerprint)
        // The same values reached another way (a style file) give the same bytes to hash.
        var built = ThumbnailSettings()
        built.options.style = SnapshotStyle(theme: .dark)
        let read = try? StyleFile.settings(from: Array(#"{"version": 1, "theme": "dark"}"#.utf8), file: "style.json")
        #expect(read?.fingerprint == built.fingerprint)
    }

    @Test func everyDrawnFieldIsInTheFingerprint() {
        // A field added to the settings without a change here fails this test first.
        #expect(Set(Self.fieldPaths(Self.full)) == Set(Self.changes.keys))
        let base = Self.full.fingerprint
        for (path, change) in Self.changes.sorted(by: { $0.key < $1.key }) {
            var changed = Self.full
            change(&changed)
            #expect(changed != Self.full, "\(path): the change changes nothing")
            #expect(changed.fingerprint != base, "\(path) is not in the fingerprint")
        }
    }

    @Test func theInputLimitsAreNotInTheFingerprint() {
        var raised = Self.full
        raised.options.limits.maximumMemoryBytes *= 2
        raised.options.limits.maximumInputBytes *= 2
        #expect(raised.fingerprint == Self.full.fingerprint)
    }

    @Test func theOverviewsRegionsAreNotInTheFingerprint() {
        var named = Self.full
        named.overviewRegions = [NamedRegion(name: "Home", boundsDegrees: [8, 47, 9, 48])]
        #expect(named != Self.full && named.fingerprint == Self.full.fingerprint)
    }

    @Test func theEncodingSortsKeysAndWritesNumbersByTheirBits() {
        // Dictionaries in any insertion order encode alike; 0.1 + 0.2 is not 0.3.
        var first: [String: Double] = [:], second: [String: Double] = [:]
        for key in ["b", "a", "c"] { first[key] = 1 }
        for key in ["c", "a", "b"] { second[key] = 1 }
        #expect(CanonicalEncoding.bytes(of: first) == CanonicalEncoding.bytes(of: second))
        #expect(
            String(decoding: CanonicalEncoding.bytes(of: ["a": 1.0, "b": 2.0]), as: UTF8.self) == "{k1:a=d3ff0000000000000;k1:b=d4000000000000000;}")
        #expect(CanonicalEncoding.bytes(of: 0.1 + 0.2) != CanonicalEncoding.bytes(of: 0.3))
        #expect(CanonicalEncoding.bytes(of: ["ab", "c"]) != CanonicalEncoding.bytes(of: ["a", "bc"]))
        #expect(CanonicalEncoding.bytes(of: Int?.none as Int?) == Array("n".utf8))
    }
}
