/// What drawing a vector map came to, for the render info.
package struct VectorMapReport: Sendable, Equatable {
    /// The zoom of the tiles drawn; nil when none could be (outside the zoom range).
    package var tileZoom: Int?
    /// Tiles drawn.
    package var tiles = 0
    /// Tiles the source does not have there: the grid shows.
    package var tilesAbsent = 0
    /// Tiles that could not be had or decoded (`problems` says why): the grid shows.
    package var tilesFailed = 0
    /// Features drawn, counted once per style layer that draws them.
    package var featuresDrawn = 0
    /// Vertices of the features drawn.
    package var verticesDrawn = 0
    /// The style's label (`symbol`) layers, which are not drawn.
    package var labelLayersSkipped = 0
    /// The credit the tiles' schema calls for (OpenMapTiles and Protomaps tiles are made from
    /// OpenStreetMap data), for a source whose metadata names none; nil for an unknown schema.
    package var schemaAttribution: String?
    /// True when the target ran out of colours (a full palette): the caller draws the image again in RGBA.
    package var paletteFull = false
    /// What went wrong, one line each naming the tile (`z/x/y`) where there is one; at most 5.
    package var problems: [String] = []

    /// A report of tiles drawn at `tileZoom`.
    package init(tileZoom: Int?) { self.tileZoom = tileZoom }

    /// A report of nothing drawn, and why.
    package init(problem: String) {
        tileZoom = nil
        problems = [problem]
    }

    /// Adds a problem (the first five, each once).
    package mutating func note(_ problem: String) {
        if problems.count < 5, !problems.contains(problem) { problems.append(problem) }
    }
}
