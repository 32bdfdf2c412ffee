import TrackModel

/// The hostile files that found the problems of issue 13, generated rather than committed: at
/// `.test` size for `HostileInputTests` and the fuzz seeds (each at most a few MB, most a few
/// KB), at `.full` size (the sizes the issue measured: 16 million identical points, a 200 MB
/// name, 600,000 random points) for `tracksnap-dev hostile DIR --full` and manual measurement.
package enum HostileFiles {
    /// How large to make them.
    package enum Scale: Sendable {
        /// Small enough for unit tests and seeds; limits are scaled down with them.
        case test
        /// The sizes that found the problems.
        case full
    }

    /// What must happen to a file.
    package enum Expectation: Sendable, Equatable {
        /// It renders (the reader or cleaner may note what it dropped).
        case renders
        /// It is refused with this `TrackDecodingError.Kind` raw value ("limitExceeded",
        /// "malformed", "unsupportedFormat") or "noValidFixes", and a message that mentions `words`.
        case fails(String, mentioning: String)
    }

    /// One file with what must happen to it.
    package struct File: Sendable {
        /// File name; the extension is the format.
        package var name: String
        /// The bytes.
        package var bytes: [UInt8]
        /// What must happen.
        package var expectation: Expectation
        /// The per-job memory ceiling to decode it under (nil: the default).
        package var memoryLimitBytes: Int?
    }

    /// Every hostile file at `scale`.
    package static func files(_ scale: Scale) -> [File] {
        let full = scale == .full
        var files: [File] = []
        // 16 M identical points behind a random comment that keeps gzip's ratio under 100:1.
        let identical = full ? 16_000_000 : 300_000
        var bomb = Array("<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg><!--".utf8)
        var random = SplitMix64(seed: 13)
        for _ in 0..<(full ? 9_000_000 : 240_000) { bomb.append(hexDigit(random.next() & 15)) }
        bomb += Array("-->".utf8)
        bomb += Array(String(repeating: "<trkpt lat=\"47.1\" lon=\"8.1\"/>\n", count: identical).utf8)
        bomb += Array("</trkseg></trk></gpx>\n".utf8)
        files.append(
            File(
                name: "identical-fixes-bomb.gpx.gz", bytes: Compression.deflate(bomb, gzip: true, level: 9),
                expectation: .fails("limitExceeded", mentioning: "per-job memory limit"), memoryLimitBytes: full ? nil : 48 << 20))

        let nameBytes = full ? 200_000_000 : 1_000_000
        files.append(
            File(
                name: "huge-name.gpx", bytes: gpx(name: String(repeating: "A", count: nameBytes), points: line(20)), expectation: .renders))
        files.append(
            File(
                name: "terminal-escapes-in-name.gpx",
                bytes: gpx(name: "x\u{1B}[2J\u{1B}]0;pwned\u{07}\ntracksnap: 99 tracks: 99 rendered", points: line(20)),
                expectation: .renders))

        let token = String(repeating: "9", count: full ? 50_000_000 : 1_000_000)
        files.append(
            File(
                name: "long-bad-token.csv", bytes: Array("lat,lon\n47.1,8.1\n47.2,\(token)x\n".utf8),
                expectation: .fails("malformed", mentioning: "…")))
        files.append(
            File(
                name: "long-bad-token.gpx", bytes: gpx(name: "t", points: [("47.1", "8.1", nil), ("47.2\(token)x", "8.2", nil)]),
                expectation: .fails("malformed", mentioning: "…")))

        var scatter = "lat,lon\n"
        for _ in 0..<(full ? 600_000 : 60_000) {
            let lat = 47.0 + Double(random.next() % 45_000) / 1_000_000
            let lon = 8.0 + Double(random.next() % 66_000) / 1_000_000
            scatter += "\(lat),\(lon)\n"
        }
        files.append(File(name: "random-points-5km.csv", bytes: Array(scatter.utf8), expectation: .renders))

        let alternating = (0..<40).map { k in ("47.\(100 + k)", "8.\(100 + k)", k % 2 == 0 ? "1970-01-01T00:00:00Z" : "9999-12-31T23:59:59Z") }
        files.append(File(name: "implausible-times.gpx", bytes: gpx(name: "t", points: alternating), expectation: .renders))
        let backwards = (0..<40).map { k in ("47.\(100 + k)", "8.1", "2024-05-01T10:\(String(59 - k).leftPadded(2)):00Z") }
        files.append(File(name: "backwards-times.gpx", bytes: gpx(name: "t", points: backwards), expectation: .renders))

        files.append(
            File(
                name: "utf32-bom.gpx", bytes: [0xFF, 0xFE, 0, 0] + Array("<gpx/>".utf8).flatMap { [$0, 0, 0, 0] },
                expectation: .fails("unsupportedFormat", mentioning: "UTF-32")))
        var fit = FITEncoder.encode(Track(format: .fit, name: nil, segments: [TrackSegment(fixes: fixes(20))]))
        fit[0] = 99  // header size: neither 12 nor 14, behind a valid ".FIT" signature
        files.append(File(name: "bad-header-size.fit", bytes: fit, expectation: .fails("malformed", mentioning: "FIT")))
        var kmz = Compression.zip([
            ("doc.kml", Array(TrackWriters.gpx11(Track(format: .gpx, name: "k", segments: [TrackSegment(fixes: fixes(200))])).utf8))
        ])
        for k in 60..<90 { kmz[k] ^= 0x5A }  // inside the deflate data of the only entry
        files.append(File(name: "corrupt-entry.kmz", bytes: kmz, expectation: .fails("malformed", mentioning: "byte")))
        files.append(
            File(
                name: "points-only.geojson",
                bytes: Array(
                    "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[8.1,47.1],[8.2,47.2],[8.3,47.15]]}}]}"
                        .utf8),
                expectation: .renders))
        let depth = full ? 100_000 : 5_000
        files.append(
            File(
                name: "deep-nesting.gpx", bytes: Array(("<gpx>" + String(repeating: "<a>", count: depth)).utf8),
                expectation: .fails("limitExceeded", mentioning: "nest")))
        files.append(
            File(
                name: "nan-coordinates.gpx", bytes: gpx(name: "t", points: [("NaN", "8.1", nil), ("inf", "8.2", nil), ("47.1", "-inf", nil)]),
                expectation: .fails("noValidFixes", mentioning: "no valid fixes")))
        return files
    }

    private static func gpx(name: String, points: [(String, String, String?)]) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"hostile\"><trk><name>\(TrackWriters.escape(name))</name><trkseg>\n"
        for (lat, lon, time) in points {
            text += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">" + (time.map { "<time>\($0)</time>" } ?? "") + "</trkpt>\n"
        }
        return Array((text + "</trkseg></trk></gpx>\n").utf8)
    }

    private static func line(_ count: Int) -> [(String, String, String?)] {
        (0..<count).map { k in ("47.\(1000 + k)", "8.\(1000 + k)", nil) }
    }

    private static func fixes(_ count: Int) -> [Fix] {
        (0..<count).map { k in
            Fix(latitudeDegrees: 47 + Double(k) * 1e-4, longitudeDegrees: 8 + Double(k) * 1e-4, timeSeconds: 1_714_546_800 + Double(k))
        }
    }

    private static func hexDigit(_ value: UInt64) -> UInt8 { Array("0123456789abcdef".utf8)[Int(value)] }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
