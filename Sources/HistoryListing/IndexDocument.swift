import JSONDocument

/// The JSON shapes of `index.json` (schema 4) and its parts (schema 3), in one place. `index.json`
/// is the one entry point: how many parts there are and where, each the tracks of one numbered
/// page (newest first), so a new track rewrites the newest part and this small file.
/// A track's own object is `TrackFragments.json`.
///
///     index.json             {"overview":"index/overview.json","page_size":60,"part_path":"index/part-{n}.json",
///                            "parts":2,"tracks":72,"version":4}
///     index/part-N.json      {"part":N,"tracks":[
///                            {…track…},
///                            {…track…}
///                            ],"version":3}
///
/// Part N (1 the oldest) holds `page_size` tracks, but the newest, part `parts`, holds the rest.
/// Version 3 of `index.json` named every part with its count, about 45 bytes each, written at every
/// change: 73 KB at 100,000 tracks, 730 KB at a million. Keys are in sorted order and each listed
/// object starts a line, as the first versions wrote them.
package enum IndexDocument {
    /// The schema version of `index.json`: 4 since it gives the parts' count and path pattern
    /// where version 3 listed them.
    static let version = 4

    /// The schema version of the parts, unchanged since version 3 (a version 4 `index.json`
    /// names the same parts): a site listed before keeps its 1,667 parts at 100,000 tracks.
    static let partVersion = 3

    /// Where the parts are: `{n}` is the part's number (`SiteWriter.partPath`).
    static let partPathPattern = SiteWriter.partDirectory + "/part-{n}.json"

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
        json += Array("\n],\"version\":\(partVersion)}\n".utf8)
        return json
    }

    /// `index.json`: the page size, the number of parts (numbered pages) and the track count.
    static func index(pageSize: Int, partCount: Int, trackCount: Int) -> [UInt8] {
        Array(
            ("{\"overview\":\"\(OverviewPublisher.partPath)\",\"page_size\":\(pageSize),\"part_path\":\"\(partPathPattern)\","
                + "\"parts\":\(partCount),\"tracks\":\(trackCount),\"version\":\(version)}\n").utf8)
    }

    /// The parts an `index.json` of version 3 or 4 names, newest first, relative to Output/ (a
    /// path that leaves the site is left out); nil when `bytes` is no such document.
    package static func partPaths(inIndex bytes: [UInt8]) -> [String]? {
        guard let object = (try? JSONValue.parse(bytes))?.object else { return nil }
        let paths: [String]
        if let list = object["parts"]?.array {
            paths = list.compactMap { $0.object?["path"]?.string }
        } else if let count = object["parts"]?.number, count >= 0, count <= maximumParts(object), let pattern = object["part_path"]?.string,
            pattern.contains("{n}")
        {
            paths = partPaths(count: Int(count), pattern: pattern)
        } else {
            return nil
        }
        return paths.filter { !$0.hasPrefix("/") && !$0.split(separator: "/").contains("..") }
    }

    /// The paths of `count` parts at `pattern` (`{n}` the number), newest (highest) first.
    static func partPaths(count: Int, pattern: String) -> [String] {
        stride(from: count, through: 1, by: -1).map { pattern.replacing("{n}", with: String($0)) }
    }

    /// The most parts a version 4 `index.json` can have: one a page of its tracks (a document
    /// without them, or claiming more than 100 million tracks, is not believed past 10,000 parts),
    /// so a damaged count does not make a billion paths.
    private static func maximumParts(_ object: [String: JSONValue]) -> Double {
        guard let tracks = object["tracks"]?.number, let pageSize = object["page_size"]?.number, tracks >= 0, tracks <= 1e8, pageSize >= 1
        else { return 10_000 }
        return (tracks / pageSize).rounded(.up)
    }
}
