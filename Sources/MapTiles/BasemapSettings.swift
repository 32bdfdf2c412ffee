/// The basemap a render draws under the route. Plain values, part of the cache key (through
/// `RenderOptions`); the tiles themselves come from a `TileProvider` handed to the renderer.
public struct BasemapSettings: Sendable, Equatable, Codable {
    /// What the user named: an MBTiles or PMTiles file, a tile folder, or an http(s) URL template
    /// with `{z}`, `{x}` and `{y}`; raster or vector tiles.
    public var source: String
    /// How opaque the map is over the grid, 0...1. Default: 1.
    public var opacity = 1.0
    /// Attribution text drawn in the bottom-right corner; nil takes the source's own (MBTiles
    /// metadata), "" draws none (only when the licence allows it). Default: nil.
    public var attribution: String? = nil
    /// What the source's content was when the run started (MBTiles: size and modification time;
    /// folder: the folder's modification time; URL: empty), so a replaced file re-renders.
    /// Filled in by whoever opens the source. Default: "".
    public var contentStamp = ""
    /// Zoom levels past the source's highest at which its tiles are still enlarged (bilinear);
    /// further in, the grid shows. Raster tiles only: vector tiles are drawn at any zoom.
    /// Default: 2 (4× enlargement at most).
    public var maximumOverzoomLevels = 2
    /// What a URL template's `{s}` takes (Leaflet's subdomains); nil for a, b, c. Not encoded
    /// when nil, so cache keys made before it existed stay valid. Default: nil.
    public var subdomains: [String]? = nil
    /// The MapLibre style document (its JSON text) a vector source is drawn with; nil draws the
    /// built-in style for the tiles' schema (OpenMapTiles or Protomaps), dark when the map paper
    /// is dark. The text, not a path, so the style's content is in the cache key. Not encoded when
    /// nil. Default: nil.
    public var mapStyle: String? = nil

    /// A basemap from `source`; other values take their defaults.
    public init(source: String) {
        self.source = source
    }

    /// Checks the values; returns a message naming the bad one, or nil.
    public func validationProblem() -> String? {
        if source.isEmpty { return "the basemap source is empty" }
        if !(opacity >= 0 && opacity <= 1) { return "the basemap opacity must be from 0 to 1, found \(opacity)" }
        if let attribution, attribution.utf8.count > 200 {
            return "the basemap attribution is \(attribution.utf8.count) bytes; at most 200"
        }
        if let subdomains, subdomains.isEmpty || subdomains.count > 26 || subdomains.contains(where: { $0.isEmpty || $0.utf8.count > 63 }) {
            return "the basemap subdomains must be 1 to 26 non-empty names (e.g. [\"a\", \"b\", \"c\"]), found \(subdomains)"
        }
        if let mapStyle, mapStyle.utf8.count > 4 << 20 { return "the map style is \(mapStyle.utf8.count) bytes; at most 4 MiB" }
        if !(0...6).contains(maximumOverzoomLevels) { return "the basemap overzoom must be 0 to 6 levels, found \(maximumOverzoomLevels)" }
        return nil
    }
}

/// What the basemap of one render came to; part of the render info (`basemap` in `--info` and
/// the listing's JSON).
public struct BasemapReport: Sendable, Equatable, Codable {
    /// The zoom level of the tiles drawn; nil when none could be (outside the zoom range).
    public var zoom: Int?
    /// Tiles drawn.
    public var tiles: Int
    /// Tiles the source does not have there (its coverage ends): the grid shows.
    public var tilesAbsent: Int
    /// Tiles that could not be had (`problems` says why): the grid shows.
    public var tilesFailed: Int
    /// The attribution drawn, if any.
    public var attribution: String?
    /// Why tiles failed or nothing was drawn, one line each (at most 5).
    public var problems: [String]?
    /// "vector" for a vector map; nil (not encoded) for raster tiles.
    public var kind: String? = nil
    /// Vector maps: features drawn (once per style layer that draws them); nil for raster tiles.
    public var featuresDrawn: Int? = nil
    /// Vector maps: vertices of the features drawn; nil for raster tiles.
    public var verticesDrawn: Int? = nil
    /// Vector maps: the style's label (`symbol`) layers, not drawn; nil for raster tiles.
    public var labelLayersSkipped: Int? = nil

    enum CodingKeys: String, CodingKey {
        case zoom, tiles, attribution, problems, kind
        case tilesAbsent = "tiles_absent"
        case tilesFailed = "tiles_failed"
        case featuresDrawn = "features_drawn"
        case verticesDrawn = "vertices_drawn"
        case labelLayersSkipped = "label_layers_skipped"
    }

    /// The reports of one track's images as one: tiles summed, the first zoom drawn, the first
    /// attribution, problems deduplicated (at most 5); nil for none.
    public static func combined(_ reports: [BasemapReport]) -> BasemapReport? {
        guard let first = reports.first else { return nil }
        var problems: [String] = []
        for problem in reports.flatMap({ $0.problems ?? [] }) where !problems.contains(problem) { problems.append(problem) }
        var combined = BasemapReport(
            zoom: reports.compactMap(\.zoom).first ?? first.zoom, tiles: reports.reduce(0) { $0 + $1.tiles },
            tilesAbsent: reports.reduce(0) { $0 + $1.tilesAbsent }, tilesFailed: reports.reduce(0) { $0 + $1.tilesFailed },
            attribution: reports.compactMap(\.attribution).first, problems: problems.isEmpty ? nil : Array(problems.prefix(5)))
        combined.kind = first.kind
        if first.kind != nil {
            combined.featuresDrawn = reports.reduce(0) { $0 + ($1.featuresDrawn ?? 0) }
            combined.verticesDrawn = reports.reduce(0) { $0 + ($1.verticesDrawn ?? 0) }
            combined.labelLayersSkipped = first.labelLayersSkipped
        }
        return combined
    }

    /// Why tiles failed, in a few words shared by every track with the same trouble (for the
    /// run summary): from the first tile problem, e.g. "offline, not in the tile cache",
    /// "HTTP 503", "the MBTiles file was locked"; nil when no tile failed.
    public var failureCause: String? {
        guard tilesFailed > 0 else { return nil }
        let first = problems?.first { $0.hasPrefix("tile ") } ?? problems?.first ?? ""
        return Self.cause(of: first)
    }

    /// The kind of one problem line ("tile 14/1/2: HTTP 503 from https://…" → "HTTP 503").
    static func cause(of problem: String) -> String {
        var text = Substring(problem)
        // "tile z/x/y: " or "tile z/x/y is WxH pixels…"
        if text.hasPrefix("tile "), let space = text.dropFirst(5).firstIndex(where: { $0 == ":" || $0 == " " }) {
            text = text[space...].drop { $0 == ":" || $0 == " " }
        }
        if text.contains("--offline") { return "offline, not in the tile cache" }
        if text.contains("locked") { return "the MBTiles file was locked by another process" }
        if text.hasPrefix("HTTP ") { return text.split(separator: " ").prefix(2).joined(separator: " ") }
        if text.hasPrefix("fetching ") { return "the tile server could not be reached" }
        if text.hasPrefix("is "), text.contains("pixels") { return "tiles of the wrong size" }
        // A file error, "cannot read PATH: REASON": the path is the tile's own.
        if text.hasPrefix("cannot "), let reason = text.split(separator: ": ", omittingEmptySubsequences: false).last, reason != text {
            let operation = text.split(separator: " ").dropFirst().first ?? "read"
            return "cannot \(operation) tile files: \(reason)"
        }
        // Otherwise the message up to its first colon or parenthesis ("bad PNG", "bad JPEG"…).
        let kind = text.prefix { $0 != ":" && $0 != "(" }.reversed().drop { $0 == " " }.reversed()
        return kind.isEmpty ? "tiles could not be read" : String(String(kind).prefix(80))
    }

    /// A report.
    public init(zoom: Int?, tiles: Int = 0, tilesAbsent: Int = 0, tilesFailed: Int = 0, attribution: String? = nil, problems: [String]? = nil) {
        self.zoom = zoom
        self.tiles = tiles
        self.tilesAbsent = tilesAbsent
        self.tilesFailed = tilesFailed
        self.attribution = attribution
        self.problems = problems
    }
}

/// Attribution text as the bitmap font can draw it: HTML tags dropped, entities decoded,
/// "©" kept (the font has it), other non-ASCII letters folded or shown as '?'. Every
/// attribution (the settings' and the source's) passes here on its way to the image and the
/// track record, which the pages and index.json are made from.
public enum TextForImage {
    /// Plain text from an attribution string that may hold HTML (MBTiles metadata often does).
    /// Bidi controls are dropped (U+202E would reverse "Map: …" on the pages) and control
    /// characters become spaces.
    public static func plain(_ text: String) -> String {
        var out = ""
        var inTag = false
        for scalar in text.unicodeScalars where !scalar.properties.isBidiControl {
            if scalar == "<" { inTag = true; continue }
            if scalar == ">" { inTag = false; continue }
            if !inTag { out.unicodeScalars.append(scalar.properties.generalCategory == .control ? " " : scalar) }
        }
        for (entity, value) in [
            ("&copy;", "©"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#169;", "©"), ("&nbsp;", " "), ("&#39;", "'"),
        ] {
            out = out.split(separator: entity, omittingEmptySubsequences: false).joined(separator: value)
        }
        let collapsed = out.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        return String(collapsed.prefix(200))
    }
}

extension BasemapSettings {
    /// The attribution to draw over a source's tiles: the settings' own ("" for none), else
    /// the source's; plain text.
    public func attribution(over description: TileSourceDescription) -> String? {
        if let attribution { return attribution.isEmpty ? nil : TextForImage.plain(attribution) }
        return description.attribution
    }
}
