/// The text of `tracksnap-dev --help` and of each command's `--help`: one place for both.
enum DevHelp {
    /// Every command with its one-line usage and what it is for.
    static let commands: [(name: String, usage: String, summary: String)] = [
        ("samples", "samples DIR", "write the seeded sample tracks (what Jobs/samples/ holds; make samples)"),
        ("corpus", "corpus DIR", "write the conformance corpus as DIR/<reader>/<file> (the fuzz seeds)"),
        ("hostile", "hostile DIR [--full | --seeds]", "write the hostile inputs of the memory-ceiling tests (--full: the sizes that found the bugs)"),
        ("archive", "archive DIR COUNT", "write COUNT generated tracks of 300-18,000 fixes (the benchmark's and the Slurm check's archive)"),
        (
            "tiles", "tiles OUT --bounds W,S,E,N --zooms A-B [--kind map|position] [--jpeg] [--folder]",
            """
            write a generated tile set: an MBTiles file, or a {z}/{x}/{y}.png folder with --folder.
                      --bounds    the area in degrees: west,south,east,north (e.g. 8.45,47.33,8.62,47.43)
                      --zooms     the zoom levels, A-B with A <= B <= 18 (the tile count grows 4x a level)
                      --kind      map: a made-up map with streets (default); position: pixels that encode
                                  their own Web-Mercator position (the alignment tests)
                      --jpeg      JPEG tiles instead of PNG (MBTiles only)
            """
        ),
        (
            "region", "region DIR COUNT [--bounds W,S,E,N]",
            "write COUNT generated loops (walks, runs, hikes, rides) inside the bounds (default: Liechtenstein's border, the vector benchmark's map)"
        ),
        (
            "pmtiles", "pmtiles IN.mbtiles OUT.pmtiles",
            """
            convert an MBTiles file (raster or vector) to a PMTiles v3 archive: clustered, identical tiles stored once,
                      consecutive ones as one run, directories gzip-compressed; metadata (name, attribution, the json's
                      vector_layers) carried over. Holds the distinct tiles in memory (about twice their bytes)
            """
        ),
        ("decode", "decode FILE", "map and decode one track file; prints its fix and segment count"),
        (
            "repeat", "repeat FILE WIDTH SCALE COUNT",
            "render FILE COUNT times at WIDTH points (4:3) and SCALE, for profilers (WIDTH 0: the four default images)"
        ),
        (
            "parse-records", "parse-records DIR [COUNT]",
            "time TrackRecord.parse over the first COUNT (5000) records in DIR (e.g. Output/.tracksnap/records), median of 7"
        ),
        (
            "bench",
            "bench [--work DIR] [--runs N] [--queue-runs N] [--section all|product|basemap|vector|vector-drawing|raster|readers|queue|listing|overview|overview-map]",
            "the render and batch benchmarks (make bench; release build)"
        ),
        (
            "vector-decode", "vector-decode FILE...",
            "vector tile decoding throughput (MB/s, features/s) over tile files, gzip or not (release build; CPU time)"
        ),
    ]

    /// The whole help page.
    static var overview: String {
        var text = """
            tracksnap-dev: TrackSnap's developer tools (generators, benchmarks, profiling helpers).
            Built by `make install` (next to tracksnap) or `swift build --product tracksnap-dev`.

            USAGE
            """
        for command in commands {
            text += "\n  tracksnap-dev \(command.usage)\n        \(command.summary)"
        }
        return text + "\n  tracksnap-dev --help [COMMAND]"
    }

    /// One command's help, or nil for an unknown command.
    static func text(for name: String) -> String? {
        commands.first { $0.name == name }.map { "usage: tracksnap-dev \($0.usage)\n        \($0.summary)" }
    }

    /// The error for a bad invocation of `name`: its usage, with what was wrong first.
    static func usageError(_ name: String, _ problem: String? = nil) -> DevToolError {
        let usage = text(for: name) ?? overview
        return DevToolError(problem.map { "\($0)\n\(usage)" } ?? usage)
    }
}
