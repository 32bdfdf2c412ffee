import Foundation

/// `index.html`: every track as a card, newest first. Plain HTML and CSS, no scripts, no external
/// assets; every value from a track is escaped.
enum ListingPage {
    static func html(_ tracks: [ListingTrack]) -> String {
        var cards = ""
        cards.reserveCapacity(tracks.count * 600)
        for track in tracks { cards += card(track) }
        let count = tracks.count == 1 ? "1 track" : "\(tracks.count) tracks"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark"><title>TrackSnap</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:1.5rem;background:#fafafa;color:#222}
            h1{font-size:1.4rem;margin:0 0 1rem}main{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1.25rem}
            figure{margin:0;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002;overflow:hidden}
            img{display:block;width:100%;height:auto;background:#eee}figcaption{padding:.5rem .75rem;font-size:.9rem;line-height:1.35}
            .meta{color:#666;font-size:.8rem}
            @media (prefers-color-scheme:dark){body{background:#111;color:#ddd}figure{background:#1c1c1c}.meta{color:#999}}
            </style></head><body><h1>TrackSnap · \(count)</h1><main>
            \(cards)</main></body></html>

            """
    }

    private static func card(_ track: ListingTrack) -> String {
        guard let first = track.images.first else { return "" }
        let srcset = track.images.map { "\(escape($0.path)) \(formatScale($0.scale))x" }.joined(separator: ", ")
        let width = Int((Double(first.width) / first.scale).rounded())
        let height = Int((Double(first.height) / first.scale).rounded())
        var meta = [String(format: "%.1f km", track.distanceM / 1000)]
        if let start = track.startTime { meta.insert(dateText(start), at: 0) }
        meta.append(track.format.uppercased())
        return "<figure><img src=\"\(escape(first.path))\" srcset=\"\(srcset)\" width=\"\(width)\" height=\"\(height)\" loading=\"lazy\" alt=\"\(escape(track.name))\">"
            + "<figcaption>\(escape(track.name))<br><span class=\"meta\">\(escape(meta.joined(separator: " · "))) · \(escape(track.source))</span></figcaption></figure>\n"
    }

    private static func formatScale(_ scale: Double) -> String {
        scale == scale.rounded() ? String(Int(scale)) : String(scale)
    }

    private static func dateText(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d UTC", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min))
    }

    /// Escapes text for HTML content and double-quoted attributes.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
