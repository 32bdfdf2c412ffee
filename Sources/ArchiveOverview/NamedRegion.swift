import MapGeometry

/// A region the user names by a bounding box (the style file's `overview.regions`): every track
/// whose extent's centre lies in the box belongs to it, whatever the automatic grouping would do;
/// its picture is fitted to those tracks like any region's.
package struct NamedRegion: Sendable, Equatable, CustomStringConvertible {
    /// The name the pages show.
    package let name: String
    /// West, south, east, north in degrees (west > east for a box across the antimeridian).
    package let boundsDegrees: [Double]
    /// The name in file names: lowercase ASCII letters and digits, other runs of characters as
    /// one "-" ("Zürich Nord" → "z-rich-nord"); never 16 hexadecimal digits, the shape of an
    /// automatic region's name.
    package let slug: String
    /// The box in Mercator metres (east unwrapped past 180° across the antimeridian).
    let bounds: MapRect

    /// A named box; `boundsDegrees` is [west, south, east, north], checked by the caller.
    package init(name: String, boundsDegrees: [Double]) {
        precondition(boundsDegrees.count == 4, "a box is four numbers")
        self.name = name
        self.boundsDegrees = boundsDegrees
        slug = Self.slug(name)
        let east = boundsDegrees[2] < boundsDegrees[0] ? boundsDegrees[2] + 360 : boundsDegrees[2]
        let southWest = WebMercator.project(latitudeDegrees: boundsDegrees[1], longitudeDegrees: boundsDegrees[0])
        let northEast = WebMercator.project(latitudeDegrees: boundsDegrees[3], longitudeDegrees: east)
        bounds = MapRect(minX: southWest.xMeters, minY: southWest.yMeters, maxX: northEast.xMeters, maxY: northEast.yMeters)
    }

    /// Whether `point` (a track extent's centre, possibly unwrapped past ±180°) lies in the box.
    package func contains(_ point: MercatorPoint) -> Bool {
        guard point.yMeters >= bounds.minY && point.yMeters <= bounds.maxY else { return false }
        let world = 2 * WebMercator.halfWorldMeters
        return [point.xMeters, point.xMeters - world, point.xMeters + world].contains { $0 >= bounds.minX && $0 <= bounds.maxX }
    }

    /// `name` as a file name (see `slug`).
    package static func slug(_ name: String) -> String {
        var out = ""
        for byte in name.lowercased().utf8 {
            let keep = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if keep {
                out.append(Character(Unicode.Scalar(byte)))
            } else if !out.isEmpty && !out.hasSuffix("-") {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        if out.isEmpty { out = "region" }
        let hexadecimal = out.utf8.count == 16 && out.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        return hexadecimal ? out + "-region" : out
    }

    /// "name [W, S, E, N]": how the overview's stamp sees it.
    package var description: String { "\(name) \(boundsDegrees)" }
}
