/// PMTiles v3 tile ids: every tile of every zoom numbered along one sequence, zoom by zoom, each
/// zoom's tiles in Hilbert-curve order (PMTiles v3 spec, "Tile ID"). All arithmetic is 64-bit:
/// zoom 16 alone has 4^16 tiles, past 32 bits (readers that used 32-bit or float maths broke there).
public enum PMTilesTileID {
    /// The largest zoom whose ids fit in 64 bits.
    public static let maximumZoom = 31

    /// The id of the first tile of zoom `z`: the number of tiles of all lower zooms, (4^z − 1) / 3.
    public static func firstID(ofZoom z: Int) -> UInt64 {
        precondition((0...maximumZoom + 1).contains(z), "zoom \(z) outside 0…\(maximumZoom + 1)")
        // At z = 32, 4^32 wraps to 0 and 0 &- 1 is 2^64 − 1, so the formula still holds.
        return (((1 as UInt64) << (2 * UInt64(z))) &- 1) / 3
    }

    /// The id of tile `z/x/y` (XYZ rows, counted from the north); nil outside 0…31 or the zoom's grid.
    public static func id(z: Int, x: Int, y: Int) -> UInt64? {
        guard (0...maximumZoom).contains(z) else { return nil }
        let n = UInt64(1) << UInt64(z)
        guard x >= 0, y >= 0, UInt64(x) < n, UInt64(y) < n else { return nil }
        var px = UInt64(x)
        var py = UInt64(y)
        var distance: UInt64 = 0
        var s = n / 2
        while s > 0 {
            let rx: UInt64 = px & s != 0 ? 1 : 0
            let ry: UInt64 = py & s != 0 ? 1 : 0
            distance += s * s * ((3 * rx) ^ ry)
            rotate(n, &px, &py, rx, ry)
            s /= 2
        }
        return firstID(ofZoom: z) + distance
    }

    /// The tile `z/x/y` of `id`; nil past the ids of zoom 31.
    public static func tile(of id: UInt64) -> (z: Int, x: Int, y: Int)? {
        var z = 0
        while z <= maximumZoom, id >= firstID(ofZoom: z + 1) { z += 1 }
        guard z <= maximumZoom else { return nil }
        let n = UInt64(1) << UInt64(z)
        var t = id - firstID(ofZoom: z)
        var px: UInt64 = 0
        var py: UInt64 = 0
        var s: UInt64 = 1
        while s < n {
            let rx = 1 & (t / 2)
            let ry = 1 & (t ^ rx)
            rotate(s, &px, &py, rx, ry)
            px += s * rx
            py += s * ry
            t /= 4
            s *= 2
        }
        return (z, Int(px), Int(py))
    }

    /// One quadrant's turn of the Hilbert curve: reflect and swap so the sub-square is walked in
    /// the parent's orientation.
    private static func rotate(_ n: UInt64, _ x: inout UInt64, _ y: inout UInt64, _ rx: UInt64, _ ry: UInt64) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = n &- 1 &- x
            y = n &- 1 &- y
        }
        swap(&x, &y)
    }
}
