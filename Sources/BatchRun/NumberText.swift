// What `String(format:)` did for progress and summary lines, without Foundation (whose load cost
// most of the executable's start time: see docs/performance.md, process start).

extension Double {
    /// The value rounded to `places` decimals, e.g. `12.35.fixed(1)` is "12.4" (half away from zero).
    package func fixed(_ places: Int) -> String {
        guard isFinite else { return "\(self)" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(self) * scale).rounded()
        let whole = Int(scaled / scale), fraction = Int(scaled - Double(whole) * scale)
        let sign = self < 0 && scaled > 0 ? "-" : ""
        guard places > 0 else { return sign + "\(whole)" }
        let digits = String(fraction)
        return sign + "\(whole)." + String(repeating: "0", count: places - digits.count) + digits
    }
}

extension Int {
    /// At least two digits, zero-padded: 7 → "07".
    package var twoDigits: String { self < 10 && self >= 0 ? "0\(self)" : "\(self)" }
}
