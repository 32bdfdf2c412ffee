#!/usr/bin/env python3
"""Preview a TrackSnap Output/ folder over HTTP (`make serve`), like `python3 -m http.server`
but refusing every path with a component that starts with a dot: `Output/.tracksnap/` holds
TrackSnap's own state (records, caches, locks) and `.checks/` test screenshots; neither is part
of the site. Usage: serve.py DIR [--port N (8000; 0 picks one)] [--bind ADDRESS (127.0.0.1)].
Prints the address it serves on, then serves until interrupted."""
import argparse, functools, posixpath, sys, urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer


class SiteHandler(SimpleHTTPRequestHandler):
    def hidden(self):
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        # Decoded first: "/%2etracksnap/" is the same folder. Backslashes too, for odd clients.
        parts = posixpath.normpath(path.replace("\\", "/")).split("/")
        return any(part.startswith(".") and part not in ("", ".") for part in parts) or ".." in path.split("/")

    def send_head(self):
        if self.hidden():
            self.send_error(404, "Not part of the site")
            return None
        return super().send_head()

    def list_directory(self, path):
        # No folder listings: a listing would name the dot-folders even if they cannot be read.
        self.send_error(404, "No listing")
        return None


def main():
    parser = argparse.ArgumentParser(description="Preview a TrackSnap Output/ folder (dot-paths refused).")
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    options = parser.parse_args()
    handler = functools.partial(SiteHandler, directory=options.directory)
    server = ThreadingHTTPServer((options.bind, options.port), handler)
    print("Serving %s at http://%s:%d/ (dot-paths such as .tracksnap/ are refused)"
          % (options.directory, options.bind, server.server_address[1]), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
