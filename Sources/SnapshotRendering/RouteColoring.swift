import Raster

/// How the route is coloured.
public enum RouteColoring: String, Sendable, Equatable, Codable, CaseIterable {
    /// One colour (`SnapshotStyle.routeColor`).
    case single = "none"
    /// Bands of moving speed between fixes (needs times; otherwise one colour).
    case speed
    /// Bands of elevation (needs elevations; otherwise one colour).
    case elevation

    /// Nine colours from slow/low (blue) to fast/high (red), opaque; the route colour's opacity
    /// applies once over the whole route.
    public static let defaultBandColors: [RGBAColor] = [
        0x2C7BB6, 0x4A9BC7, 0x74B9D6, 0xABD9E9, 0xE0F3C8, 0xFEE090, 0xFDAE61, 0xF46D43, 0xD7191C,
    ].map { RGBAColor(red: UInt8($0 >> 16), green: UInt8(($0 >> 8) & 0xFF), blue: UInt8($0 & 0xFF)) }

    /// Fewest and most bands a style may have.
    public static let bandCountRange = 8...10
}
