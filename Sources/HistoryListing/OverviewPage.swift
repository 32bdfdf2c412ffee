import ArchiveOverview
import MapGeometry

/// `overview.html` and `index/overview.json`: the archive at a glance, one card per region (most
/// tracks first) with its thumbnail, name, track count and distance (said again in the image's alt
/// text), linking to the region's page (`RegionPages`), and the years, each linking to
/// its page (`OverviewPage.yearHTML`). Plain HTML, no scripts.
///
///     index/overview.json   {"regions":[
///                           {"bbox_epsg3857":[…],"distance_m":N,"id":"…","images":[{"height":H,"scale":1,"tiles":{"columns":C,
///                            "rows":R,"tile":T},"width":W},…],"name":"…" (named regions only),"page":"region-….html",
///                            "thumbnails":[{"height":H,"path":"overview/….thumb.png","scale":1,"width":W},…],
///                            "tile_list":"index/overview/<id>.json","tracks":N},
///                           …
///                           ],"tracks":N,"version":5,"years":[
///                           {"page":"overview-2024.html","regions":[{"distance_m":N,"id":"…","images":[…],
///                            "tile_list":"index/overview/<id>.<year>.json","tracks":N},…],"tracks":N,"year":2024},
///                           …
///                           ]}
///     index/overview/<picture>.json
///                           {"id":"<picture>","images":[{"columns":C,"rows":R,"scale":1,"tile":T,"tiles":["overview/….t0-….png",…]},…],
///                            "version":5}
enum OverviewPage {
    /// The schema version of `index/overview.json`: 5 since each picture's tiles are named in a
    /// file of its own (`tile_list`; version 4 named them all in the part, which was rewritten
    /// whole at every change), 4 since the pictures are tiles (an image has `tiles` where version 3
    /// had one `path`), so an older reader fails on the number rather than on a missing key.
    /// `index.json` and its parts have their own (`IndexDocument.version`, `.partVersion`).
    static let jsonVersion = 5

    /// One heat map as the pages show it: a region's (all years) or a region's in one year.
    struct Picture: Equatable, Sendable {
        /// The picture's file stem: the region's (`OverviewPublisher.fileStem`), or
        /// `<region>.<year>` for one year's.
        var stem: String
        /// Tracks drawn.
        var trackCount: Int
        /// Their distance, metres.
        var distanceMeters: Int
        /// The picture's size in points.
        var widthPoints: Int, heightPoints: Int
        /// The picture's map rectangle.
        var mapRect: MapRect
        /// The scales drawn, each an image `overview/<stem><suffix>.png`.
        var scales: [Double]
        /// The scales of the thumbnail's counts, one for each of `scales` (whose suffix its file
        /// takes: `overview/<stem>.thumb@2x.png`); empty for a year's picture, which has none.
        var thumbnailScales: [Double] = []
        /// The side of the detail image's tiles in points (`OverviewOptions.tilePoints`).
        var tilePoints: Int
        /// The digest of each tile of the detail image at each of `scales` (`PictureTiling.digests`),
        /// which its file's name carries (`tilePath`): a tile whose pixels change gets a new name,
        /// so a browser never shows one it kept from before. Empty until the picture is drawn.
        var tileDigests: [[UInt64]] = []

        /// Every scale counted, in the images' order: the detail scales, then the thumbnail's.
        var allScales: [Double] { scales + thumbnailScales }

        /// How the detail image is cut into tiles.
        var tiling: PictureTiling { PictureTiling(widthPoints: widthPoints, heightPoints: heightPoints, tilePoints: tilePoints) }

        /// The detail images: nominal scale and size in device pixels, each made of its `tiles`
        /// (the image as one file is never written).
        var images: [Image] {
            scales.indices.map { index in
                Image(path: "", scale: scales[index], points: size(1), pixels: size(scales[index]), tiles: tiles(scaleIndex: index))
            }
        }

        /// The tiles of the detail image at `scales[scaleIndex]`, row by row: path, place and size
        /// (the place and size in points, the pixels at that scale); none before it is drawn.
        func tiles(scaleIndex: Int) -> [Tile] {
            guard scaleIndex < tileDigests.count else { return [] }
            let tiling = tiling, scale = scales[scaleIndex], pixels = size(scale)
            return tileDigests[scaleIndex].enumerated().map { index, digest in
                let points = tiling.pointRect(index)
                let rect = tiling.pixelRect(index, scale: scale, pixelWidth: pixels.width, pixelHeight: pixels.height)
                return Tile(
                    path: tilePath(stem: stem, index: index, digest: digest, scale: scale), points: points, pixels: (rect.width, rect.height))
            }
        }

        /// The thumbnail images, as `images`.
        var thumbnails: [Image] {
            zip(scales, thumbnailScales).map { nominal, actual in
                Image(
                    path: imagePath(stem: stem, scale: nominal, thumbnail: true), scale: nominal, points: size(actual / nominal),
                    pixels: size(actual))
            }
        }

        /// "12 tracks, 340 km".
        var summary: String {
            "\(trackCount) \(trackCount == 1 ? "track" : "tracks"), " + ListingFormat.distance(Double(distanceMeters))
        }

        /// "47.377, 8.540": the picture's centre.
        var place: String {
            let center = WebMercator.unproject(mapRect.center)
            return ListingFormat.fixed(center.latitudeDegrees, digits: 3) + ", " + ListingFormat.fixed(center.longitudeDegrees, digits: 3)
        }

        private func size(_ scale: Double) -> (width: Int, height: Int) {
            (Int((Double(widthPoints) * scale).rounded()), Int((Double(heightPoints) * scale).rounded()))
        }
    }

    /// One image of a picture.
    struct Image {
        /// Relative to Output/; empty for a detail image, whose files are its `tiles`.
        var path: String
        /// Device pixels per point, as `srcset` names it.
        var scale: Double
        /// Size in points (CSS pixels) and in device pixels.
        var points: (width: Int, height: Int), pixels: (width: Int, height: Int)
        /// The tiles a detail image is made of, row by row; empty for a thumbnail (one file).
        var tiles: [Tile] = []
    }

    /// One tile of a detail image.
    struct Tile {
        /// Relative to Output/.
        var path: String
        /// Place and size in points from the picture's top-left corner.
        var points: (x: Int, y: Int, width: Int, height: Int)
        /// Size in device pixels.
        var pixels: (width: Int, height: Int)
    }

    /// One region: its picture over every year, its name (style-file regions only) and its
    /// pictures of each year, oldest first.
    struct Region {
        /// The picture of every year (its stem is the region's).
        var picture: Picture
        /// The name the style file gives it; nil for a region grouped automatically.
        var name: String?
        /// Its pictures by year, oldest first.
        var years: [(year: Int, picture: Picture)] = []
        /// Where the region's pages show each year's newest track (`RegionPages.yearLinks`).
        var yearLinks: [Int: String] = [:]

        /// The region's page, relative to Output/.
        var page: String { regionPagePath(stem: picture.stem) }

        /// "Zürich" or "Around 47.377, 8.540".
        var title: String { name ?? "Around " + picture.place }
    }

    /// The image path of a picture at a scale, relative to Output/.
    static func imagePath(stem: String, scale: Double, thumbnail: Bool = false) -> String {
        OverviewPublisher.directory + "/" + stem + (thumbnail ? ".thumb" : "") + (scale == 1 ? "" : "@" + JSONText.number(scale) + "x") + ".png"
    }

    /// The path of tile `index` (row by row) of a picture's detail image at `scale`, relative to
    /// Output/: `overview/<stem>.t<index>-<digest>@2x.png`, the digest in 16 hex digits.
    static func tilePath(stem: String, index: Int, digest: UInt64, scale: Double) -> String {
        let hex = String(digest, radix: 16)
        return OverviewPublisher.directory + "/" + stem + ".t\(index)-" + String(repeating: "0", count: 16 - hex.count) + hex
            + (scale == 1 ? "" : "@" + JSONText.number(scale) + "x") + ".png"
    }

    /// A region's page, relative to Output/.
    static func regionPagePath(stem: String) -> String { "region-" + stem + ".html" }

    /// A year's page, relative to Output/.
    static func yearPagePath(_ year: Int) -> String { "overview-\(year).html" }

    /// `<img>` of `images` (the first as `src`, all in `srcset`), sized in points.
    static func imageTag(_ images: [Image], alt: String, lazy: Bool = false, className: String? = nil) -> String {
        guard let first = images.first else { return "" }
        let e = ListingFormat.escape
        let srcset = images.map { e($0.path) + " " + JSONText.number($0.scale) + "x" }.joined(separator: ", ")
        return "<img" + (className.map { " class=\"\($0)\"" } ?? "") + " src=\"\(e(first.path))\" srcset=\"\(srcset)\" "
            + "width=\"\(first.points.width)\" height=\"\(first.points.height)\"" + (lazy ? " loading=\"lazy\"" : "") + " alt=\"\(e(alt))\">"
    }

    /// A picture's detail image as its tiles: a grid of `<img>` (each tile's scales in `srcset`)
    /// that shows as the one image did, at the picture's size in points and shrunk with the page
    /// as it was (`SiteStyleSheet`: the columns are fractions of the width, each tile as wide as
    /// its column, its height from its own size, so no seam opens). The alt text is said once,
    /// by the grid (`role="img"`); the tiles have none. Plain HTML and CSS: any browser and any
    /// static server show it.
    static func tiledImageTag(_ picture: Picture, alt: String, lazy: Bool = false) -> String {
        let images = picture.images
        guard let first = images.first, !first.tiles.isEmpty else { return "" }
        let e = ListingFormat.escape
        let tiling = picture.tiling
        let columns = (0..<tiling.columns).map { "\(tiling.pointRect($0).width)fr" }.joined(separator: " ")
        var out = "<div class=\"tiles\" role=\"img\" aria-label=\"\(e(alt))\" "
        out += "style=\"width:\(first.points.width)px;grid-template-columns:\(columns)\">"
        // `src` is the 1x tile, so `srcset` names only the others: a city's pages name hundreds of tiles.
        for index in first.tiles.indices {
            let tile = first.tiles[index]
            let srcset = images.dropFirst().filter { index < $0.tiles.count }.map { e($0.tiles[index].path) + " " + JSONText.number($0.scale) + "x" }
            out += "<img src=\"\(e(tile.path))\"" + (srcset.isEmpty ? "" : " srcset=\"\(srcset.joined(separator: ", "))\"") + " "
            out += "width=\"\(tile.points.width)\" height=\"\(tile.points.height)\"" + (lazy ? " loading=\"lazy\"" : "") + " alt=\"\">"
        }
        return out + "</div>"
    }

    /// The alt text of a heat map.
    static func altText(_ picture: Picture, of what: String) -> String {
        "Heat map of \(picture.summary) \(what): the more tracks passed a street, the darker it is drawn"
    }

    /// The years' navigation: each year linking to its page.
    static func yearNavigation(_ years: [Int], current: Int? = nil) -> String {
        guard !years.isEmpty else { return "" }
        var out = "<nav class=\"months\" aria-label=\"Overview by year\"><ul><li><b>Years</b> "
        for year in years.sorted(by: >) {
            out += year == current ? "<span aria-current=\"page\">\(year)</span> " : "<a href=\"\(yearPagePath(year))\">\(year)</a> "
        }
        return out + "</li></ul></nav>\n"
    }

    /// The page, regions in the order given; `years` every year the listing has a track in.
    static func html(_ regions: [Region], years: [Int], tracksLeftOut: Int) -> [UInt8] {
        let total = regions.reduce(0) { $0 + $1.picture.trackCount }
        var out = PageShell.head(title: "Overview · TrackSnap", styleSheet: "site.css")
        out += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(total) tracks in "
        out += "\(regions.count) \(regions.count == 1 ? "region" : "regions")</span> <a href=\"index.html\">← All tracks</a></header>\n"
        out += yearNavigation(years)
        out += "<main class=\"grid\">\n"
        if regions.isEmpty { out += "<p class=\"muted\">No tracks to show yet.</p>\n" }
        let e = ListingFormat.escape
        for region in regions {
            let picture = region.picture
            let what = region.name.map { "in " + $0 } ?? "around " + picture.place
            out += "<article class=\"card\"><a class=\"shot\" href=\"\(region.page)\">"
            out += imageTag(picture.thumbnails, alt: altText(picture, of: what), lazy: true, className: "region") + "</a>"
            out += "<div class=\"body\"><h3><a href=\"\(region.page)\">\(e(region.title))</a></h3>"
            out += "<p class=\"stats\"><span>\(picture.summary)</span></p>"
            if let first = region.years.first?.year, let last = region.years.last?.year {
                out += "<p class=\"when\">\(first == last ? "\(first)" : "\(first)–\(last)")</p>"
            }
            out += "</div></article>\n"
        }
        if tracksLeftOut > 0 {
            out += "<p class=\"muted\">\(tracksLeftOut) tracks rendered by an earlier version have no route kept yet and are not drawn.</p>\n"
        }
        out += "</main>\n" + PageShell.tail
        return Array(out.utf8)
    }
}
