/// `tracks/<id>.html`: one track's large snapshot (the detail images, or the largest thumbnail
/// when the style has none), every stat, start and end time, fix counts, source and a link back to
/// the listing. The link names no page number, so adding tracks never rewrites detail pages. Links are relative and built from the hex id only, so
/// nothing from a track can point outside `Output/`.
enum DetailPage {
    static func html(_ track: ListingTrack) -> [UInt8] {
        let e = ListingFormat.escape
        let name = e(track.name)
        var images = track.images(.detail)
        if images.isEmpty { images = track.images(.thumbnail) }
        var out = PageShell.head(title: track.name + " · TrackSnap", styleSheet: "../site.css")
        out += "<header class=\"site\"><h1><a href=\"../index.html\">TrackSnap</a></h1><a href=\"../index.html\">← All tracks</a></header>\n"
        out += "<article class=\"detail\"><h1>\(name)</h1>\n"
        if let first = images.first {
            let size = TrackFragments.pointSize(first)
            let srcset = images.map { "../" + e($0.path) + " " + JSONText.number($0.scale) + "x" }.joined(separator: ", ")
            out += "<img src=\"../\(e(first.path))\" srcset=\"\(srcset)\" width=\"\(size.width)\" height=\"\(size.height)\" alt=\"Map of \(name)\">\n"
        }
        out += "<dl class=\"facts\">"
        for (term, value) in facts(track) { out += "<dt>\(e(term))</dt><dd>\(value)</dd>" }
        out += "</dl></article>\n" + PageShell.tail
        return Array(out.utf8)
    }

    /// Term and already-escaped HTML value, in reading order.
    static func facts(_ track: ListingTrack) -> [(String, String)] {
        let e = ListingFormat.escape
        var facts: [(String, String)] = [("Distance", ListingFormat.distance(track.stats.distanceM))]
        if let duration = track.stats.durationS { facts.append(("Duration", ListingFormat.duration(duration))) }
        if let moving = track.stats.movingTimeS { facts.append(("Moving time", ListingFormat.duration(moving))) }
        if let pace = ListingFormat.paceOrSpeed(
            activity: track.activity, movingDistanceMeters: track.stats.movingDistanceM, movingSeconds: track.stats.movingTimeS)
        {
            facts.append((pace.hasSuffix("/km") ? "Moving pace" : "Moving speed", pace))
        }
        if let gain = track.stats.elevationGainM { facts.append(("Elevation gain", "\(Int(gain.rounded())) m")) }
        for (term, time) in [("Start", track.startTime), ("End", track.endTime)] {
            guard let time else { continue }
            let local = ListingFormat.LocalTime(time, offsetSeconds: track.utcOffsetS)
            let utc = ListingFormat.LocalTime(time, offsetSeconds: 0)
            facts.append(
                (
                    term,
                    "<time datetime=\"\(local.iso)\">\(local.text)</time> " + local.zoneHTML(track)
                        + " <span class=\"muted\">(\(utc.clock) UTC)</span>"
                ))
        }
        if track.startTime == nil { facts.append(("Time", "<span class=\"muted\">no times recorded</span>")) }
        if let activity = track.activity { facts.append(("Activity", e(activity))) }
        facts.append(("Fixes", "\(track.fixes.read) read, \(track.fixes.kept) kept, \(track.fixes.drawn) drawn"))
        facts.append(("Format", e(track.format.uppercased())))
        facts.append(("Source file", e(track.source)))
        if track.jobs.count > 1 || track.jobs.first != track.source {
            facts.append(("Queued as", track.jobs.map { e($0) }.joined(separator: "<br>")))
        }
        if track.bbox.count == 4 {
            let corners = track.bbox.map { ListingFormat.fixed($0, digits: 5) }
            facts.append(("Bounds", "W \(corners[0]) S \(corners[1]) E \(corners[2]) N \(corners[3])"))
        }
        if let attribution = track.attribution { facts.append(("Map data", e(attribution))) }
        facts.append(("Id", "<code>\(e(track.id))</code>"))
        return facts
    }
}
