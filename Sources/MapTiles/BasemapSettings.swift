/// The basemap a render draws under the route. Plain values, part of the cache key (through
/// `RenderOptions`); the tiles themselves come from a `TileProvider` handed to the renderer.
public struct BasemapSettings: Sendable, Equatable, Codable {
    /// What the user named: an MBTiles file, a tile folder, or an http(s) URL template with
    /// `{z}`, `{x}` and `{y}`.
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
    /// further in, the grid shows. Default: 2 (4× enlargement at most).
    public var maximumOverzoomLevels = 2

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

    enum CodingKeys: String, CodingKey {
        case zoom, tiles, attribution, problems
        case tilesAbsent = "tiles_absent"
        case tilesFailed = "tiles_failed"
    }

    /// The reports of one track's images as one: tiles summed, the first zoom drawn, the first
    /// attribution, problems deduplicated (at most 5); nil for none.
    public static func combined(_ reports: [BasemapReport]) -> BasemapReport? {
        guard let first = reports.first else { return nil }
        var problems: [String] = []
        for problem in reports.flatMap({ $0.problems ?? [] }) where !problems.contains(problem) { problems.append(problem) }
        return BasemapReport(
            zoom: reports.compactMap(\.zoom).first ?? first.zoom, tiles: reports.reduce(0) { $0 + $1.tiles },
            tilesAbsent: reports.reduce(0) { $0 + $1.tilesAbsent }, tilesFailed: reports.reduce(0) { $0 + $1.tilesFailed },
            attribution: reports.compactMap(\.attribution).first, problems: problems.isEmpty ? nil : Array(problems.prefix(5)))
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
        for (entity, value) in [("&copy;", "©"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#169;", "©"), ("&nbsp;", " "), ("&#39;", "'")] {
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
