/// Geometry decoding (MVT 2.1 §4.3): the command stream straight into lines and polygons of
/// tile-unit points. The command loop is the decoder's hot loop; it reads the bytes in place through
/// `WireReader` and checks every count against the bytes left and `VectorTileLimits` before it
/// allocates, so a command count of 2^29 or a two-million-vertex polygon costs nothing.
extension VectorTileLayer {
    /// The command ids of §4.3.3.
    private enum Command {
        static let moveTo: UInt32 = 1
        static let lineTo: UInt32 = 2
        static let closePath: UInt32 = 7
    }

    /// The decoded geometry of `feature` in tile units, vertices charged to `budget` (one budget
    /// per tile). Lines of fewer than two points and rings of zero area are dropped; polygon rings
    /// are grouped by winding: a ring winding like the feature's first ring starts a polygon, a ring
    /// winding the other way is a hole of the polygon before it, so tiles whose winding is reversed
    /// group the same way. A problem names the layer, the feature and the byte.
    public func geometry(of feature: VectorTileFeature, budget: inout VectorTileVertexBudget) throws(VectorTileProblem) -> VectorTileGeometry {
        let type = feature.geometryType
        guard type != .unknown else { return .unknown }
        var assembler = GeometryAssembler(type: type)
        if let range = feature.geometryRange {
            let limits = limits
            let extent = Int64(extent)
            try bytes.withUnsafeBufferPointer { buffer throws(VectorTileProblem) in
                do throws(VectorTileProblem) {
                    try Self.runCommands(buffer, range: range, extent: extent, limits: limits, budget: &budget, into: &assembler)
                } catch {
                    throw error.located(layer: name, feature: feature.index)
                }
            }
        }
        return assembler.finished()
    }

    /// Runs the command stream at `range` into `assembler`: MoveTo starts a part (all points of a
    /// point geometry are one part), LineTo extends it, ClosePath closes it.
    private static func runCommands(
        _ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, extent: Int64, limits: VectorTileLimits, budget: inout VectorTileVertexBudget,
        into assembler: inout GeometryAssembler
    ) throws(VectorTileProblem) {
        let type = assembler.type
        var reader = WireReader(buffer, range: range)
        let margin = extent * Int64(limits.coordinateMarginExtents)
        let low = -margin
        let high = extent + margin
        var x: Int64 = 0
        var y: Int64 = 0
        var vertices = 0
        var started = false
        while !reader.isAtEnd {
            let at = reader.position
            let command = try reader.readVarint32()
            let id = command & 7
            let count = Int(command >> 3)
            switch id {
            case Command.moveTo, Command.lineTo:
                // Each point takes two parameters of at least one byte each.
                guard count <= (reader.end - reader.position) / 2 else {
                    throw VectorTileProblem(
                        .invalidGeometry, at: at,
                        "expected \(2 * count) parameter bytes or more for a command count of \(count), found \(reader.end - reader.position)")
                }
                if id == Command.lineTo {
                    guard type != .point else {
                        throw VectorTileProblem(.invalidGeometry, at: at, "expected only MoveTo in a point geometry, found LineTo")
                    }
                    guard started else {
                        throw VectorTileProblem(.invalidGeometry, at: at, "expected MoveTo before LineTo, found LineTo first")
                    }
                } else if type != .point {
                    guard count == 1 else {
                        throw VectorTileProblem(.invalidGeometry, at: at, "expected a MoveTo count of 1 in a line or polygon, found \(count)")
                    }
                    assembler.finishPart()
                }
                started = true
                vertices += count
                guard vertices <= limits.maximumVerticesPerFeature else {
                    throw VectorTileProblem(
                        .limitExceeded, at: at,
                        "expected at most \(limits.maximumVerticesPerFeature) vertices in a feature, found \(vertices) or more")
                }
                guard budget.take(count) else {
                    throw VectorTileProblem(
                        .limitExceeded, at: at,
                        "expected at most \(limits.maximumVerticesPerTile) vertices in the tile, found more (this feature adds \(count))")
                }
                assembler.reserve(count)
                for _ in 0..<count {
                    let parameterAt = reader.position
                    x += WireReader.zigzag(UInt64(try reader.readVarint32()))
                    y += WireReader.zigzag(UInt64(try reader.readVarint32()))
                    guard x >= low, x <= high, y >= low, y <= high else {
                        throw VectorTileProblem(
                            .coordinateOutOfRange, at: parameterAt,
                            "expected coordinates within \(low)…\(high) tile units (extent \(extent)), found (\(x), \(y))")
                    }
                    assembler.part.append(TilePoint(x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y)))
                }
            case Command.closePath:
                guard type != .point else {
                    throw VectorTileProblem(.invalidGeometry, at: at, "expected only MoveTo in a point geometry, found ClosePath")
                }
                guard count == 1 else { throw VectorTileProblem(.invalidGeometry, at: at, "expected a ClosePath count of 1, found \(count)") }
                guard started else {
                    throw VectorTileProblem(.invalidGeometry, at: at, "expected MoveTo before ClosePath, found ClosePath first")
                }
                if type == .lineString, let first = assembler.part.first {
                    guard budget.take(1) else {
                        throw VectorTileProblem(.limitExceeded, at: at, "expected at most \(limits.maximumVerticesPerTile) vertices in the tile")
                    }
                    assembler.part.append(first)
                }
            default:
                throw VectorTileProblem(.invalidGeometry, at: at, "expected command 1 (MoveTo), 2 (LineTo) or 7 (ClosePath), found \(id)")
            }
        }
    }
}

/// Builds a geometry part by part as the commands arrive: finished lines and rings are moved (not
/// copied) into the result, rings grouped by winding as they finish.
private struct GeometryAssembler {
    let type: VectorTileGeometryType
    /// The part being drawn (every point, for a point geometry).
    var part: [TilePoint] = []
    private var lines: [[TilePoint]] = []
    private var polygons: [VectorTilePolygon] = []
    /// The sign of the first ring's area: rings of this sign are exteriors.
    private var exteriorSign: Int64 = 0

    init(type: VectorTileGeometryType) { self.type = type }

    /// Room for `count` more points. Only the first command of a part reserves exactly; later ones
    /// leave growth to the array's doubling, so a part split into many commands is not copied per command.
    mutating func reserve(_ count: Int) {
        if part.count <= 1 { part.reserveCapacity(part.count + count) }
    }

    /// Ends the current part: a line of two or more points is kept; a ring loses a repeated closing
    /// point, is dropped if its area is zero, and starts a polygon or becomes a hole by its winding.
    mutating func finishPart() {
        guard !part.isEmpty else { return }
        defer { part = [] }
        switch type {
        case .lineString:
            if part.count >= 2 { lines.append(part) }
        case .polygon:
            // Some encoders repeat the first point before ClosePath; the ring is closed anyway.
            if part.count >= 2, part[part.count - 1] == part[0] { part.removeLast() }
            let sign = twiceSignedArea(part).signum()
            guard sign != 0 else { return }
            if exteriorSign == 0 { exteriorSign = sign }
            if sign == exteriorSign {
                polygons.append(VectorTilePolygon(exterior: part))
            } else {
                polygons[polygons.count - 1].holes.append(part)
            }
        case .point, .unknown:
            break
        }
    }

    /// The geometry of every part.
    mutating func finished() -> VectorTileGeometry {
        switch type {
        case .unknown: return .unknown
        case .point: return .points(part)
        case .lineString, .polygon:
            finishPart()
            return type == .lineString ? .lines(lines) : .polygons(polygons)
        }
    }
}

/// Twice the ring's signed area by the surveyor's formula, in tile units² (positive: clockwise
/// on screen, y down, the spec's exterior). Exact in integers; coordinates are taken relative
/// to the first point, and the sum wraps only for a self-overlapping ring of vast winding.
func twiceSignedArea(_ ring: [TilePoint]) -> Int64 {
    guard ring.count >= 3 else { return 0 }
    let origin = ring[0]
    var sum: Int64 = 0
    var previousX: Int64 = 0
    var previousY: Int64 = 0
    for point in ring.dropFirst() {
        let x = Int64(point.x) - Int64(origin.x)
        let y = Int64(point.y) - Int64(origin.y)
        sum = sum &+ (previousX &* y &- x &* previousY)
        previousX = x
        previousY = y
    }
    return sum
}
