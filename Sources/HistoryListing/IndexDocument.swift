/// The JSON shapes of `index.json` (schema 3) and its parts, in one place. `index.json` is the one
/// entry point: the parts newest first, each the tracks of one numbered page (newest first), so a
/// new track rewrites the newest part and this file. A track's own object is `TrackFragments.json`.
///
///     index.json             {"overview":"index/overview.json","page_size":60,"parts":[
///                            {"path":"index/part-2.json","tracks":12},
///                            {"path":"index/part-1.json","tracks":60}
///                            ],"tracks":72,"version":3}
///     index/part-N.json      {"part":N,"tracks":[
///                            {…track…},
///                            {…track…}
///                            ],"version":3}
///
/// Keys are in sorted order and each listed object starts a line, as the first versions wrote
/// them: readers and byte-for-byte comparisons of older sites keep working.
enum IndexDocument {
    /// The schema version both files carry.
    static let version = 3

    /// Part `number` of `index.json`: the given track objects, in order.
    static func part<Tracks: Sequence>(_ number: Int, tracks: Tracks) -> [UInt8] where Tracks.Element == ArraySlice<UInt8> {
        var json: [UInt8] = Array("{\"part\":\(number),\"tracks\":[".utf8)
        var first = true
        for track in tracks {
            if !first { json.append(UInt8(ascii: ",")) }
            first = false
            json.append(0x0A)
            json += track
        }
        json += Array("\n],\"version\":\(version)}\n".utf8)
        return json
    }

    /// One part's line in `index.json`: where it is (relative to Output/) and how many tracks it holds.
    struct PartReference {
        /// `index/part-N.json`.
        var path: String
        /// Tracks in the part.
        var trackCount: Int
    }

    /// `index.json`: the page size, the parts in the order given (newest first) and the track count.
    static func index(pageSize: Int, parts: [PartReference], trackCount: Int) -> [UInt8] {
        var json: [UInt8] = Array("{\"overview\":\"\(OverviewPublisher.partPath)\",\"page_size\":\(pageSize),\"parts\":[".utf8)
        for (position, part) in parts.enumerated() {
            if position > 0 { json.append(UInt8(ascii: ",")) }
            json += Array("\n{\"path\":\"\(part.path)\",\"tracks\":\(part.trackCount)}".utf8)
        }
        json += Array("\n],\"tracks\":\(trackCount),\"version\":\(version)}\n".utf8)
        return json
    }
}
