/// The text of `--help`. Kept next to the parser so the two tell the same story.
enum HelpText {
    static func text(for topic: String?) -> String {
        topic == "render" ? render : overview
    }

    static let overview = """
        tracksnap \(TrackSnapVersion.string): map snapshots (PNG) of recorded GPS tracks.

        USAGE
          tracksnap render INPUT -o OUTPUT.png [--size WxH] [--scale S] [--padding F] [--info]
          tracksnap --help | --version

        COMMANDS
          render    Draw one track file (GPX 1.0/1.1 or CSV; the format is read from the content)
                    as a PNG map snapshot.

        Run 'tracksnap render --help' for the render options.

        EXIT STATUS
          0   success
          1   unexpected failure
          2   bad command line
          65  the input is not a readable track (the message names the file, format and position)
          75  temporary failure (e.g. disk full): retry later
        """

    static let render = """
        USAGE
          tracksnap render INPUT -o OUTPUT.png [options]

        Reads INPUT, drops bad fixes, fits a padded Web-Mercator view to the track, simplifies it
        to within half a pixel, draws it on a map-paper grid and writes OUTPUT.png atomically
        (a temporary file renamed into place; nothing is written when the input is bad).

        OPTIONS
          -o, --output PATH   the PNG to write (required)
          --size WxH          image size in points (default 512x512; 16...8192 each)
          --scale S           device pixels per point: 1 for @1x, 2 for @2x (default 1; 0.5...4)
          --padding F         empty margin on each side as a fraction of the frame (default 0.1)
          --info              print one JSON object describing the render on stdout:
                              format, fixes, fixes_kept, segments, vertices_drawn, distance_m,
                              duration_s, width, height, stroke_width_px, viewport_epsg3857
                              ([minX, minY, maxX, maxY], metres: the exact map rect shown), and
                              name, dropped, elevation_gain_m, start_time, scale
          -h, --help          show this help
        """
}
