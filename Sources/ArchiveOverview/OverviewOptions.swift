/// How the overview groups tracks into regions and sizes their pictures. Every default lives here.
package struct OverviewOptions: Sendable, Equatable {
    /// A region picture's smallest size, width in points. Default: 1280 (the detail snapshot's).
    package var widthPoints = 1280
    /// A region picture's smallest size, height in points. Default: 960 (the detail snapshot's).
    package var heightPoints = 960
    /// The scales each picture is drawn at (device pixels per point), each with its own counts.
    /// Default: [1, 2].
    package var scales: [Double] = [1, 2]
    /// A region thumbnail's longer side in points (drawn at each of `scales`, from its own counts,
    /// so a street is a street at the thumbnail's size too). Default: 320 (the listing thumbnail's).
    package var thumbnailLongSidePoints = 320
    /// Tracks whose extents lie within this ground distance of each other (directly or through
    /// other tracks) form one region, in metres. Default: 50,000.
    package var regionGapMeters = 50_000.0
    /// Empty margin on each side of a region picture as a fraction of its width and height.
    /// Default: 0.05.
    package var paddingFraction = 0.05
    /// The smallest ground distance a picture's shorter side spans, in metres (a region of one
    /// short walk is not drawn at street-corner scale). Default: 2,000.
    package var minimumGroundSpanMeters = 2_000.0
    /// The ground resolution at which streets show, metres per point: a region too large to show
    /// it at the smallest size gets a larger picture (same aspect), up to `maximumStateBytes`.
    /// Default: 16 (about zoom 13 at mid latitudes; 8 m a device pixel at @2x, where neighbouring
    /// streets are separate lines): a city 20 km across fits the detail size. At 8, a 13 km city
    /// took a 2060×1545 picture and a new track cost 0.5-0.7 s to draw in (`make bench`).
    package var streetMetersPerPoint = 16.0
    /// The most memory a region's counts may take over all its scales, in bytes (4 bytes a
    /// device pixel). Default: 64 MiB.
    package var maximumStateBytes = 64 << 20
    /// The side of a tile of a region's and a year's picture, in points (`PictureTiling`: each
    /// tile its own PNG at each scale, so a new track rewrites only the tiles it passes; the
    /// thumbnails stay whole). Measured at 100,000 tracks (`bench --section listing`, loops of
    /// 0.6-1.6 km in cities 9 km across), bytes a new track writes: at 320 (4 × 3 tiles a detail
    /// picture) its tiles were 465 KB of 960 KB in all; at 160 (8 × 6) 246 KB of 680 KB, the pages
    /// naming four times the tiles costing 30 KB of it. (Before the part named tiles in lists of
    /// their own, `OverviewPage.tileList`, the part's fourfold names made 320 the lighter.)
    /// Default: 160.
    package var tilePoints = 160

    /// How far a track's kept route may stray from its cleaned fixes, ground metres (Douglas-
    /// Peucker): under half a device pixel at @2x of a picture at `streetMetersPerPoint`, and it
    /// keeps a street route at a few hundred points (about 3 characters each in the record).
    /// Default: 1.5.
    package var routeToleranceMeters = 1.5

    /// Regions the user names by a box (the style file's `overview.regions`), first match wins;
    /// the tracks in none of them are grouped by `regionGapMeters`. Default: none.
    package var namedRegions: [NamedRegion] = []

    /// The defaults above.
    package init() {}

    /// The scales (device pixels per picture point) at which `frame` is a thumbnail, one for each
    /// of `scales`: 320×240 points at @1x and @2x for a landscape frame of any size by default.
    package func thumbnailScales(for frame: RegionFrame) -> [Double] {
        let shrink = Double(thumbnailLongSidePoints) / Double(max(frame.widthPoints, frame.heightPoints))
        return scales.map { $0 * shrink }
    }

    /// Bytes of counts a picture of `widthPoints`×`heightPoints` takes over all scales.
    package func stateBytes(widthPoints: Int, heightPoints: Int) -> Int {
        scales.reduce(0) { total, scale in
            total + Int((Double(widthPoints) * scale).rounded()) * Int((Double(heightPoints) * scale).rounded()) * MemoryLayout<UInt32>.stride
        }
    }
}
