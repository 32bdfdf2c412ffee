"""A tile server on loopback for the tile source tests: serves DIR/{z}/{x}/{y}.png under
/tiles/ (Cache-Control max-age=3600, ETag, 304 on If-None-Match), /nocache/ (no-cache), /fail/
(HTTP 500), /slow/ (0.2 s a tile), /gzip/ (the tile sent with Content-Encoding: gzip),
/maxage/VALUE/ (Cache-Control: max-age=VALUE), /bigheader/ (a 1 MiB response header) and the
misbehaving servers: /hang/ (reads the request, never answers), /drip/ (headers, then one body
byte every 0.5 s) and /driphead/ (one header byte every 0.5 s). Files by range: /ranges/NAME
serves DIR/NAME with Range support (206 and Content-Range; ETag, If-None-Match 304, If-Match
412; max-age=3600), /norange/NAME sends the whole file with 200 whatever the Range, and
/flaky/NAME answers 503 to every range not starting at byte 0 while DIR/NAME.down exists. A
query string is ignored. Logs one JSON line per request to LOG, with the number of requests in
flight when it arrived. Prints its port, then serves until stdin closes."""
import gzip, hashlib, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

root, log_path = sys.argv[1], sys.argv[2]
lock = threading.Lock()
state = {"in_flight": 0, "most": 0}

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            state["in_flight"] += 1
            state["most"] = max(state["most"], state["in_flight"])
            with open(log_path, "a") as log:
                log.write(json.dumps({"path": self.path, "ua": self.headers.get("User-Agent", ""),
                                      "inm": self.headers.get("If-None-Match", ""),
                                      "host": self.headers.get("Host", ""),
                                      "range": self.headers.get("Range", ""),
                                      "im": self.headers.get("If-Match", ""),
                                      "in_flight": str(state["in_flight"])}) + "\n")
        try:
            self.serve()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up on a hanging or dripping answer, as it should
        finally:
            with lock:
                state["in_flight"] -= 1

    def serve(self):
        kind, _, rest = self.path.lstrip("/").partition("/")
        rest = rest.partition("?")[0]
        if kind == "fail":
            return self.reply(500, b"internal error", {})
        if kind == "slow":
            time.sleep(0.2)
        if kind == "hang":
            time.sleep(60)
            return
        if kind == "driphead":
            for byte in b"HTTP/1.1 200 OK\r\nX-Drip: " + b"x" * 200:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.5)
            return
        if kind == "drip":
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            for _ in range(120):
                self.wfile.write(b"\x89")
                self.wfile.flush()
                time.sleep(0.5)
            return
        if kind in ("ranges", "norange", "flaky"):
            return self.serve_range(kind, os.path.join(root, rest))
        cache_control = "no-cache" if kind == "nocache" else "max-age=3600"
        if kind == "maxage":
            # /maxage/VALUE/z/x/y.png: the tile with Cache-Control: max-age=VALUE.
            value, _, rest = rest.partition("/")
            cache_control = "max-age=" + value
        if kind == "bigheader":
            return self.reply(200, b"", {"X-Padding": "p" * (1 << 20)})
        path = os.path.join(root, rest)
        if not os.path.isfile(path):
            return self.reply(404, b"", {})
        body = open(path, "rb").read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()
        headers = {"ETag": etag, "Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT", "Content-Type": "image/png",
                   "Cache-Control": cache_control}
        if self.headers.get("If-None-Match") == etag:
            return self.reply(304, b"", headers)
        if kind == "gzip":
            headers["Content-Encoding"] = "gzip"
            body = gzip.compress(body)
        self.reply(200, body, headers)

    def serve_range(self, kind, path):
        if not os.path.isfile(path):
            return self.reply(404, b"", {})
        body = open(path, "rb").read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()
        headers = {"ETag": etag, "Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT", "Cache-Control": "max-age=3600",
                   "Accept-Ranges": "bytes", "Content-Type": "application/octet-stream"}
        if kind == "norange":
            return self.reply(200, body, headers)
        first, _, last = self.headers.get("Range", "").partition("=")[2].partition("-")
        if not first.isdigit():
            return self.reply(200, body, headers)
        first, last = int(first), min(int(last) if last.isdigit() else len(body) - 1, len(body) - 1)
        if kind == "flaky" and first > 0 and os.path.exists(path + ".down"):
            return self.reply(503, b"down for a minute", {})
        match = self.headers.get("If-Match")
        if match and match != etag:
            return self.reply(412, b"", {})
        if self.headers.get("If-None-Match") == etag:
            return self.reply(304, b"", headers)
        if first >= len(body):
            return self.reply(416, b"", {"Content-Range": "bytes */%d" % len(body)})
        headers["Content-Range"] = "bytes %d-%d/%d" % (first, last, len(body))
        self.reply(206, body[first:last + 1], headers)

    def reply(self, status, body, headers):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
