/// A colour of a style: straight (not premultiplied) red, green, blue and alpha, each 0...1.
package struct StyleColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0...1.
    package var red: Double
    /// Green, 0...1.
    package var green: Double
    /// Blue, 0...1.
    package var blue: Double
    /// Opacity, 0 (transparent) ... 1 (opaque).
    package var alpha: Double

    /// A colour from straight components, each clamped to 0...1.
    package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
        self.alpha = min(max(alpha, 0), 1)
    }

    /// Opaque black, the spec's default for every colour property.
    package static let black = StyleColor(red: 0, green: 0, blue: 0)
    /// Fully transparent black (`transparent`).
    package static let transparent = StyleColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The colour as 8-bit channels, rounded: (red, green, blue, alpha).
    package var rgba8: (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        func channel(_ value: Double) -> UInt8 { UInt8((value * 255).rounded()) }
        return (channel(red), channel(green), channel(blue), channel(alpha))
    }

    /// The colour with its alpha multiplied by `opacity` (a layer's `…-opacity`).
    package func multiplyingAlpha(by opacity: Double) -> StyleColor {
        StyleColor(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }

    /// The colour `t` of the way from `self` to `other`. Like MapLibre, this interpolates the
    /// premultiplied RGB components, so fading towards `transparent` does not pass through grey.
    func interpolated(to other: StyleColor, fraction t: Double) -> StyleColor {
        let alpha = self.alpha + (other.alpha - self.alpha) * t
        guard alpha > 0 else { return .transparent }
        func mix(_ a: Double, _ b: Double) -> Double { (a * self.alpha + (b * other.alpha - a * self.alpha) * t) / alpha }
        return StyleColor(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue), alpha: alpha)
    }

    /// CSS `rgba(r, g, b, a)` with 0...255 channels, as the `to-string` operator writes it.
    package var description: String {
        let channels = rgba8
        return "rgba(\(channels.red),\(channels.green),\(channels.blue),\(ExpressionValue.format(alpha)))"
    }
}
