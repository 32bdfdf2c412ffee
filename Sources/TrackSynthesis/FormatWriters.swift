import JSONDocument
import TrackModel

/// Writes tracks as TCX, KML and GeoJSON text, for the conformance corpus, fuzzing seeds and
/// benchmarks. Coordinates get 7 decimals (about 1 cm), so a reader's result can be compared to
/// the writer's input within 1e-7°.
extension TrackWriters {
    /// Training Center XML v2: one `Activity` with `sport`, one `Lap` per segment, each with a `Track`.
    package static func tcx(_ track: Track, sport: String = "Running") -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
             <Activities>
              <Activity Sport="\(escape(sport))">
               <Id>\(track.segments.first?.fixes.first.map { isoTime($0.timeSeconds) } ?? "")</Id>

            """
        out.reserveCapacity(track.fixCount * 260)
        for segment in track.segments {
            out +=
                "   <Lap StartTime=\"\(segment.fixes.first.map { isoTime($0.timeSeconds) } ?? "")\"><TotalTimeSeconds>0</TotalTimeSeconds>\n    <Track>\n"
            for fix in segment.fixes {
                out += "     <Trackpoint>"
                if fix.hasTime { out += "<Time>\(isoTime(fix.timeSeconds))</Time>" }
                out += "<Position><LatitudeDegrees>\(decimal(fix.latitudeDegrees, places: 7))</LatitudeDegrees>"
                out += "<LongitudeDegrees>\(decimal(fix.longitudeDegrees, places: 7))</LongitudeDegrees></Position>"
                if fix.hasElevation { out += "<AltitudeMeters>\(decimal(fix.elevationMeters, places: 1))</AltitudeMeters>" }
                out += "<HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>\n"
            }
            out += "    </Track>\n   </Lap>\n"
        }
        out += "  </Activity>\n </Activities>\n</TrainingCenterDatabase>\n"
        return out
    }

    /// KML 2.2 with one `Placemark` per segment: a `gx:Track` (`when` + `gx:coord`) when
    /// `timed` and the fixes have times, else a `LineString`.
    package static func kml(_ track: Track, timed: Bool = true) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
             <Document>
              <name>\(escape(track.name ?? "Track"))</name>

            """
        out.reserveCapacity(track.fixCount * 90)
        for segment in track.segments {
            out += "  <Placemark><name>\(escape(track.name ?? "Track"))</name>\n"
            if timed, segment.fixes.allSatisfy(\.hasTime) {
                out += "   <gx:Track>\n"
                for fix in segment.fixes { out += "    <when>\(isoTime(fix.timeSeconds))</when>\n" }
                for fix in segment.fixes {
                    out += "    <gx:coord>\(decimal(fix.longitudeDegrees, places: 7)) \(decimal(fix.latitudeDegrees, places: 7))"
                    out += fix.hasElevation ? " \(decimal(fix.elevationMeters, places: 1))</gx:coord>\n" : "</gx:coord>\n"
                }
                out += "   </gx:Track>\n"
            } else {
                out += "   <LineString><coordinates>\n"
                for fix in segment.fixes {
                    out += "    \(decimal(fix.longitudeDegrees, places: 7)),\(decimal(fix.latitudeDegrees, places: 7))"
                    out += fix.hasElevation ? ",\(decimal(fix.elevationMeters, places: 1))\n" : "\n"
                }
                out += "   </coordinates></LineString>\n"
            }
            out += "  </Placemark>\n"
        }
        out += " </Document>\n</kml>\n"
        return out
    }

    /// A GeoJSON `FeatureCollection` with one `Feature`: a `LineString` (one segment) or a
    /// `MultiLineString`, with `properties.name` and `properties.coordTimes` when every fix has a time.
    package static func geoJSON(_ track: Track) -> String {
        func position(_ fix: Fix) -> String {
            let head = "[\(decimal(fix.longitudeDegrees, places: 7)),\(decimal(fix.latitudeDegrees, places: 7))"
            return fix.hasElevation ? head + ",\(decimal(fix.elevationMeters, places: 1))]" : head + "]"
        }
        func line(_ segment: TrackSegment) -> String { "[" + segment.fixes.map(position).joined(separator: ",") + "]" }
        func times(_ segment: TrackSegment) -> String { "[" + segment.fixes.map { "\"\(isoTime($0.timeSeconds))\"" }.joined(separator: ",") + "]" }
        let single = track.segments.count == 1
        let geometry =
            single
            ? "{\"type\":\"LineString\",\"coordinates\":\(line(track.segments[0]))}"
            : "{\"type\":\"MultiLineString\",\"coordinates\":[" + track.segments.map(line).joined(separator: ",") + "]}"
        var properties = "\"name\":\"\(jsonEscape(track.name ?? "Track"))\""
        if track.segments.allSatisfy({ $0.fixes.allSatisfy(\.hasTime) }) {
            let list = single ? times(track.segments[0]) : "[" + track.segments.map(times).joined(separator: ",") + "]"
            properties += ",\"coordTimes\":\(list)"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\(properties)},\"geometry\":\(geometry)}]}\n"
    }

    /// JSON string escaping: `JSONValue.quoted` without the quotes.
    package static func jsonEscape(_ text: String) -> String { String(JSONValue.quoted(text).dropFirst().dropLast()) }
}
