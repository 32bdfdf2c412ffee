/// The text of `--help`. Kept next to the parser so the two tell the same story.
enum HelpText {
    /// The commands with a help page of their own.
    static let topics: Set<String> = ["render", "enqueue", "run", "status", "retry", "forget", "listing"]

    static func text(for topic: String?) -> String {
        switch topic {
        case "render": return render
        case "enqueue": return enqueue
        case "run": return run
        case "status": return status
        case "retry": return retry
        case "forget": return forget
        case "listing": return listing
        default: return overview
        }
    }

    static let overview = """
        tracksnap \(TrackSnapVersion.string): map snapshots (PNG) of recorded GPS tracks.

        USAGE
          tracksnap enqueue PATH... [--jobs DIR] [--quiet] [--mirror]
          tracksnap run [--jobs DIR] [--output DIR] [--workers N] [--shard i/N | --shard auto --shards N]
                        [--style FILE] [--theme light|dark] [--color-by none|speed|elevation]
                        [--memory-limit MB] [--basemap SOURCE [--basemap-opacity X] [--attribution TEXT]
                        [--tile-cache DIR] [--offline]] [--quiet] [--json]
          tracksnap status [--jobs DIR] [--json]
          tracksnap retry JOB... | --all [--jobs DIR]
          tracksnap forget JOB|PATH... [--jobs DIR]
          tracksnap listing [--jobs DIR] [--output DIR] [--page-size N] [--style FILE] [--theme light|dark]
                        [--color-by none|speed|elevation] [--basemap SOURCE [--basemap-opacity X]
                        [--attribution TEXT]] [--override-settings] [--allow-empty]
          tracksnap render INPUT -o OUTPUT.png [--size WxH] [--scale S] [--padding F] [--style FILE]
                        [--theme light|dark] [--color-by none|speed|elevation] [--memory-limit MB]
                        [--basemap SOURCE ...] [--info]
          tracksnap --help [COMMAND] | --version

        COMMANDS
          enqueue   Queue every track file under the given files or folders (never changes them).
          run       Render the queue with a pool of worker processes into OUTPUT/thumbs and refresh
                    OUTPUT/index.html and OUTPUT/index.json. Unchanged tracks are cache hits.
          status    Counts of queued, running, done and failed jobs, and why each failure failed.
          retry     Put quarantined jobs back in the queue with their attempts reset.
          forget    Take tracks off the queue and, at the next run or listing, off the site.
          listing   Rebuild the listing from all finished jobs (the fan-in step after sharded runs).
          render    Draw one track file as a PNG map snapshot.

        Formats read (from the content, not the name): GPX 1.0/1.1, TCX, FIT, KML and KMZ, GeoJSON
        and CSV, each also gzipped.
        Run 'tracksnap --help COMMAND' for a command's options.

        EXIT STATUS
          0   success (for run: every job done or quarantined)
          1   unexpected failure; for enqueue: some files could not be queued (each is named, the
              rest are queued)
          2   bad command line or configuration
          65  render: the input is not a readable track: missing, unreadable, not a regular file, or
              not a track (the message names the file, and the format and position when it has them)
          73  render: the output cannot be written (its folder is missing or not writable)
          75  temporary failure, retry later: another run holds the queue's lock, the disk is full or
              read-only, or the run was stopped by a signal with jobs left
        """

    /// `--basemap`, the same for `render` and `run`.
    private static let basemapSource = """
          --basemap SOURCE    draw a map under the route instead of the bare grid: an .mbtiles
                              file (raster PNG/JPEG tiles), a folder of {z}/{x}/{y}.png|jpg tiles,
                              or an http(s) URL template with {z}, {x} and {y} ({-y} for TMS,
                              {s} for subdomains a, b, c or the style's "subdomains"); a server
                              that hangs costs each image a bounded time, and after 3 failed
                              requests in a row it is not asked again in the run.
                              'none' draws the grid whatever the style says. Default: none.
                              Where the source has no tile (outside its zoom range or bounds,
                              or a tile that cannot be read) the grid shows; the reason is in
                              the render info. Part of the cache key, with the MBTiles file's
                              size and modification time
        """

    static let render = """
        USAGE
          tracksnap render INPUT -o OUTPUT.png [options]

        Reads INPUT, drops bad fixes, fits a padded Web-Mercator view to the track, simplifies it
        to within half a pixel, draws it on a map-paper grid and writes OUTPUT.png atomically
        (a temporary file renamed into place; nothing is written when the input is bad).

        OPTIONS
          -o, --output PATH   the PNG to write (required)
          --size WxH          image size in points (default 512x512; 16...8192 each, and at most
                              64 megapixels after --scale: 8000x8000 at @1x, 4000x4000 at @2x)
          --scale S           device pixels per point: 1 for @1x, 2 for @2x (default 1; 0.5...4)
          --padding F         empty margin on each side as a fraction of the frame (default 0.1)
          --style FILE        a style file (JSON; docs/style.md): sizes, scales, padding,
                              colours, stroke width, casing, grid, markers, scale bar, theme
          --theme light|dark  the map theme (wins over the style file's "theme")
          --color-by none|speed|elevation
                              colour the route in 9 quantized bands of speed or elevation
          --memory-limit MB   the memory ceiling in MiB (default 512; 64...1048576): a track
                              whose input, decompressed text and fixes (~100 bytes each) would
                              need more is refused (exit 65, "per-job memory limit")
        \(basemapSource)
          --basemap-opacity X the map's opacity over the grid, 0...1 (default 1)
          --attribution TEXT  the credit drawn in the bottom-right corner (default: the MBTiles
                              metadata's 'attribution'; "" for none, only where the licence
                              allows it). Also written to index.json and the pages
          --tile-cache DIR    where URL tiles are kept on disk (default:
                              $XDG_CACHE_HOME/tracksnap/tiles, else ~/.cache/tracksnap/tiles)
          --offline           use only tiles already in the tile cache; never fetch
          --info              print one JSON object describing the render on stdout:
                              format, fixes, fixes_kept, segments, vertices_drawn, distance_m,
                              duration_s, width, height, stroke_width_px, viewport_epsg3857
                              ([minX, minY, maxX, maxY], metres: the exact map rect shown), and
                              name, dropped, elevation_gain_m, start_time, scale, and with a
                              basemap: basemap {zoom, tiles, tiles_absent, tiles_failed,
                              attribution, problems}
          -h, --help          show this help
        """

    static let retry = """
        USAGE
          tracksnap retry JOB... [--jobs DIR]
          tracksnap retry --all [--jobs DIR]

        Moves the named jobs (as 'tracksnap status' lists them), or every job, from DIR/failed back
        to DIR/new with their attempts and run deaths reset, and removes their failure records.
        The next 'tracksnap run' renders them. For after a fix (a new TrackSnap, a repaired
        file, more memory): a job is quarantined after 3 attempts that crashed or timed out, or
        after 6 runs that died with it in flight (--attempts, --run-deaths on 'run').

        OPTIONS
          --jobs DIR    the queue (default Jobs)
          --all         every quarantined job
          -h, --help    show this help

        Exit status 2 when a named job is not in DIR/failed (the others are still moved).
        """

    static let forget = """
        USAGE
          tracksnap forget JOB|PATH... [--jobs DIR]

        Removes each job (a name as 'tracksnap status' lists it, or the path of its archive
        file, which may be deleted already) from DIR/new, DIR/running, DIR/done and DIR/failed
        and from the archive index. The next 'tracksnap run' or 'tracksnap listing' drops the
        track from the site and removes its images and detail page. An archive file that is
        still there is not queued again by 'tracksnap enqueue' until it changes (then it is a
        new version). Once no finished job is left, run and listing keep the site as it is
        (an empty queue looks like an unmounted one): 'tracksnap listing --allow-empty'
        empties it.

        A track deleted from the archive is not forgotten by itself: it stays on the site (the
        queue keeps a copy of its bytes), because the site is a history and an archive folder
        that is missing (moved, on an unmounted disk) must not empty it. Forget a track to take
        it off, e.g. a private one.

        OPTIONS
          --jobs DIR    the queue (default Jobs)
          -h, --help    show this help

        Exit status 2 when an argument names no job and no archive file the queue knows (the
        others are still forgotten).
        """

    static let enqueue = """
        USAGE
          tracksnap enqueue PATH... [--jobs DIR] [--quiet] [--mirror]

        Queues every track file (.gpx .tcx .fit .kml .kmz .geojson .json .csv, optionally .gz)
        under the given files and folders, recursively (dot-files and the queue itself are
        skipped). Each becomes a job in DIR/new: a private read-only copy (0400; the queue's folders
        are 0700). A file modified in the last 3 seconds is waited for, and left for the next
        enqueue if it is still changing.
        Your files are never moved, modified or deleted. A file unchanged (size, mtime, inode)
        since it was last queued is not queued again, so a nightly enqueue is cheap. A changed
        file replaces its older version wherever that is in the queue (waiting, being rendered,
        quarantined): only the newest version is rendered and listed. The copy keeps the file's
        mtime, which dates a track that records no times. A deleted file's track stays on the
        site (the default: the site is a history, and a folder on an unmounted disk must not
        empty it) until 'tracksnap forget' or --mirror removes it.

        OPTIONS
          --jobs DIR     the queue folder (default Jobs)
          --mirror       also forget the tracks of files under PATH that were deleted since they
                         were queued (the next run or listing takes them off the site); in a
                         folder that is missing or whose every queued file is gone (not
                         mounted?), nothing is forgotten (exit 1)
          -q, --quiet    no summary line
        """

    static let run = """
        USAGE
          tracksnap run [options]

        Drains the queue with a pool of worker processes, then refreshes the site in OUTPUT:
        index.html (and page-2.html, ...), tracks/<id>.html, site.css and index.json. Each
        track's images are named by its cache key (SHA-256 of its bytes,
        the render settings and the renderer version) and published atomically, so a rerun over
        unchanged tracks renders nothing and a static server never sees a partial file. Jobs end
        in DIR/done or, with a reason, in DIR/failed ('tracksnap status'). Files written straight
        into DIR/new are picked up once they have not changed for --settle seconds.

        OPTIONS
          --jobs DIR          the queue folder (default Jobs)
          --output DIR        the published folder (default Output)
          --workers N         worker processes (default: the number of cores)
          --shard i/N         take only shard i of N (0-based; by a stable hash of the job name)
          --shard auto --shards N
                              the shard index from JOB_COMPLETION_INDEX (Kubernetes Indexed Job)
                              or SLURM_ARRAY_TASK_ID (Slurm array); refused when missing or out of range
          --quiet             print nothing unless a job failed (for cron)
          --json              print {"claimed","rendered","cached","failed","returned","seconds",...}
          --settle S          wait until a dropped-in file is S seconds old (default 3)
          --job-timeout S     kill and retry a job running longer (default 120)
          --attempts K        quarantine a job after K crashes or timeouts (default 3): a worker
                              that dies while this run's supervisor lives costs its job an attempt
          --run-deaths N      quarantine a job after N runs died with it in flight (default 6).
                              A run killed as a whole (kill -9, the OOM killer, a reboot, a
                              preemption) costs its jobs no attempt: only this count grows
          --memory-limit MB   per-job memory ceiling in MiB (default 512; 64...1048576): a track
                              whose input, decompressed text and fixes (~100 bytes each) would
                              need more fails with class 'limit'. Each worker's heap is also
                              capped at twice this (RLIMIT_DATA); a track that hits that cap
                              fails with class 'limit' at once, and a new worker goes on
          --lease S           a claim from another host is stale after S seconds without a
                              heartbeat (default 600)
          --stop-deadline S   after SIGTERM/SIGINT, jobs in flight get S seconds (default 20);
                              a second signal aborts at once. Unfinished jobs go back to the queue.
          --no-lock           do not take the per-host lock (safe: it only avoids duplicate work)
          --page-size N       cards per index page (default 60)
          --style FILE        a style file (JSON; docs/style.md): sizes, scales, padding,
                              colours, stroke width, casing, grid, markers, scale bar, theme
          --theme light|dark  the map theme (wins over the style file's "theme")
          --color-by none|speed|elevation
                              colour the route in 9 quantized bands of speed or elevation
        \(basemapSource)
          --basemap-opacity X the map's opacity over the grid, 0...1 (default 1)
          --attribution TEXT  the credit drawn in the bottom-right corner (default: the MBTiles
                              metadata's 'attribution'; "" for none, only where the licence
                              allows it). Also written to index.json and the pages
          --tile-cache DIR    where URL tiles are kept on disk (default: DIR/tile-cache in the queue folder;
                              shared by every worker, at most 2 requests in flight)
          --offline           use only tiles already in the tile cache; never fetch

        On a terminal a progress bar shows done/total, tracks/s, ETA and failures; otherwise one
        line per failure and a summary. Exit status 0 when every job is done or quarantined, 75
        when another run holds the lock, the disk is full, or a signal stopped the run early.
        """

    static let status = """
        USAGE
          tracksnap status [--jobs DIR] [--json]

        Counts of queued, running, done and failed jobs, and every failure with its class
        (invalid-input, crash, timeout, render, name), message and attempts. --json prints
        {"queued": n, "running": n, "done": n, "failed": [{"job", "class", "message", "attempts"}]}.
        """

    static let listing = """
        USAGE
          tracksnap listing [--jobs DIR] [--output DIR] [--page-size N] [--style FILE] [--theme T]
                            [--color-by C] [--basemap SOURCE [--basemap-opacity X] [--attribution TEXT]]
                            [--override-settings] [--allow-empty]

        Rebuilds the site (index.html, page-N.html, tracks/<id>.html, site.css, index.json) from
        every finished job and removes images no track references any more. Sharded runs refresh
        the listing but never prune; run this once after all shards have finished. Files of the
        site found deleted or edited since the listing wrote them are written again.

        Style and basemap options are part of every image's cache key. Without any, the listing
        uses the settings the runs recorded in OUTPUT/.tracksnap/settings. Given ones that differ
        from those, it changes nothing, names the difference and exits 2 (it would find none of
        the runs' images, unlist every track and prune its images and pages); with
        --override-settings it lists under the given settings all the same.

        DIR must be a job queue (a new/ folder inside). When it has no finished job but the site
        lists tracks, nothing is changed and the exit status is 2 (a wrong --jobs or an unmounted
        share would otherwise delete every image and page); --allow-empty publishes the empty
        site anyway.
        """
}
