import MapGeometry

/// A region's counts as bytes to keep between runs, and back. Most pixels of a heat map are 0, so
/// only the others are stored: per scale, (pixels skipped since the last one, count) as varints.
/// A city of a few hundred tracks takes a few hundred kilobytes where the raw counts take 25 MB.
///
///     "TSOVR1\n"  width height (points)  mapRect (4 × float64 bits)  latitude (float64 bits)
///     scales (count, float64 bits each)  distance (zigzag)  members (count, then length + UTF-8 each)
///     per scale: track count, nonzero pixels, then (gap, count) per nonzero pixel
extension RegionOverview {
    static let stateMagic = Array("TSOVR1\n".utf8)

    /// The state as bytes (the same region always gives the same bytes).
    package func stateBytes() -> [UInt8] {
        var writer = VarintWriter(bytes: Self.stateMagic)
        writer.unsigned(UInt64(frame.widthPoints))
        writer.unsigned(UInt64(frame.heightPoints))
        for value in [frame.mapRect.minX, frame.mapRect.minY, frame.mapRect.maxX, frame.mapRect.maxY, frame.latitudeDegrees] {
            writer.unsigned(value.bitPattern)
        }
        writer.unsigned(UInt64(scales.count))
        for scale in scales { writer.unsigned(scale.bitPattern) }
        writer.signed(Int64(distanceMeters))
        writer.unsigned(UInt64(members.count))
        for id in members.sorted() {
            writer.unsigned(UInt64(id.utf8.count))
            writer.bytes += id.utf8
        }
        for grid in grids {
            writer.unsigned(UInt64(grid.trackCount))
            let nonzero = grid.counts.reduce(0) { $0 + ($1 == 0 ? 0 : 1) }
            writer.unsigned(UInt64(nonzero))
            var last = -1
            for (index, count) in grid.counts.enumerated() where count != 0 {
                writer.unsigned(UInt64(index - last - 1))
                writer.unsigned(UInt64(count))
                last = index
            }
        }
        return writer.bytes
    }

    /// The region kept in `bytes`; nil when they are not a state this version writes (another
    /// magic, a number cut off, a count past its grid, sizes that disagree with the frame).
    package init?(stateBytes bytes: [UInt8]) {
        var reader = VarintReader(bytes: bytes, offset: 0)
        guard bytes.starts(with: Self.stateMagic) else { return nil }
        reader.offset = Self.stateMagic.count
        guard let width = reader.unsigned(), let height = reader.unsigned(), width > 0, height > 0, width < 1 << 20, height < 1 << 20
        else { return nil }
        var doubles: [Double] = []
        for _ in 0..<5 {
            guard let bits = reader.unsigned() else { return nil }
            doubles.append(Double(bitPattern: bits))
        }
        guard let scaleCount = reader.unsigned(), (1...8).contains(scaleCount) else { return nil }
        var scales: [Double] = []
        for _ in 0..<scaleCount {
            guard let bits = reader.unsigned(), case let scale = Double(bitPattern: bits), scale > 0, scale <= 8 else { return nil }
            scales.append(scale)
        }
        guard let distance = reader.signed(), let memberCount = reader.unsigned(), memberCount <= bytes.count else { return nil }
        var members: Set<String> = []
        // Room for all at once: grown one doubling at a time, a city's 400,000 ids were each
        // hashed again at every doubling (half of reading the state).
        members.reserveCapacity(Int(memberCount))
        for _ in 0..<memberCount {
            guard let length = reader.unsigned(), let id = reader.take(Int(clamping: length)) else { return nil }
            members.insert(String(decoding: id, as: UTF8.self))
        }
        let frame = RegionFrame(
            widthPoints: Int(width), heightPoints: Int(height),
            mapRect: MapRect(minX: doubles[0], minY: doubles[1], maxX: doubles[2], maxY: doubles[3]), latitudeDegrees: doubles[4])
        var grids: [DensityGrid] = []
        for scale in scales {
            let viewport = frame.viewport(scale: scale)
            var counts = [UInt32](repeating: 0, count: viewport.widthPixels * viewport.heightPixels)
            guard let trackCount = reader.unsigned(), trackCount == memberCount, let nonzero = reader.unsigned(), nonzero <= counts.count else {
                return nil
            }
            var index = -1
            for _ in 0..<nonzero {
                guard let gap = reader.unsigned(), let count = reader.unsigned(), gap < UInt64(counts.count), count > 0, count <= trackCount else {
                    return nil
                }
                index += Int(gap) + 1
                guard index < counts.count else { return nil }
                counts[index] = UInt32(count)
            }
            grids.append(DensityGrid(width: viewport.widthPixels, height: viewport.heightPixels, counts: counts, trackCount: Int(trackCount)))
        }
        guard reader.offset == bytes.count else { return nil }
        self.init(frame: frame, scales: scales, grids: grids)
        self.members = members
        distanceMeters = Int(distance)
    }
}

/// Appends LEB128 varints.
struct VarintWriter {
    var bytes: [UInt8]

    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func signed(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
}

/// Reads LEB128 varints; nil past the end or for a varint longer than ten bytes.
struct VarintReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func unsigned() -> UInt64? {
        var value: UInt64 = 0, shift: UInt64 = 0
        while offset < bytes.count, shift < 64 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    mutating func signed() -> Int64? {
        guard let value = unsigned() else { return nil }
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }
}
