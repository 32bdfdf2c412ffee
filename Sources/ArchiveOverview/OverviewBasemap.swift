import MapGeometry
import Raster

/// The map a heat map is drawn over when the run has a basemap: drawn by the snapshot renderer
/// (the overview counts tracks; it draws no map of its own), so a picture's map looks like its
/// tracks' snapshots, attribution included. Implementations open their tiles themselves and are
/// called from several threads at once (one picture a core).
package protocol OverviewBasemap: Sendable {
    /// What decides the map's pixels (source, its content stamp, map style, opacity,
    /// attribution): part of what each picture is made of, so a change of map draws every
    /// picture again and an unchanged one none.
    var stamp: String { get }

    /// The map of `viewport` as a palette image of at most 256 colours (a map of more, such as
    /// raster tiles resampled, reduced to `mapColors`), with `heat` drawn onto it before the
    /// attribution is drawn over both (in entries `heat` leaves free, else in the nearest
    /// colours). `labelScale` is the picture's nominal device pixels per point (1 or 2: a
    /// thumbnail's letters and lines are those of a 320-point image at that scale). A map that
    /// could not be drawn whole (a tile missing or unreadable, the source gone) still gives a
    /// picture, over the grid where the map is missing, and says why in `problems`.
    func draw(
        viewport: Viewport, latitudeDegrees: Double, labelScale: Double, mapColors: Int, heat: (inout IndexedCanvas) -> Void
    ) -> OverviewMapPicture

    /// How many tiles the map of `viewport` would read; nil when the source cannot be opened or
    /// the view is outside its zoom range (then it reads none). A poster checks it first.
    func tileCount(viewport: Viewport, labelScale: Double) -> Int?

    /// Whether the tiles come over the network (a URL template, a remote archive), where a
    /// poster's tiles are bounded more tightly (`OverviewPoster.maximumRemoteMapTiles`).
    var readsOverNetwork: Bool { get }
}

/// A picture drawn over a map, and what kept it from being whole.
package struct OverviewMapPicture: Sendable {
    /// The picture.
    package var canvas: IndexedCanvas
    /// Why part of the map is missing (the file named), one line each; empty when it is whole.
    package var problems: [String]

    /// A picture and its problems.
    package init(canvas: IndexedCanvas, problems: [String]) {
        self.canvas = canvas
        self.problems = problems
    }
}
