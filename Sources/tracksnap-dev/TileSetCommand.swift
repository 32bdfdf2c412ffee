import TrackSynthesis

/// `tracksnap-dev tiles OUT --bounds W,S,E,N --zooms A-B [--kind map|position] [--jpeg] [--folder]`.
enum TileSetCommand {
    static func run(_ arguments: [String]) throws {
        let usage = "usage: tracksnap-dev tiles OUT --bounds W,S,E,N --zooms A-B [--kind map|position] [--jpeg] [--folder]"
        guard let output = arguments.first else { throw DevToolError(usage) }
        var bounds: [Double] = []
        var zooms = 0...0
        var kind = TileSetMaker.Kind.map
        var jpeg = false, folder = false
        var index = 1
        func value() throws -> String {
            index += 1
            guard index < arguments.count else { throw DevToolError(usage) }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--bounds": bounds = try value().split(separator: ",").compactMap { Double($0) }
            case "--zooms":
                let parts = try value().split(separator: "-").compactMap { Int($0) }
                guard parts.count == 2, parts[0] <= parts[1], parts[1] <= 18 else { throw DevToolError("--zooms expects A-B with A <= B <= 18") }
                zooms = parts[0]...parts[1]
            case "--kind":
                guard let parsed = TileSetMaker.Kind(rawValue: try value()) else { throw DevToolError("--kind expects map or position") }
                kind = parsed
            case "--jpeg": jpeg = true
            case "--folder": folder = true
            default: throw DevToolError(usage)
            }
            index += 1
        }
        guard bounds.count == 4 else { throw DevToolError("--bounds expects W,S,E,N in degrees") }
        let count = folder
            ? try TileSetMaker.writeFolder(output, kind: kind, boundsLonLat: bounds, zooms: zooms)
            : try TileSetMaker.writeMBTiles(output, kind: kind, boundsLonLat: bounds, zooms: zooms, jpeg: jpeg)
        print("wrote \(count) tiles to \(output)")
    }
}
