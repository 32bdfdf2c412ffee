import TrackModel

/// Writes tracks as GPX or CSV text, for samples, benchmarks and tests.
package enum TrackWriters {
    /// GPX 1.1 with `trk/trkseg/trkpt`, elevations and times (when present), and a heart-rate
    /// extension like a sports watch writes.
    package static func gpx11(_ track: Track, creator: String = "TrackSnap sample generator", heartRate: Bool = true) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(escape(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
             <metadata><time>\(track.segments.first?.fixes.first.map { isoTime($0.timeSeconds) } ?? "")</time></metadata>
             <trk>
              <name>\(escape(track.name ?? "Track"))</name>
              <type>\(track.format.rawValue)</type>

            """
        out.reserveCapacity(track.fixCount * 140)
        var beat = 0
        for segment in track.segments {
            out += "  <trkseg>\n"
            for fix in segment.fixes {
                out += "   <trkpt lat=\"\(decimal(fix.latitudeDegrees, places: 7))\" lon=\"\(decimal(fix.longitudeDegrees, places: 7))\">"
                if fix.hasElevation { out += "<ele>\(decimal(fix.elevationMeters, places: 1))</ele>" }
                if fix.hasTime { out += "<time>\(isoTime(fix.timeSeconds))</time>" }
                if heartRate {
                    beat = (beat + 7) % 40
                    out += "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(120 + beat)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
                }
                out += "</trkpt>\n"
            }
            out += "  </trkseg>\n"
        }
        out += " </trk>\n</gpx>\n"
        return out
    }

    /// CSV with a `time,latitude,longitude,elevation` header (columns in that order).
    package static func csv(_ track: Track) -> String {
        var out = "time,latitude,longitude,elevation\n"
        for fix in track.segments.flatMap(\.fixes) {
            out +=
                "\(fix.hasTime ? isoTime(fix.timeSeconds) : ""),\(decimal(fix.latitudeDegrees, places: 7)),\(decimal(fix.longitudeDegrees, places: 7)),\(fix.hasElevation ? decimal(fix.elevationMeters, places: 1) : "")\n"
        }
        return out
    }

    /// XML text escaping for element content and attributes.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A fixed-point decimal without Foundation: `decimal(8.5, places: 2)` is "8.50".
    package static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale), fraction = scaled % Int64(scale)
        var fractionText = String(fraction)
        while fractionText.count < places { fractionText = "0" + fractionText }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return places == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fractionText)"
    }

    /// `2024-05-01T07:30:00Z` (whole seconds; fractions written as `.250`).
    package static func isoTime(_ seconds: Double) -> String {
        let whole = Int64(seconds.rounded(.down))
        let millis = Int((seconds - Double(whole)) * 1000 + 0.5)
        var days = whole / 86_400
        var rest = whole % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = CivilCalendar.date(ofDay: Int(days))
        func two<N: BinaryInteger>(_ n: N) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
        if millis > 0, millis < 1000 {
            text += "." + String(String(millis + 1000).dropFirst())
        }
        return text + "Z"
    }
}
