/// The map styles compiled into TrackSnap: MapLibre style documents written for TrackSnap's
/// thumbnails (no labels; land, water, parks, buildings, roads, paths, railways and boundaries in
/// muted colours, so the route stays the boldest thing in the picture).
///
/// The documents are the files in `Sources/MapStyle/Styles/` (edit those); the binary carries their
/// text as string literals written by `scripts/embed-map-styles.py` (`BuiltInStyle+Documents.swift`),
/// not as SwiftPM resources, which need Foundation's `Bundle` on Linux and a resource folder found
/// beside the executable at run time.
package enum BuiltInStyle: String, CaseIterable, Sendable {
    /// Light paper, for the OpenMapTiles schema (tilemaker, planetiler, OpenMapTiles downloads).
    case openMapTilesLight = "openmaptiles-light"
    /// The dark theme's counterpart of `openMapTilesLight`.
    case openMapTilesDark = "openmaptiles-dark"
    /// Light paper, for the Protomaps basemap schema (PMTiles cut from the daily planet build);
    /// road casings drawn with `line-gap-width`, as Protomaps' own styles do.
    case protomapsLight = "protomaps-light"
    /// The dark theme's counterpart of `protomapsLight`.
    case protomapsDark = "protomaps-dark"

    /// The vector tile schemas the built-in styles are written for (told apart by the tiles' layer names).
    package enum Schema: Sendable {
        /// OpenMapTiles: `transportation`, `landcover`, `water`, `building`, …
        case openMapTiles
        /// Protomaps basemap: `roads`, `earth`, `landuse`, `buildings`, …
        case protomaps
    }

    /// The built-in style for `schema`, dark or light.
    package init(schema: Schema, dark: Bool) {
        switch schema {
        case .openMapTiles: self = dark ? .openMapTilesDark : .openMapTilesLight
        case .protomaps: self = dark ? .protomapsDark : .protomapsLight
        }
    }

    /// The schema of the tiles the style reads.
    package var schema: Schema {
        switch self {
        case .openMapTilesLight, .openMapTilesDark: .openMapTiles
        case .protomapsLight, .protomapsDark: .protomaps
        }
    }

    /// The document's bytes (UTF-8), as `MapStyleDocument(bytes:)` reads them.
    package var bytes: [UInt8] { Array(json.utf8) }

    /// The style, read and compiled.
    package func document() throws(MapStyleError) -> MapStyleDocument { try MapStyleDocument(bytes: bytes) }
}
