import TrackModel

/// The generated corpus every reader is checked on: a few tracks (one or several segments, both
/// hemispheres, with and without elevation) written in every format and layout the project
/// writes. Used by the gpsbabel conformance test and as the fuzzers' seed corpus.
package enum ConformanceCorpus {
    /// One generated file.
    package struct File: Sendable {
        /// The reader it is meant for: gpx, csv, tcx, fit, kml, kmz, geojson or gzip.
        package var reader: String
        /// File name, with the extension the format uses.
        package var name: String
        /// Contents.
        package var bytes: [UInt8]
        /// The track written (what a reader should find).
        package var track: Track
    }

    /// The source tracks, small enough to keep seeds short (`fixesPerSegment` each).
    package static func tracks(fixesPerSegment: Int = 40) -> [(name: String, track: Track)] {
        func segment(_ latitude: Double, _ longitude: Double, _ time: Double, elevation: Double?, seed: UInt64) -> TrackSegment {
            var recipe = RouteRecipe(
                startLatitude: latitude, startLongitude: longitude, startTime: time, fixCount: fixesPerSegment, intervalSeconds: 1,
                speedMetersPerSecond: 4, headingDegrees: 70, headingJitterDegrees: 4, baseElevation: elevation ?? 0, hillAmplitude: 8)
            recipe.cornerProbability = 0.02
            var fixes = RouteSynthesizer.fixes(recipe, seed: seed)
            if elevation == nil { for k in fixes.indices { fixes[k].elevationMeters = .nan } }
            return TrackSegment(fixes: fixes)
        }
        let t0 = 1_714_806_720.0
        return [
            ("single-segment-north-east", Track(format: .gpx, name: "Morning run", segments: [segment(47.37, 8.54, t0, elevation: 410, seed: 1)])),
            (
                "three-segments-south-west",
                Track(
                    format: .gpx, name: "Ride & coffee",
                    segments: [
                        segment(-33.86, -70.65, t0 + 86_400, elevation: 560, seed: 2),
                        segment(-33.85, -70.64, t0 + 90_000, elevation: 575, seed: 3),
                        segment(-33.84, -70.63, t0 + 93_600, elevation: 590, seed: 4),
                    ])
            ),
            ("no-elevation-east", Track(format: .gpx, name: "Ferry", segments: [segment(-17.7, 178.4, t0 + 172_800, elevation: nil, seed: 5)])),
        ]
    }

    /// Every track in every format and layout.
    package static func files(fixesPerSegment: Int = 40) -> [File] {
        var files: [File] = []
        for (name, track) in tracks(fixesPerSegment: fixesPerSegment) {
            func add(_ reader: String, _ suffix: String, _ bytes: [UInt8]) {
                files.append(File(reader: reader, name: name + suffix, bytes: bytes, track: track))
            }
            add("gpx", ".gpx", Array(TrackWriters.gpx11(track).utf8))
            add("tcx", ".tcx", Array(TrackWriters.tcx(track).utf8))
            add("kml", "-gx-track.kml", Array(TrackWriters.kml(track, timed: true).utf8))
            add("kml", "-linestring.kml", Array(TrackWriters.kml(track, timed: false).utf8))
            add("geojson", ".geojson", Array(TrackWriters.geoJSON(track).utf8))
            if track.segments.count == 1 { add("csv", ".csv", Array(TrackWriters.csv(track).utf8)) }
            var options = FITEncoder.Options()
            add("fit", ".fit", FITEncoder.encode(track, options: options))
            options.compressedTimestamps = true
            options.developerFields = true
            add("fit", "-compressed-timestamps-developer-fields.fit", FITEncoder.encode(track, options: options))
            options.bigEndian = true
            options.longHeader = false
            options.legacyAltitude = true
            add("fit", "-big-endian-short-header.fit", FITEncoder.encode(track, options: options))
            add("kmz", ".kmz", Compression.zip([("doc.kml", Array(TrackWriters.kml(track).utf8))]))
            add("gzip", ".gpx.gz", Compression.deflate(Array(TrackWriters.gpx11(track).utf8), gzip: true))
            add("gzip", ".fit.gz", Compression.deflate(FITEncoder.encode(track), gzip: true))
        }
        return files
    }
}
