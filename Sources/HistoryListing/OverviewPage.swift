import ArchiveOverview
import MapGeometry

/// `overview.html` and `index/overview.json`: the archive at a glance, one card per region (most
/// tracks first) with its thumbnail, name, track count and distance (said again in the image's alt
/// text), linking to the region's page (`RegionPages`), and the years, each linking to
/// its page (`OverviewPage.yearHTML`). Plain HTML, no scripts.
///
///     index/overview.json   {"regions":[
///                           {"bbox_epsg3857":[…],"distance_m":N,"id":"…","images":[{"height":H,"path":"overview/….png","scale":1,"width":W},…],
///                            "name":"…" (named regions only),"page":"region-….html","thumbnails":[…as images…],"tracks":N},
///                           …
///                           ],"tracks":N,"version":3,"years":[
///                           {"page":"overview-2024.html","regions":[{"distance_m":N,"id":"…","images":[…],"tracks":N},…],"tracks":N,"year":2024},
///                           …
///                           ]}
enum OverviewPage {
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

        /// Every scale counted, in the images' order: the detail scales, then the thumbnail's.
        var allScales: [Double] { scales + thumbnailScales }

        /// The detail images: path, nominal scale, size in device pixels.
        var images: [Image] { scales.map { Image(path: imagePath(stem: stem, scale: $0), scale: $0, points: size(1), pixels: size($0)) } }

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
        /// Relative to Output/.
        var path: String
        /// Device pixels per point, as `srcset` names it.
        var scale: Double
        /// Size in points (CSS pixels) and in device pixels.
        var points: (width: Int, height: Int), pixels: (width: Int, height: Int)
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

    /// `index/overview.json`.
    static func json(_ regions: [Region], years: [Int]) -> [UInt8] {
        func images(_ list: [Image]) -> String {
            "["
                + list.map { image in
                    "{\"height\":\(image.pixels.height),\"path\":\"\(image.path)\",\"scale\":\(JSONText.number(image.scale)),\"width\":\(image.pixels.width)}"
                }.joined(separator: ",") + "]"
        }
        var json = "{\"regions\":["
        for (position, region) in regions.enumerated() {
            if position > 0 { json += "," }
            let picture = region.picture, rect = picture.mapRect
            let bbox = [rect.minX, rect.minY, rect.maxX, rect.maxY].map { JSONText.number($0) }.joined(separator: ",")
            json += "\n{\"bbox_epsg3857\":[\(bbox)],\"distance_m\":\(picture.distanceMeters),\"id\":\"\(picture.stem)\","
            json += "\"images\":\(images(picture.images)),"
            if let name = region.name { json += "\"name\":\(JSONText.quoted(name))," }
            json += "\"page\":\"\(region.page)\",\"thumbnails\":\(images(picture.thumbnails)),\"tracks\":\(picture.trackCount)}"
        }
        json += "\n],\"tracks\":\(regions.reduce(0) { $0 + $1.picture.trackCount }),\"version\":\(IndexDocument.version),\"years\":["
        for (position, year) in years.sorted(by: >).enumerated() {
            if position > 0 { json += "," }
            let shown = regions.compactMap { region in region.years.first { $0.year == year }.map { (region, $0.picture) } }
            let entries = shown.map { region, picture in
                "{\"distance_m\":\(picture.distanceMeters),\"id\":\"\(region.picture.stem)\",\"images\":\(images(picture.images)),"
                    + "\"tracks\":\(picture.trackCount)}"
            }
            json += "\n{\"page\":\"\(yearPagePath(year))\",\"regions\":[\(entries.joined(separator: ","))],"
            json += "\"tracks\":\(shown.reduce(0) { $0 + $1.1.trackCount }),\"year\":\(year)}"
        }
        json += "\n]}\n"
        return Array(json.utf8)
    }
}
