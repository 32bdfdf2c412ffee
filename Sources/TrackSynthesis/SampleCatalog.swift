import TrackModel

/// The sample tracks shipped in `Jobs/samples/` and the fixed benchmark tracks, all generated
/// here from seeded recipes (no recorded data is copied).
package enum SampleCatalog {
    /// A generated file: its name and its text.
    package struct File: Sendable {
        /// File name, e.g. "city-run-zurich.gpx".
        package var name: String
        /// File contents.
        package var contents: String
    }

    /// 2024-05-04T07:12:00Z, the first sample's start.
    static let baseTime = 1_714_806_720.0

    /// The samples for `make thumbnails`: a city run, a long ride, a loop hike, two segments with a
    /// gap, an antimeridian crossing, a single fix, CSVs, a GPX 1.0 route with awkward syntax and a
    /// run with GPS glitches.
    package static func samples() -> [File] {
        var files: [File] = []
        var run = RouteRecipe(
            startLatitude: 47.3769, startLongitude: 8.5417, startTime: baseTime, fixCount: 2_900, intervalSeconds: 1,
            speedMetersPerSecond: 3.4, headingDegrees: 20, headingJitterDegrees: 2.5, baseElevation: 410, hillAmplitude: 12)
        run.cornerProbability = 0.004
        run.returnsToStart = true
        files.append(gpx("city-run-zurich.gpx", "Morning run along the Limmat", [run], seed: 1))

        var ride = RouteRecipe(
            startLatitude: 46.5197, startLongitude: 6.6323, startTime: baseTime + 86_400 * 2, fixCount: 7_600,
            intervalSeconds: 2, speedMetersPerSecond: 8.2, headingDegrees: 75, headingJitterDegrees: 1.6,
            baseElevation: 380, hillAmplitude: 260)
        ride.gpsNoiseMeters = 3
        files.append(gpx("long-ride-lake-geneva.gpx", "Lake Geneva century", [ride], seed: 2))

        var hike = RouteRecipe(
            startLatitude: 37.7456, startLongitude: -119.5936, startTime: baseTime + 86_400 * 5, fixCount: 3_400,
            intervalSeconds: 5, speedMetersPerSecond: 1.25, headingDegrees: 300, headingJitterDegrees: 6,
            baseElevation: 1_220, hillAmplitude: 340)
        hike.returnsToStart = true
        files.append(gpx("hike-loop-yosemite.gpx", "Valley loop hike", [hike], seed: 3))

        let morning = RouteRecipe(
            startLatitude: 51.5072, startLongitude: -0.1276, startTime: baseTime + 86_400 * 7, fixCount: 900,
            intervalSeconds: 1, speedMetersPerSecond: 5.5, headingDegrees: 95, headingJitterDegrees: 2,
            baseElevation: 20, hillAmplitude: 4)
        var afternoon = morning
        afternoon.startLatitude = 51.5054
        afternoon.startLongitude = -0.0583
        afternoon.startTime += 2_700
        afternoon.headingDegrees = 60
        files.append(gpx("commute-two-segments.gpx", "Commute with a tunnel gap", [morning, afternoon], seed: 4))

        var ferry = RouteRecipe(
            startLatitude: -16.79, startLongitude: 179.62, startTime: baseTime + 86_400 * 9, fixCount: 1_800,
            intervalSeconds: 10, speedMetersPerSecond: 8, headingDegrees: 100, headingJitterDegrees: 0.8,
            baseElevation: .nan, hillAmplitude: 0)
        ferry.gpsNoiseMeters = 5
        files.append(gpx("antimeridian-fiji-ferry.gpx", "Ferry across the 180th meridian", [ferry], seed: 5))

        files.append(
            File(
                name: "single-fix.gpx",
                contents: """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <gpx version="1.1" creator="TrackSnap sample generator" xmlns="http://www.topografix.com/GPX/1/1">
                     <trk><name>Summit photo stop</name><trkseg>
                      <trkpt lat="45.8326" lon="6.8652"><ele>4805.6</ele><time>2024-07-14T09:41:07Z</time></trkpt>
                     </trkseg></trk>
                    </gpx>

                    """))

        var walk = RouteRecipe(
            startLatitude: 59.3326, startLongitude: 18.0649, startTime: baseTime + 86_400 * 12, fixCount: 1_400,
            intervalSeconds: 3, speedMetersPerSecond: 1.4, headingDegrees: 200, headingJitterDegrees: 5,
            baseElevation: 12, hillAmplitude: 6)
        walk.returnsToStart = true
        let walkTrack = Track(format: .csv, name: nil, segments: [TrackSegment(fixes: RouteSynthesizer.fixes(walk, seed: 6))])
        files.append(File(name: "lake-walk-stockholm.csv", contents: TrackWriters.csv(walkTrack)))

        files.append(File(name: "gpx10-route-prefixed.gpx", contents: gpx10Route()))
        files.append(glitchyMarathon())

        var bare = RouteRecipe(
            startLatitude: -33.8688, startLongitude: 151.2093, startTime: baseTime, fixCount: 600, intervalSeconds: 1,
            speedMetersPerSecond: 4.5, headingDegrees: 10, headingJitterDegrees: 4, baseElevation: .nan, hillAmplitude: 0)
        bare.cornerProbability = 0.01
        let bareFixes = RouteSynthesizer.fixes(bare, seed: 8)
        files.append(
            File(
                name: "harbour-bare-latlon.csv",
                contents: bareFixes.map {
                    "\(TrackWriters.decimal($0.latitudeDegrees, places: 6)),\(TrackWriters.decimal($0.longitudeDegrees, places: 6))"
                }.joined(separator: "\n") + "\n"))
        return files
    }

    /// A GPX track with `fixCount` fixes at 1 Hz, like the benchmark's 30 km run (18,000 fixes ≈ 2 MB).
    package static func benchmarkRun(fixCount: Int, seed: UInt64 = 42) -> String {
        var recipe = RouteRecipe(
            startLatitude: 48.8566, startLongitude: 2.3522, startTime: baseTime, fixCount: fixCount, intervalSeconds: 1,
            speedMetersPerSecond: 30_000 / 18_000, headingDegrees: 45, headingJitterDegrees: 3, baseElevation: 35,
            hillAmplitude: 15)
        recipe.cornerProbability = 0.002
        recipe.returnsToStart = true
        let track = Track(
            format: .gpx, name: "Benchmark run (\(fixCount) fixes)", segments: [TrackSegment(fixes: RouteSynthesizer.fixes(recipe, seed: seed))])
        return TrackWriters.gpx11(track, heartRate: false)
    }

    private static func gpx(_ name: String, _ title: String, _ recipes: [RouteRecipe], seed: UInt64) -> File {
        let segments = recipes.enumerated().map { index, recipe in
            TrackSegment(fixes: RouteSynthesizer.fixes(recipe, seed: seed &* 1000 &+ UInt64(index)))
        }
        return File(name: name, contents: TrackWriters.gpx11(Track(format: .gpx, name: title, segments: segments)))
    }

    /// GPX 1.0 with a planned route only: namespace prefixes, CDATA and entities in the name,
    /// single-quoted attributes with `lon` before `lat`, comments (one containing markup), CRLF.
    private static func gpx10Route() -> String {
        var recipe = RouteRecipe(
            startLatitude: 40.7812, startLongitude: -73.9665, startTime: baseTime, fixCount: 40, intervalSeconds: 60,
            speedMetersPerSecond: 5, headingDegrees: 200, headingJitterDegrees: 10, baseElevation: .nan, hillAmplitude: 0)
        recipe.gpsNoiseMeters = 0
        recipe.cornerProbability = 0.1
        let points = RouteSynthesizer.fixes(recipe, seed: 9).map {
            "  <g:rtept lon='\(TrackWriters.decimal($0.longitudeDegrees, places: 6))' lat='\(TrackWriters.decimal($0.latitudeDegrees, places: 6))'/>"
        }
        let lines =
            [
                "\u{FEFF}<?xml version='1.0' encoding='UTF-8' standalone='yes'?>",
                "<!-- planned in an editor; <trkpt lat=\"0\" lon=\"0\"/> in a comment is not a point -->",
                "<g:gpx xmlns:g='http://www.topografix.com/GPX/1/0' version='1.0' creator='TrackSnap sample generator'>",
                " <g:name>Central Park &amp; Midtown</g:name>",
                " <g:rte>",
                "  <g:name><![CDATA[Park loop <planned>]]> &#8211; Sunday</g:name>",
            ] + points + [" </g:rte>", "</g:gpx>", ""]
        return lines.joined(separator: "\r\n")
    }

    /// A run with a duplicated fix, a receiver's (0, 0) placeholder and three teleport spikes.
    private static func glitchyMarathon() -> File {
        var recipe = RouteRecipe(
            startLatitude: 52.5163, startLongitude: 13.3777, startTime: baseTime + 86_400 * 20, fixCount: 4_200,
            intervalSeconds: 2, speedMetersPerSecond: 3.6, headingDegrees: 250, headingJitterDegrees: 3,
            baseElevation: 38, hillAmplitude: 5)
        recipe.cornerProbability = 0.003
        var fixes = RouteSynthesizer.fixes(recipe, seed: 10)
        for index in [700, 1_900, 3_300] {
            fixes[index].latitudeDegrees += 0.09  // ~10 km north and back within 4 s
        }
        fixes.insert(fixes[1_000], at: 1_001)
        fixes.insert(Fix(latitudeDegrees: 0, longitudeDegrees: 0, elevationMeters: 0, timeSeconds: fixes[0].timeSeconds - 1), at: 0)
        let track = Track(format: .gpx, name: "City marathon (GPS glitches)", segments: [TrackSegment(fixes: fixes)])
        return File(name: "marathon-gps-glitches.gpx", contents: TrackWriters.gpx11(track))
    }
}
