import JSONDocument
import ThumbnailCache

/// The two pieces of the listing that depend on one track only: its object in `index.json` and
/// its card on the index pages. Built once per (cache key, source, jobs) and kept in
/// `ListingCache`, so a refresh over 100,000 known tracks only concatenates bytes. Neither piece
/// contains a tab or a newline (the cache's separators): JSON escapes them, and
/// `ListingFormat.escape` turns them into spaces in the card.
struct TrackFragments {
    /// The track's object in `index.json`.
    var json: [UInt8]
    /// The track's `<article>` card, with links relative to `Output/`.
    var card: [UInt8]

    init(_ track: ListingTrack) {
        json = Array(Self.json(track).utf8)
        card = Array(Self.card(track).utf8)
    }

    // MARK: JSON (hand-written: JSONEncoder costs ~28 µs a track, 2.8 s for 100,000)

    static func json(_ track: ListingTrack) -> String {
        var out = "{"
        out.reserveCapacity(1400)
        func key(_ name: String) { out += out.utf8.last == UInt8(ascii: "{") ? "\"\(name)\":" : ",\"\(name)\":" }
        func string(_ name: String, _ value: String?) {
            key(name)
            out += value.map(JSONText.quoted) ?? "null"
        }
        func number(_ name: String, _ value: Double?) {
            key(name)
            out += value.map(JSONText.number) ?? "null"
        }
        func numbers(_ name: String, _ values: [Double]) {
            key(name)
            out += "[" + values.map(JSONText.number).joined(separator: ",") + "]"
        }
        // Keys in sorted order, as JSONEncoder's .sortedKeys wrote version 1.
        string("activity", track.activity)
        // Only with a basemap, so grid-only listings keep their bytes (and their part digests).
        if let attribution = track.attribution { string("attribution", attribution) }
        numbers("bbox", track.bbox)
        number("end_time", track.endTime)
        string("format", track.format)
        key("fixes")
        out += "{\"drawn\":\(track.fixes.drawn),\"kept\":\(track.fixes.kept),\"read\":\(track.fixes.read)}"
        string("id", track.id)
        key("images")
        out += "["
        for (index, image) in track.images.enumerated() {
            if index > 0 { out += "," }
            out += "{\"height\":\(image.height),\"path\":" + JSONText.quoted(image.path) + ",\"role\":" + JSONText.quoted(image.role)
            out += ",\"scale\":" + JSONText.number(image.scale) + ",\"viewport_epsg3857\":["
            out += image.viewportEpsg3857.map(JSONText.number).joined(separator: ",") + "],\"width\":\(image.width)}"
        }
        out += "]"
        key("jobs")
        out += "[" + track.jobs.map(JSONText.quoted).joined(separator: ",") + "]"
        string("name", track.name)
        string("page", track.page)
        number("sort_time", track.sortTime)
        string("source", track.source)
        number("start_time", track.startTime)
        key("stats")
        out += "{\"distance_m\":" + JSONText.number(track.stats.distanceM)
        out += ",\"duration_s\":" + (track.stats.durationS.map(JSONText.number) ?? "null")
        out += ",\"elevation_gain_m\":" + (track.stats.elevationGainM.map(JSONText.number) ?? "null")
        out += ",\"moving_distance_m\":" + (track.stats.movingDistanceM.map(JSONText.number) ?? "null")
        out += ",\"moving_time_s\":" + (track.stats.movingTimeS.map(JSONText.number) ?? "null") + "}"
        // Only when the offset is the zone's (utc_offset_source "zone").
        if let timeZone = track.timeZone { string("time_zone", timeZone) }
        key("utc_offset_s")
        out += "\(track.utcOffsetS)"
        string("utc_offset_source", track.utcOffsetSource)
        out += "}"
        return out
    }

    // MARK: card

    static func card(_ track: ListingTrack) -> String {
        let e = ListingFormat.escape
        let thumbnails = track.images(.thumbnail)
        var out = "<article class=\"card\" id=\"t-\(track.id)\"><a class=\"shot\" href=\"\(e(track.page))\">"
        if let first = thumbnails.first {
            let srcset = thumbnails.map { e($0.path) + " " + JSONText.number($0.scale) + "x" }.joined(separator: ", ")
            let size = pointSize(first)
            out +=
                "<img src=\"\(e(first.path))\" srcset=\"\(srcset)\" width=\"\(size.width)\" height=\"\(size.height)\" loading=\"lazy\" alt=\"Map of \(e(track.name))\">"
        }
        out += "</a><div class=\"body\"><h3><a href=\"\(e(track.page))\">\(e(track.name))</a></h3>"
        out += "<p class=\"when\">" + when(track) + "</p><p class=\"stats\">"
        out += statItems(track).map { "<span>\(e($0))</span>" }.joined()
        out += "</p><p class=\"meta\"><span class=\"format\">\(e(track.format.uppercased()))</span> \(e(track.source))</p>"
        // The basemap's licence travels with its image, also where the thumbnail is too small to
        // carry the whole line.
        if let attribution = track.attribution { out += "<p class=\"attribution\">Map: \(e(attribution))</p>" }
        out += "</div></article>"
        return out
    }

    /// The start time in the track's local time, or a note that the file has no times.
    static func when(_ track: ListingTrack) -> String {
        guard let start = track.startTime else { return "<span class=\"muted\">no times recorded</span>" }
        let local = ListingFormat.LocalTime(start, offsetSeconds: track.utcOffsetS)
        return "<time datetime=\"\(local.iso)\">\(local.text)</time> " + local.zoneHTML(track)
    }

    /// Distance, duration, pace or speed, climb: the ones the track has.
    static func statItems(_ track: ListingTrack) -> [String] {
        var items = [ListingFormat.distance(track.stats.distanceM)]
        if let duration = track.stats.durationS { items.append(ListingFormat.duration(duration)) }
        if let pace = ListingFormat.paceOrSpeed(
            activity: track.activity, movingDistanceMeters: track.stats.movingDistanceM, movingSeconds: track.stats.movingTimeS)
        {
            items.append(pace)
        }
        if let gain = track.stats.elevationGainM { items.append(ListingFormat.climb(gain)) }
        return items
    }

    /// An image's size in CSS pixels (points).
    static func pointSize(_ image: TrackRecord.Image) -> (width: Int, height: Int) {
        (Int((Double(image.width) / image.scale).rounded()), Int((Double(image.height) / image.scale).rounded()))
    }
}

/// JSON text for strings and numbers.
enum JSONText {
    /// A JSON string literal (`JSONValue.quoted`).
    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }

    /// The shortest text that reads back as the same double ("12", "0.5", "1e-07"); non-finite
    /// values (never produced by the renderer) as null.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
