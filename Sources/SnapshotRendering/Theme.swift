/// A map appearance preset.
public enum Theme: String, Sendable, Equatable, Codable, CaseIterable {
    /// Light paper (the default).
    case light
    /// Dark paper, light grid, brighter route.
    case dark
}
