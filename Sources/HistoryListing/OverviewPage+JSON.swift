/// The overview for programs: `index/overview.json` (the regions, their years and pictures) and a
/// file per picture naming its tiles (`index/overview/<picture>.json`).
///
/// The tiles are named apart because their names carry their digests: a new track renames the
/// tiles it passes, and the part, written at every change, named every tile of every picture
/// (71 KB at 100,000 tracks in three cities, four times that at tiles of 160 points). Now a
/// change writes the part without them and the lists of the pictures whose tiles changed.
extension OverviewPage {
    /// The folder of the pictures' tile lists, relative to Output/.
    static let tileListDirectory = SiteWriter.partDirectory + "/overview"

    /// The file naming the tiles of picture `stem` at every scale, relative to Output/.
    static func tileListPath(stem: String) -> String { tileListDirectory + "/" + stem + ".json" }

    /// `index/overview/<picture>.json`: the picture's tiles at each detail scale, row by row, with
    /// their grid (as `index/overview.json` gives it, so a list read while a refresh replaces the
    /// part still stands on its own).
    static func tileList(_ picture: Picture) -> [UInt8] {
        let tiling = picture.tiling
        let images = picture.images.map { image in
            let side = image.tiles.first?.pixels.width ?? 0
            return "{\"columns\":\(tiling.columns),\"rows\":\(tiling.rows),\"scale\":\(JSONText.number(image.scale)),\"tile\":\(side),\"tiles\":["
                + image.tiles.map { "\"" + $0.path + "\"" }.joined(separator: ",") + "]}"
        }
        return Array("{\"id\":\"\(picture.stem)\",\"images\":[\n\(images.joined(separator: ",\n"))\n],\"version\":\(jsonVersion)}\n".utf8)
    }

    /// `index/overview.json`.
    static func json(_ regions: [Region], years: [Int]) -> [UInt8] {
        // A detail image gives its grid of tiles, each `tile` device pixels square but the last
        // column's and row's (`PictureTiling`); their paths are in the picture's `tile_list`.
        func images(_ list: [Image]) -> String {
            "["
                + list.map { image in
                    let size = "\"height\":\(image.pixels.height),"
                    guard let first = image.tiles.first else {
                        return "{\(size)\"path\":\"\(image.path)\",\"scale\":\(JSONText.number(image.scale)),\"width\":\(image.pixels.width)}"
                    }
                    let columns = image.tiles.prefix { $0.points.y == 0 }.count
                    return "{\(size)\"scale\":\(JSONText.number(image.scale)),\"tiles\":{\"columns\":\(columns),"
                        + "\"rows\":\(image.tiles.count / max(columns, 1)),\"tile\":\(first.pixels.width)},\"width\":\(image.pixels.width)}"
                }.joined(separator: ",") + "]"
        }
        func tileList(_ picture: Picture) -> String { "\"tile_list\":\"\(tileListPath(stem: picture.stem))\"," }
        var json = "{\"regions\":["
        for (position, region) in regions.enumerated() {
            if position > 0 { json += "," }
            let picture = region.picture, rect = picture.mapRect
            let bbox = [rect.minX, rect.minY, rect.maxX, rect.maxY].map { JSONText.number($0) }.joined(separator: ",")
            json += "\n{\"bbox_epsg3857\":[\(bbox)],\"distance_m\":\(picture.distanceMeters),\"id\":\"\(picture.stem)\","
            json += "\"images\":\(images(picture.images)),"
            if let name = region.name { json += "\"name\":\(JSONText.quoted(name))," }
            json += "\"page\":\"\(region.page)\",\"thumbnails\":\(images(picture.thumbnails)),"
            json += tileList(picture) + "\"tracks\":\(picture.trackCount)}"
        }
        json += "\n],\"tracks\":\(regions.reduce(0) { $0 + $1.picture.trackCount }),\"version\":\(jsonVersion),\"years\":["
        for (position, year) in years.sorted(by: >).enumerated() {
            if position > 0 { json += "," }
            let shown = yearRegions(year, regions)
            let entries = shown.map { region, picture in
                "{\"distance_m\":\(picture.distanceMeters),\"id\":\"\(region.picture.stem)\",\"images\":\(images(picture.images)),"
                    + tileList(picture) + "\"tracks\":\(picture.trackCount)}"
            }
            json += "\n{\"page\":\"\(yearPagePath(year))\",\"regions\":[\(entries.joined(separator: ","))],"
            json += "\"tracks\":\(shown.reduce(0) { $0 + $1.1.trackCount }),\"year\":\(year)}"
        }
        json += "\n]}\n"
        return Array(json.utf8)
    }
}
