import ArchiveOverview
import JSONDocument

/// The `"overview"` section: regions the user names by a box,
/// `"overview": {"regions": [{"name": "Zürich", "bounds": [8.44, 47.32, 8.63, 47.44]}, …]}`
/// (bounds west, south, east, north in degrees; west > east for a box across the antimeridian).
extension StyleReader {
    /// The most regions a style may name.
    static let maximumNamedRegions = 256

    /// The named regions of `value`.
    func readOverview(_ value: JSONValue) throws(StyleError) -> [NamedRegion] {
        let section = try object(value, "overview", ["regions"])
        guard let list = section["regions"] else { return [] }
        guard let items = list.array, items.count <= Self.maximumNamedRegions else {
            throw fail("overview.regions", "expected a list of at most \(Self.maximumNamedRegions) regions, found \(describe(list))")
        }
        var regions: [NamedRegion] = []
        var pathOfSlug: [String: String] = [:]
        for (index, item) in items.enumerated() {
            let path = "overview.regions[\(index)]"
            let region = try object(item, path, ["name", "bounds"])
            guard let nameValue = region["name"] else { throw fail(path + ".name", "missing (the name the overview page shows)") }
            guard let name = nameValue.string, name.contains(where: { !$0.isWhitespace }), name.count <= 100 else {
                throw fail(path + ".name", "expected a name of 1 to 100 characters, found \(describe(nameValue))")
            }
            guard let boundsValue = region["bounds"] else { throw fail(path + ".bounds", "missing ([west, south, east, north] in degrees)") }
            guard let corners = boundsValue.array, corners.count == 4 else {
                throw fail(path + ".bounds", "expected [west, south, east, north] in degrees, found \(describe(boundsValue))")
            }
            let latitude = -85.051_128_78...85.051_128_78
            let west = try number(corners[0], path + ".bounds[0]", range: -180...180)
            let south = try number(corners[1], path + ".bounds[1]", range: latitude)
            let east = try number(corners[2], path + ".bounds[2]", range: -180...180)
            let north = try number(corners[3], path + ".bounds[3]", range: latitude)
            guard south < north else { throw fail(path + ".bounds", "south (\(south)) must be below north (\(north))") }
            guard west != east else { throw fail(path + ".bounds", "west and east are both \(west): the box has no width") }
            let named = NamedRegion(name: name, boundsDegrees: [west, south, east, north])
            if let other = pathOfSlug[named.slug] {
                throw fail(path + ".name", "'\(name)' has the same file name ('\(named.slug)') as \(other).name; name it apart")
            }
            pathOfSlug[named.slug] = path
            regions.append(named)
        }
        return regions
    }
}
