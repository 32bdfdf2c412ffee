"""A tile server on loopback for the tile source tests: serves DIR/{z}/{x}/{y}.png under
/tiles/ (Cache-Control max-age=3600, ETag, 304 on If-None-Match), /nocache/ (no-cache), /fail/
(HTTP 500), /slow/ (0.2 s a tile), /gzip/ (the tile sent with Content-Encoding: gzip),
/maxage/VALUE/ (Cache-Control: max-age=VALUE), /bigheader/ (a 1 MiB response header) and the
misbehaving servers: /hang/ (reads the request, never answers), /drip/ (headers, then one body
byte every 0.5 s) and /driphead/ (one header byte every 0.5 s). A query string is ignored. Logs one JSON line per request to LOG, with the
number of requests in flight when it arrived. Prints its port, then serves until stdin closes."""
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
