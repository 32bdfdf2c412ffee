extension StyleColor {
    /// Reads a CSS colour as style documents write them: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
    /// `rgb()`, `rgba()`, `hsl()`, `hsla()` (with commas, or the space syntax with `/ alpha`), the CSS
    /// named colours and `transparent`. Case does not matter. Nil when the text is none of these.
    package init?(css text: String) {
        let lowered = text.trimmingSpaces().lowercased()
        if lowered.hasPrefix("#") {
            guard let color = StyleColor(hex: lowered.dropFirst()) else { return nil }
            self = color
        } else if let open = lowered.firstIndex(of: "("), lowered.hasSuffix(")") {
            let name = String(lowered[..<open]).trimmingSpaces()
            let inner = lowered[lowered.index(after: open)..<lowered.index(before: lowered.endIndex)]
            guard let color = StyleColor(function: name, arguments: String(inner)) else { return nil }
            self = color
        } else if lowered == "transparent" {
            self = .transparent
        } else if let packed = StyleColor.namedColors[lowered] {
            self = StyleColor(red: Double(packed >> 16) / 255, green: Double((packed >> 8) & 0xFF) / 255, blue: Double(packed & 0xFF) / 255)
        } else {
            return nil
        }
    }

    private init?(hex digits: Substring) {
        var values: [Double] = []
        for character in digits {
            guard let digit = character.hexDigitValue else { return nil }
            values.append(Double(digit))
        }
        switch values.count {
        case 3, 4:
            let channels = values.map { $0 * 17 / 255 }
            self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: values.count == 4 ? channels[3] : 1)
        case 6, 8:
            let channels = stride(from: 0, to: values.count, by: 2).map { (values[$0] * 16 + values[$0 + 1]) / 255 }
            self.init(red: channels[0], green: channels[1], blue: channels[2], alpha: values.count == 8 ? channels[3] : 1)
        default:
            return nil
        }
    }

    /// `rgb`/`rgba`/`hsl`/`hsla` with their argument text: "r, g, b[, a]" or "r g b[ / a]".
    private init?(function name: String, arguments: String) {
        let parts: [String]
        if arguments.contains(",") {
            parts = arguments.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        } else {
            let halves = arguments.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count <= 2 else { return nil }
            parts = halves[0].split(separator: " ").map(String.init) + (halves.count == 2 ? [String(halves[1]).trimmingSpaces()] : [])
        }
        guard parts.count == 3 || parts.count == 4, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        var alpha = 1.0
        if parts.count == 4 {
            guard let value = StyleColor.component(parts[3], percentOf: 1) else { return nil }
            alpha = value
        }
        switch name {
        case "rgb", "rgba":
            guard let red = StyleColor.component(parts[0], percentOf: 255), let green = StyleColor.component(parts[1], percentOf: 255),
                let blue = StyleColor.component(parts[2], percentOf: 255)
            else { return nil }
            self.init(red: red / 255, green: green / 255, blue: blue / 255, alpha: alpha)
        case "hsl", "hsla":
            let hueText = parts[0].hasSuffix("deg") ? String(parts[0].dropLast(3)) : parts[0]
            guard let hue = Double(hueText), parts[1].hasSuffix("%"), parts[2].hasSuffix("%"),
                let saturation = StyleColor.component(parts[1], percentOf: 1), let lightness = StyleColor.component(parts[2], percentOf: 1)
            else { return nil }
            self = StyleColor.fromHSL(hueDegrees: hue, saturation: saturation, lightness: lightness, alpha: alpha)
        default:
            return nil
        }
    }

    /// A number, or a percentage of `whole` ("50%" of 255 is 127.5).
    private static func component(_ text: String, percentOf whole: Double) -> Double? {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent.isFinite else { return nil }
            return percent / 100 * whole
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// CSS Color 4 §7.1: hue in degrees, saturation and lightness 0...1.
    static func fromHSL(hueDegrees: Double, saturation: Double, lightness: Double, alpha: Double) -> StyleColor {
        let s = min(max(saturation, 0), 1), l = min(max(lightness, 0), 1)
        let hue = (hueDegrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            return l - s * min(l, 1 - l) * max(-1, min(k - 3, 9 - k, 1))
        }
        return StyleColor(red: channel(0), green: channel(8), blue: channel(4), alpha: alpha)
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines (no Foundation here).
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
