#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Raster

/// The colours of a heat map: a count becomes one of `levels` colours on a log-like scale, so a
/// street passed once and one passed 500 times both show, and the colours between the stops are
/// interpolated in Oklab (a perceptually even space: equal steps look equally different, with no
/// muddy middle as in sRGB).
package struct DensityRamp: Sendable, Equatable {
    /// The colours from one track to the most, in order. Default: blue #3A86D4, indigo #5B3FC4,
    /// magenta #B0207E, dark crimson #7A0A1E (darker as the count grows, for light map paper).
    package var stops: [RGBAColor] = [
        RGBAColor(red: 0x3A, green: 0x86, blue: 0xD4), RGBAColor(red: 0x5B, green: 0x3F, blue: 0xC4),
        RGBAColor(red: 0xB0, green: 0x20, blue: 0x7E), RGBAColor(red: 0x7A, green: 0x0A, blue: 0x1E),
    ]
    /// How many distinct colours the ramp has. 48 steps apart by at least 3 levels of 255 in some
    /// channel, so no two share an entry of the picture's palette (which merges colours closer
    /// than that), and the eye tells neighbours apart no better. Default: 48.
    package var levels = 48
    /// The scale's top is the picture's largest count, but never below this, so a region of a few
    /// tracks is not drawn all in the hottest colour. Default: 10.
    package var minimumTopCount: UInt32 = 10
    /// The scale's top grows by this factor: it is `minimumTopCount` times the smallest power of
    /// it that reaches the picture's largest count (10, 20, 40, … by default). A top that followed
    /// the largest count exactly changed every pixel's level whenever one street gained a track,
    /// so a new track redrew every tile of a picture (`PictureTiling`); with a step of 2 the top
    /// moves only when the busiest street doubles. The price: the busiest pixel may sit up to one
    /// step below the top, log(m)/log(2m) of the way (just past a step, 81 tracks under a top of
    /// 160: level 41 of 48; 641 under 1,280: level 43), so the darkest few colours show only just
    /// after the top has moved. Default: 2.
    package var topStep: UInt32 = 2

    /// The defaults above.
    package init() {}

    /// The count the scale's top stands for in a picture whose largest count is `maximum`:
    /// `minimumTopCount` times the smallest power of `topStep` that is at least `maximum`.
    package func top(forMaximum maximum: UInt32) -> UInt32 {
        var top = max(minimumTopCount, 2)
        let step = max(topStep, 1)
        while top < maximum && step > 1 {
            let (next, overflow) = top.multipliedReportingOverflow(by: step)
            if overflow { return maximum }
            top = next
        }
        return max(top, maximum)
    }

    /// The level (1...`levels`) of `count` (≥ 1) in a picture whose largest count is `maximum`:
    /// log(count) / log(top) spread over the levels (`top(forMaximum:)`), so one track is the
    /// first colour, the top the last, and each doubling of the count about the same step.
    package func level(count: UInt32, maximum: UInt32) -> Int {
        let top = Double(top(forMaximum: maximum))
        let fraction = log(Double(max(count, 1))) / log(top)
        return 1 + min(levels - 1, Int(fraction * Double(levels - 1)))
    }

    /// The colour of every level, index 0 unused (level 0 is "no track": the paper shows).
    package func palette() -> [RGBAColor] {
        let lab = stops.map(Oklab.init)
        var colors = [stops[0]]
        for level in 1...levels {
            let position = Double(level - 1) / Double(max(1, levels - 1)) * Double(lab.count - 1)
            let lower = min(Int(position), lab.count - 2), weight = position - Double(lower)
            colors.append(lab[lower].mixed(with: lab[lower + 1], weight: weight).color)
        }
        return colors
    }
}

/// A colour in Oklab (L lightness 0...1, a green–red, b blue–yellow), from and to 8-bit sRGB.
/// The matrices are Björn Ottosson's definition of the space (2020).
struct Oklab: Equatable {
    var lightness: Double, a: Double, b: Double

    init(lightness: Double, a: Double, b: Double) {
        self.lightness = lightness
        self.a = a
        self.b = b
    }

    init(_ color: RGBAColor) {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let r = linear(color.red), g = linear(color.green), bl = linear(color.blue)
        let l = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * bl)
        let m = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * bl)
        let s = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * bl)
        lightness = 0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s
        a = 1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s
        b = 0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s
    }

    /// The point `weight` (0...1) of the way to `other`.
    func mixed(with other: Oklab, weight: Double) -> Oklab {
        Oklab(
            lightness: lightness + (other.lightness - lightness) * weight, a: a + (other.a - a) * weight,
            b: b + (other.b - b) * weight)
    }

    /// The nearest opaque 8-bit sRGB colour (channels clamped).
    var color: RGBAColor {
        let l = pow(lightness + 0.396_337_777_4 * a + 0.215_803_757_3 * b, 3)
        let m = pow(lightness - 0.105_561_345_8 * a - 0.063_854_172_8 * b, 3)
        let s = pow(lightness - 0.089_484_177_5 * a - 1.291_485_548_0 * b, 3)
        func encoded(_ value: Double) -> UInt8 {
            let clamped = min(max(value, 0), 1)
            let gamma = clamped <= 0.003_130_8 ? clamped * 12.92 : 1.055 * pow(clamped, 1 / 2.4) - 0.055
            return UInt8((gamma * 255).rounded())
        }
        return RGBAColor(
            red: encoded(4.076_741_662_1 * l - 3.307_711_591_3 * m + 0.230_969_929_2 * s),
            green: encoded(-1.268_438_004_6 * l + 2.609_757_401_1 * m - 0.341_319_396_5 * s),
            blue: encoded(-0.004_196_086_3 * l - 0.703_418_614_7 * m + 1.707_614_701_0 * s))
    }
}
