/// What drawing a vector map came to, for the render info.
public struct VectorMapReport: Sendable, Equatable {
    /// The zoom of the tiles drawn; nil when none could be (outside the zoom range).
    public var tileZoom: Int?
    /// Tiles drawn.
    public var tiles = 0
    /// Tiles the source does not have there: the grid shows.
    public var tilesAbsent = 0
    /// Tiles that could not be had or decoded (`problems` says why): the grid shows.
    public var tilesFailed = 0
    /// Features drawn, counted once per style layer that draws them.
    public var featuresDrawn = 0
    /// Vertices of the features drawn.
    public var verticesDrawn = 0
    /// The style's label (`symbol`) layers, which are not drawn.
    public var labelLayersSkipped = 0
    /// The credit the tiles' schema calls for (OpenMapTiles and Protomaps tiles are made from
    /// OpenStreetMap data), for a source whose metadata names none; nil for an unknown schema.
    public var schemaAttribution: String?
    /// True when the target ran out of colours (a full palette): the caller draws the image again in RGBA.
    public var paletteFull = false
    /// What went wrong, one line each naming the tile (`z/x/y`) where there is one; at most 5.
    public var problems: [String] = []

    /// A report of tiles drawn at `tileZoom`.
    public init(tileZoom: Int?) { self.tileZoom = tileZoom }

    /// A report of nothing drawn, and why.
    public init(problem: String) {
        tileZoom = nil
        problems = [problem]
    }

    /// Adds a problem (the first five, each once).
    public mutating func note(_ problem: String) {
        if problems.count < 5, !problems.contains(problem) { problems.append(problem) }
    }
}
