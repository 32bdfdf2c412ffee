/// Geometry decoding (MVT 2.1 §4.3): the command stream into tile-unit points, then lines and
/// polygons. The command loop is the decoder's hot loop; it reads the bytes in place through
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
        guard let range = feature.geometryRange else { return Self.shape([], parts: [], type: type) }
        let limits = limits
        let extent = Int64(extent)
        let decoded = try bytes.withUnsafeBufferPointer { buffer throws(VectorTileProblem) in
            do throws(VectorTileProblem) {
                return try Self.decodeCommands(buffer, range: range, type: type, extent: extent, limits: limits, budget: &budget)
            } catch {
                throw error.located(layer: name, feature: feature.index)
            }
        }
        return Self.shape(decoded.points, parts: decoded.parts, type: type)
    }

    /// Runs the command stream at `range`: every MoveTo of a line or polygon starts a part (the
    /// index of its first point in `points`); a ClosePath of a line repeats the part's first point.
    private static func decodeCommands(
        _ buffer: UnsafeBufferPointer<UInt8>, range: Range<Int>, type: VectorTileGeometryType, extent: Int64, limits: VectorTileLimits,
        budget: inout VectorTileVertexBudget
    ) throws(VectorTileProblem) -> (points: [TilePoint], parts: [Int]) {
        var reader = WireReader(buffer, range: range)
        let margin = extent * Int64(limits.coordinateMarginExtents)
        let low = -margin
        let high = extent + margin
        var x: Int64 = 0
        var y: Int64 = 0
        var points: [TilePoint] = []
        // Parameters take one or two bytes each in real tiles: one reservation of about the final
        // size, then the array's own doubling (a reservation per command would copy per command).
        points.reserveCapacity(min(range.count / 3, limits.maximumVerticesPerFeature))
        var parts: [Int] = []
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
                    guard !parts.isEmpty else {
                        throw VectorTileProblem(.invalidGeometry, at: at, "expected MoveTo before LineTo, found LineTo first")
                    }
                } else if type == .point {
                    if parts.isEmpty { parts.append(0) }
                } else {
                    guard count == 1 else {
                        throw VectorTileProblem(.invalidGeometry, at: at, "expected a MoveTo count of 1 in a line or polygon, found \(count)")
                    }
                    parts.append(points.count)
                }
                guard points.count + count <= limits.maximumVerticesPerFeature else {
                    throw VectorTileProblem(
                        .limitExceeded, at: at,
                        "expected at most \(limits.maximumVerticesPerFeature) vertices in a feature, found \(points.count + count) or more")
                }
                guard budget.take(count) else {
                    throw VectorTileProblem(
                        .limitExceeded, at: at,
                        "expected at most \(limits.maximumVerticesPerTile) vertices in the tile, found more (this feature adds \(count))")
                }
                for _ in 0..<count {
                    let parameterAt = reader.position
                    x += WireReader.zigzag(UInt64(try reader.readVarint32()))
                    y += WireReader.zigzag(UInt64(try reader.readVarint32()))
                    guard x >= low, x <= high, y >= low, y <= high else {
                        throw VectorTileProblem(
                            .coordinateOutOfRange, at: parameterAt,
                            "expected coordinates within \(low)…\(high) tile units (extent \(extent)), found (\(x), \(y))")
                    }
                    points.append(TilePoint(x: Int32(truncatingIfNeeded: x), y: Int32(truncatingIfNeeded: y)))
                }
            case Command.closePath:
                guard type != .point else {
                    throw VectorTileProblem(.invalidGeometry, at: at, "expected only MoveTo in a point geometry, found ClosePath")
                }
                guard count == 1 else { throw VectorTileProblem(.invalidGeometry, at: at, "expected a ClosePath count of 1, found \(count)") }
                guard let start = parts.last else {
                    throw VectorTileProblem(.invalidGeometry, at: at, "expected MoveTo before ClosePath, found ClosePath first")
                }
                if type == .lineString, points.count > start {
                    guard budget.take(1) else {
                        throw VectorTileProblem(.limitExceeded, at: at, "expected at most \(limits.maximumVerticesPerTile) vertices in the tile")
                    }
                    points.append(points[start])
                }
            default:
                throw VectorTileProblem(.invalidGeometry, at: at, "expected command 1 (MoveTo), 2 (LineTo) or 7 (ClosePath), found \(id)")
            }
        }
        return (points, parts)
    }

    /// Cuts the points into the geometry of `type`.
    private static func shape(_ points: [TilePoint], parts: [Int], type: VectorTileGeometryType) -> VectorTileGeometry {
        switch type {
        case .unknown: return .unknown
        case .point: return .points(points)
        case .lineString:
            var lines: [[TilePoint]] = []
            for (k, start) in parts.enumerated() {
                let end = k + 1 < parts.count ? parts[k + 1] : points.count
                if end - start >= 2 { lines.append(Array(points[start..<end])) }
            }
            return .lines(lines)
        case .polygon:
            var polygons: [VectorTilePolygon] = []
            var exteriorSign: Int64 = 0
            for (k, start) in parts.enumerated() {
                var end = k + 1 < parts.count ? parts[k + 1] : points.count
                // Some encoders repeat the first point before ClosePath; the ring is closed anyway.
                if end - start >= 2, points[end - 1] == points[start] { end -= 1 }
                let ring = points[start..<end]
                let sign = Self.twiceSignedArea(ring).signum()
                guard sign != 0 else { continue }
                if exteriorSign == 0 { exteriorSign = sign }
                if sign == exteriorSign {
                    polygons.append(VectorTilePolygon(exterior: Array(ring)))
                } else {
                    polygons[polygons.count - 1].holes.append(Array(ring))
                }
            }
            return .polygons(polygons)
        }
    }

    /// Twice the ring's signed area by the surveyor's formula, in tile units² (positive: clockwise
    /// on screen, y down, the spec's exterior). Exact in integers; coordinates are taken relative
    /// to the first point, and the sum wraps only for a self-overlapping ring of vast winding.
    static func twiceSignedArea(_ ring: ArraySlice<TilePoint>) -> Int64 {
        guard ring.count >= 3, let origin = ring.first else { return 0 }
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
}
