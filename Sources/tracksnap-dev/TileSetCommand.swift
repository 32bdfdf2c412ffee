import TrackSynthesis

/// `tracksnap-dev tiles OUT --bounds W,S,E,N --zooms A-B [--kind map|position] [--jpeg] [--folder]`.
enum TileSetCommand {
    static func run(_ arguments: [String]) throws {
        guard let output = arguments.first, !output.hasPrefix("-") else { throw DevHelp.usageError("tiles", "the output path comes first") }
        var bounds: [Double] = []
        var zooms = 0...0
        var kind = TileSetMaker.Kind.map
        var jpeg = false, folder = false
        var index = 1
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw DevHelp.usageError("tiles", "\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--bounds":
                let text = try value()
                bounds = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
                guard bounds.count == 4, bounds[0] < bounds[2], bounds[1] < bounds[3],
                    bounds[0] >= -180, bounds[2] <= 180, bounds[1] >= -85.05, bounds[3] <= 85.05
                else {
                    throw DevHelp.usageError(
                        "tiles",
                        "--bounds '\(text)': expected four numbers west,south,east,north in degrees, west < east, south < north, within -180...180 and -85.05...85.05"
                    )
                }
            case "--zooms":
                let parts = try value().split(separator: "-").compactMap { Int($0) }
                guard parts.count == 2, parts[0] >= 0, parts[0] <= parts[1], parts[1] <= 18 else {
                    throw DevHelp.usageError("tiles", "--zooms '\(arguments[index])': expected A-B with 0 <= A <= B <= 18")
                }
                zooms = parts[0]...parts[1]
            case "--kind":
                guard let parsed = TileSetMaker.Kind(rawValue: try value()) else {
                    throw DevHelp.usageError("tiles", "--kind '\(arguments[index])': expected map or position")
                }
                kind = parsed
            case "--jpeg": jpeg = true
            case "--folder": folder = true
            default: throw DevHelp.usageError("tiles", "unknown option '\(arguments[index])'")
            }
            index += 1
        }
        guard bounds.count == 4 else { throw DevHelp.usageError("tiles", "--bounds is required") }
        let count =
            folder
            ? try TileSetMaker.writeFolder(output, kind: kind, boundsLonLat: bounds, zooms: zooms)
            : try TileSetMaker.writeMBTiles(output, kind: kind, boundsLonLat: bounds, zooms: zooms, jpeg: jpeg)
        print("wrote \(count) tiles to \(output)")
    }
}
