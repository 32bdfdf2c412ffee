import MapGeometry

/// A line's dash pattern: alternating drawn and skipped lengths along the line, in pixels.
///
/// MapLibre's `line-dasharray` is in multiples of the line width: the caller multiplies each value
/// by the drawn width in pixels (after any @2x scaling) before making a pattern, as MapLibre does.
/// An odd number of lengths is repeated once to make an even one (so [3] is 3 on, 3 off), as SVG
/// and MapLibre do; negative or non-finite lengths count as 0.
public struct DashPattern: Sendable, Equatable {
    /// Shortest period (sum of all lengths) drawn as dashes; a shorter pattern is drawn as a solid
    /// line (its dashes could not be told apart at one pixel, and its pieces would be unbounded).
    public static let minimumPeriodPixels = 1.0

    /// Alternating on and off lengths in pixels, an even number of them, starting with "on".
    public let lengthsPixels: [Double]
    /// Sum of the lengths.
    public let periodPixels: Double

    /// A pattern from `line-dasharray` values already multiplied by the line width in pixels.
    public init(lengthsPixels: [Double]) {
        let cleaned = lengthsPixels.map { $0.isFinite && $0 > 0 ? $0 : 0 }
        self.lengthsPixels = cleaned.count % 2 == 1 ? cleaned + cleaned : cleaned
        periodPixels = self.lengthsPixels.reduce(0, +)
    }

    /// Whether the pattern draws the whole line (no lengths, a period under
    /// `minimumPeriodPixels`, or no "off" length).
    public var isSolid: Bool {
        guard periodPixels >= Self.minimumPeriodPixels else { return true }
        return stride(from: 1, to: lengthsPixels.count, by: 2).allSatisfy { lengthsPixels[$0] == 0 }
    }
}
