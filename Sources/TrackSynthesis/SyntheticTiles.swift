#if canImport(Glibc)
import Glibc
#endif

/// Map tiles made from formulas, for tests, benchmarks and the example in docs/basemaps.md: no downloaded
/// data, the same pixels on every machine. Pixels are RGBA8, straight alpha, rows top to bottom.
package enum SyntheticTiles {
    /// A tile whose pixels say where they are. Red is 4 × the global source-pixel x of the
    /// pixel's centre, modulo 256 (so 2, 6, 10 … across a tile: a linear ramp with period 64
    /// pixels that any correct resampling reproduces exactly); green the same for y; blue
    /// identifies the tile (`tileTag`), so a wrong tile (a TMS row read as XYZ, a wrong wrap)
    /// shows. Opaque.
    package static func positionField(z: Int, x: Int, y: Int, size: Int = 256) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        let tag = tileTag(z: z, x: x, y: y)
        for row in 0..<size {
            for column in 0..<size {
                let index = (row * size + column) * 4
                pixels[index] = UInt8(truncatingIfNeeded: 4 * (x * size + column) + 2)
                pixels[index + 1] = UInt8(truncatingIfNeeded: 4 * (y * size + row) + 2)
                pixels[index + 2] = tag
            }
        }
        return pixels
    }

    /// The blue value of `positionField`'s tile (z, x, y): 1...250, never 0 or 255.
    package static func tileTag(z: Int, x: Int, y: Int) -> UInt8 {
        UInt8(1 + (x &* 7 &+ y &* 13 &+ z &* 29) % 250)
    }

    /// A plausible map: land tinted by a smooth noise field, lakes and sea where it is low,
    /// woods where it is high, and a road network on world-anchored lines (highways every
    /// ~310 km from zoom 5, main roads every ~39 km from zoom 9, roads every ~4.9 km from zoom
    /// 11, streets every ~610 m from zoom 14), so neighbouring tiles and zoom levels agree. Opaque.
    package static func map(z: Int, x: Int, y: Int, size: Int = 256) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        let world = Double(size) * Double(1 << z)
        for row in 0..<size {
            for column in 0..<size {
                let u = (Double(x * size + column) + 0.5) / world, v = (Double(y * size + row) + 0.5) / world
                let height = fractalNoise(u * 4096, v * 4096)
                var colour: (Double, Double, Double)
                if height < 0.36 {
                    colour = (170, 211, 223)  // water
                } else if height > 0.62 {
                    colour = (200, 223, 180)  // woods
                } else {
                    let t = (height - 0.36) / 0.26
                    colour = (242 - 20 * t, 239 - 6 * t, 233 - 30 * t)
                }
                if height >= 0.36 {
                    let pixelInWorld = 1 / world
                    for (spacing, halfWidthPixels, fill, minimumZoom) in [
                        (1.0 / 65536, 0.8, (255.0, 255.0, 255.0), 14), (1.0 / 8192, 1.1, (255.0, 255.0, 255.0), 11),
                        (1.0 / 1024, 1.4, (255.0, 250.0, 220.0), 9),
                        (1.0 / 128, 2.2, (248.0, 178.0, 156.0), 5),
                    ] where z >= minimumZoom {
                        // Roads wander a little (a sine on the other axis) so they do not look ruled.
                        let du = distanceToLine(u + 0.00002 * sin(v * 9000), spacing: spacing) / pixelInWorld
                        let dv = distanceToLine(v + 0.00002 * sin(u * 9000), spacing: spacing) / pixelInWorld
                        let distance = min(du, dv)
                        let casing = max(0, min(1, halfWidthPixels + 1.2 - distance)), inner = max(0, min(1, halfWidthPixels + 0.5 - distance))
                        colour = mix(colour, (150, 150, 150), casing * 0.6)
                        colour = mix(colour, fill, inner)
                    }
                }
                let index = (row * size + column) * 4
                pixels[index] = UInt8(colour.0.rounded())
                pixels[index + 1] = UInt8(colour.1.rounded())
                pixels[index + 2] = UInt8(colour.2.rounded())
            }
        }
        return pixels
    }

    private static func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double) -> (Double, Double, Double) {
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    private static func distanceToLine(_ value: Double, spacing: Double) -> Double {
        let phase = value / spacing - (value / spacing).rounded(.down)
        return min(phase, 1 - phase) * spacing
    }

    /// Three octaves of value noise on a hashed lattice, 0...1.
    private static func fractalNoise(_ u: Double, _ v: Double) -> Double {
        var total = 0.0, amplitude = 0.5, frequency = 1.0
        for _ in 0..<4 {
            total += amplitude * valueNoise(u * frequency, v * frequency)
            amplitude *= 0.5
            frequency *= 2.7
        }
        return total / 0.9375
    }

    private static func valueNoise(_ u: Double, _ v: Double) -> Double {
        let x0 = u.rounded(.down), y0 = v.rounded(.down)
        let fx = u - x0, fy = v - y0
        let sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy)
        func lattice(_ x: Double, _ y: Double) -> Double {
            var hash = UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
            hash ^= hash >> 29
            hash = hash &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 32
            return Double(hash & 0xFFFF) / 65535
        }
        let top = lattice(x0, y0) * (1 - sx) + lattice(x0 + 1, y0) * sx
        let bottom = lattice(x0, y0 + 1) * (1 - sx) + lattice(x0 + 1, y0 + 1) * sx
        return top * (1 - sy) + bottom * sy
    }
}
