#if canImport(Glibc)
import Glibc
#endif

/// How numbers and times read on the pages (metric; times in the track's local time, see
/// `ListingTrack.utcOffsetS`). Pure functions, no locale: the same bytes on every machine.
enum ListingFormat {
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Calendar fields of a time shifted by an offset.
    struct LocalTime {
        var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int
        var offsetSeconds: Int

        init(_ seconds: Double, offsetSeconds: Int) {
            var time = time_t((seconds + Double(offsetSeconds)).rounded(.down))
            var parts = tm()
            gmtime_r(&time, &parts)
            year = Int(parts.tm_year) + 1900
            month = Int(parts.tm_mon) + 1
            day = Int(parts.tm_mday)
            hour = Int(parts.tm_hour)
            minute = Int(parts.tm_min)
            second = Int(parts.tm_sec)
            weekday = Int(parts.tm_wday)
            self.offsetSeconds = offsetSeconds
        }

        /// "2024-05"
        var monthKey: String { "\(year)-" + two(month) }
        /// "May 2024"
        var monthTitle: String { "\(monthNames[month - 1]) \(year)" }
        /// "UTC+2", "UTC−3:30", "UTC"
        var zone: String {
            guard offsetSeconds != 0 else { return "UTC" }
            let sign = offsetSeconds > 0 ? "+" : "−"
            let minutes = abs(offsetSeconds) / 60
            return "UTC" + sign + "\(minutes / 60)" + (minutes % 60 == 0 ? "" : ":" + two(minutes % 60))
        }
        /// "Sat 4 May 2024, 08:12"
        var text: String { "\(weekdayNames[weekday]) \(day) \(monthNames[month - 1].prefix(3)) \(year), \(two(hour)):\(two(minute))" }
        /// "08:12"
        var clock: String { "\(two(hour)):\(two(minute))" }
        /// The zone as the pages show it: `<span class="zone" title="Europe/Zurich">UTC+2</span>`,
        /// "as recorded in the file" as the title for a file's own offset, and for the nautical
        /// estimate "UTC−2 (nautical estimate)".
        func zoneHTML(_ track: ListingTrack) -> String {
            switch (track.utcOffsetSource, track.timeZone) {
            case ("file", _): return "<span class=\"zone\" title=\"as recorded in the file\">\(zone)</span>"
            case (_, let name?): return "<span class=\"zone\" title=\"\(ListingFormat.escape(name))\">\(zone)</span>"
            default: return "<span class=\"zone\">\(zone) (nautical estimate)</span>"
            }
        }
        /// "2024-05-04T08:12:00+02:00", for `<time datetime>`.
        var iso: String {
            let minutes = abs(offsetSeconds) / 60
            let zone = offsetSeconds == 0 ? "Z" : (offsetSeconds > 0 ? "+" : "-") + two(minutes / 60) + ":" + two(minutes % 60)
            return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))" + zone
        }
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// "850 m", "12.3 km", "154 km"
    static func distance(_ meters: Double) -> String {
        if meters < 1000 { return "\(Int(meters.rounded())) m" }
        if meters < 100_000 { return fixed(meters / 1000, digits: 1) + " km" }
        return "\(Int((meters / 1000).rounded())) km"
    }

    /// "42:05" under an hour, "3:04:05" from an hour.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let hours = total / 3600, minutes = (total % 3600) / 60, rest = total % 60
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }

    /// "↑ 420 m"
    static func climb(_ meters: Double) -> String { "↑ \(Int(meters.rounded())) m" }

    /// Moving pace ("5:12 /km") for activities on foot, moving speed ("23.4 km/h") for the rest;
    /// nil without moving time. With no activity recorded, under 10 km/h reads as on foot.
    static func paceOrSpeed(activity: String?, movingDistanceMeters: Double?, movingSeconds: Double?) -> String? {
        guard let meters = movingDistanceMeters, let seconds = movingSeconds, seconds >= 1, meters >= 1 else { return nil }
        let metersPerSecond = meters / seconds
        let onFoot: Bool
        if let activity = activity?.lowercased(), !activity.isEmpty {
            onFoot = ["run", "walk", "hik", "trail", "foot", "trek"].contains { activity.contains($0) }
        } else {
            onFoot = metersPerSecond < 10 / 3.6
        }
        if onFoot {
            let secondsPerKilometre = Int((1000 / metersPerSecond).rounded())
            guard secondsPerKilometre < 100 * 60 else { return nil }
            return "\(secondsPerKilometre / 60):\(two(secondsPerKilometre % 60)) /km"
        }
        return fixed(metersPerSecond * 3.6, digits: 1) + " km/h"
    }

    /// A number with a fixed count of decimals (no Foundation formatter: the same on every machine).
    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + "\(whole)"
        if digits > 0 {
            var digitsText = "\(fraction)"
            while digitsText.count < digits { digitsText = "0" + digitsText }
            text += "." + digitsText
        }
        return text
    }

    /// Escapes text for HTML content and double-quoted or single-quoted attributes, and turns
    /// control characters (tabs, newlines, …) into spaces: they mean nothing in HTML text, and the
    /// listing cache uses tabs and newlines as separators, so no page piece may contain them.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case _ where character.value < 0x20 || character.value == 0x7F: escaped += " "
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
