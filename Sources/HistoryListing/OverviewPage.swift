import ArchiveOverview
import MapGeometry

/// `overview.html` and `index/overview.json`: the archive at a glance, one heat map per region
/// (largest first) with its track count and distance, said again in the image's alt text. Plain
/// HTML, no scripts; the images are `overview/<region>.png` with the @2x one in `srcset`.
///
///     index/overview.json   {"regions":[
///                           {"bbox_epsg3857":[…],"distance_m":N,"id":"…","images":[{"height":H,"path":"overview/….png","scale":1,"width":W},…],"tracks":N},
///                           …
///                           ],"tracks":N,"version":3}
enum OverviewPage {
    /// One region as the page shows it.
    struct Region {
        /// The region's id (its oldest track's id, shortened: see `OverviewPublisher.fileStem`).
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
    }

    /// The image path of a region at a scale, relative to Output/.
    static func imagePath(stem: String, scale: Double) -> String {
        OverviewPublisher.directory + "/" + stem + (scale == 1 ? "" : "@" + JSONText.number(scale) + "x") + ".png"
    }

    /// The page, regions in the order given.
    static func html(_ regions: [Region], tracksLeftOut: Int) -> [UInt8] {
        let total = regions.reduce(0) { $0 + $1.trackCount }
        var out = PageShell.head(title: "Overview · TrackSnap", styleSheet: "site.css")
        out += "<header class=\"site\"><h1><a href=\"index.html\">TrackSnap</a></h1><span class=\"count\">\(total) tracks in "
        out += "\(regions.count) \(regions.count == 1 ? "region" : "regions")</span> <a href=\"index.html\">← All tracks</a></header>\n"
        out += "<main class=\"overview\">\n"
        if regions.isEmpty { out += "<p class=\"muted\">No tracks to show yet.</p>\n" }
        for region in regions {
            let center = WebMercator.unproject(region.mapRect.center)
            let place = ListingFormat.fixed(center.latitudeDegrees, digits: 3) + ", " + ListingFormat.fixed(center.longitudeDegrees, digits: 3)
            let tracks = "\(region.trackCount) \(region.trackCount == 1 ? "track" : "tracks")"
            let summary = tracks + ", " + ListingFormat.distance(Double(region.distanceMeters))
            let srcset = region.scales.map { imagePath(stem: region.stem, scale: $0) + " " + JSONText.number($0) + "x" }.joined(separator: ", ")
            out += "<figure class=\"region\"><img src=\"\(imagePath(stem: region.stem, scale: region.scales[0]))\" srcset=\"\(srcset)\" "
            out += "width=\"\(region.widthPoints)\" height=\"\(region.heightPoints)\" "
            out += "alt=\"Heat map of \(summary) around \(place): the more tracks passed a street, the darker it is drawn\">"
            out += "<figcaption>\(summary) <span class=\"muted\">around \(place)</span></figcaption></figure>\n"
        }
        if tracksLeftOut > 0 {
            out += "<p class=\"muted\">\(tracksLeftOut) tracks rendered by an earlier version have no route kept yet and are not drawn.</p>\n"
        }
        out += "</main>\n" + PageShell.tail
        return Array(out.utf8)
    }

    /// `index/overview.json`.
    static func json(_ regions: [Region]) -> [UInt8] {
        var json = "{\"regions\":["
        for (position, region) in regions.enumerated() {
            if position > 0 { json += "," }
            let rect = region.mapRect
            let bbox = [rect.minX, rect.minY, rect.maxX, rect.maxY].map { JSONText.number($0) }.joined(separator: ",")
            let images = region.scales.map { scale in
                "{\"height\":\(Int((Double(region.heightPoints) * scale).rounded())),\"path\":\"\(imagePath(stem: region.stem, scale: scale))\","
                    + "\"scale\":\(JSONText.number(scale)),\"width\":\(Int((Double(region.widthPoints) * scale).rounded()))}"
            }
            json += "\n{\"bbox_epsg3857\":[\(bbox)],\"distance_m\":\(region.distanceMeters),\"id\":\"\(region.stem)\","
            json += "\"images\":[\(images.joined(separator: ","))],\"tracks\":\(region.trackCount)}"
        }
        json += "\n],\"tracks\":\(regions.reduce(0) { $0 + $1.trackCount }),\"version\":\(IndexDocument.version)}\n"
        return Array(json.utf8)
    }
}
