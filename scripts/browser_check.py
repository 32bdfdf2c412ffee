#!/usr/bin/python3
"""Loads a TrackSnap site in headless Chromium over loopback and checks it as a reader would.

Usage: browser_check.py SITE_DIR SCREENSHOT_DIR

Serves SITE_DIR with Python's static file server on 127.0.0.1 (a free port), then drives
Debian's `chromium` through the DevTools protocol on a pipe (--remote-debugging-pipe; no
websocket library needed). For index.html, the second index page when there is one, and the
detail pages of the first 200 tracks (and overview.html, the busiest region's page and the newest
year's overview page when the site has them) it checks that:
  - every <img> loads (lazy ones are switched to eager first) and has a natural size and an alt text
    (a tile of an overview picture: its grid's aria-label),
  - nothing is logged as an error (console, uncaught exception, failed request),
  - no JavaScript dialog opens (a hostile track name that escaped would alert),
  - every link and image stays inside the site (same origin, no path outside it),
and writes screenshots (light and dark appearance) of the index pages and the first detail page
into SCREENSHOT_DIR. Detail pages are checked for the first 200 tracks. Exit status 0 when all
pass; otherwise every problem is printed and the status is 1.
"""
import base64
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TIMEOUT_S = 60


class Browser:
    """Chromium with the DevTools protocol on fds 3 (commands in) and 4 (replies out)."""

    def __init__(self, executable):
        self.profile = tempfile.mkdtemp(prefix="tracksnap-chromium-")
        to_child_r, self.to_child_w = os.pipe()
        self.from_child_r, from_child_w = os.pipe()

        def wire():
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        args = [executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "--window-size=1400,1000",
                "about:blank"]
        # close_fds would close 3 and 4 after wire() ran; the parent's own ends are close-on-exec.
        os.set_inheritable(self.to_child_w, False)
        os.set_inheritable(self.from_child_r, False)
        self.process = subprocess.Popen(args, preexec_fn=wire, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.next_id = 0
        self.buffer = b""
        self.events = []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.time() > deadline:
                raise TimeoutError("no reply from chromium")
            chunk = os.read(self.from_child_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        message = json.loads(message)
        if message.get("method") == "Page.javascriptDialogOpening":
            # A dialog blocks the page until answered: dismiss it now, and report it later.
            self.next_id += 1
            answer = {"id": self.next_id, "method": "Page.handleJavaScriptDialog", "params": {"accept": False},
                      "sessionId": message.get("sessionId")}
            os.write(self.to_child_w, json.dumps(answer).encode() + b"\0")
        return message

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_child_w, json.dumps(message).encode() + b"\0")
        deadline = time.time() + TIMEOUT_S
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, session, timeout=TIMEOUT_S):
        deadline = time.time() + timeout
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(index)
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


IMAGES_SCRIPT = """
(async () => {
  const images = [...document.images];
  for (const image of images) image.loading = 'eager';
  const results = await Promise.all(images.map(image => image.decode().then(
      () => image.naturalWidth > 0 ? null : image.currentSrc || image.src,
      () => image.currentSrc || image.src)));
  // A tile of an overview picture is labelled by its grid (role="img" with the picture's alt text).
  const unlabelled = images.filter(image => !(image.getAttribute('alt') || '').trim() && !image.closest('[role="img"][aria-label]'))
      .map(image => image.currentSrc || image.src);
  return JSON.stringify({count: images.length, broken: results.filter(x => x), unlabelled});
})()
"""

LINKS_SCRIPT = """
JSON.stringify([...document.querySelectorAll('a[href], img[src], link[href]')].map(e =>
  e.tagName === 'IMG' ? e.src : e.href).concat([...document.images].flatMap(i =>
  (i.srcset || '').split(',').map(s => s.trim().split(' ')[0]).filter(s => s).map(s => new URL(s, document.baseURI).href))))
"""


def check_page(browser, session, url, site_root_url, screenshot_path, problems):
    browser.events = [e for e in browser.events if e.get("sessionId") != session]
    browser.send("Page.navigate", {"url": url}, session)
    browser.wait_for("Page.loadEventFired", session)
    images = json.loads(browser.send("Runtime.evaluate", {"expression": IMAGES_SCRIPT, "awaitPromise": True,
                                                          "returnByValue": True}, session)["result"]["value"])
    for source in images["broken"]:
        problems.append(f"{url}: image did not load: {source}")
    for source in images["unlabelled"]:
        problems.append(f"{url}: image without alt text: {source}")
    links = json.loads(browser.send("Runtime.evaluate", {"expression": LINKS_SCRIPT, "returnByValue": True},
                                    session)["result"]["value"])
    for link in links:
        if link.startswith("data:"):
            continue
        if not link.startswith(site_root_url):
            problems.append(f"{url}: link or image leaves the site: {link}")
    # Let late errors (failed requests) arrive, then read every event of this page.
    browser.send("Runtime.evaluate", {"expression": "new Promise(r => setTimeout(r, 300))", "awaitPromise": True}, session)
    for event in [e for e in browser.events if e.get("sessionId") == session]:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            problems.append(f"{url}: console error: {params.get('args')}")
        elif method == "Runtime.exceptionThrown":
            problems.append(f"{url}: uncaught exception: {params.get('exceptionDetails', {}).get('text')}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            problems.append(f"{url}: error logged: {entry.get('text')} {entry.get('url', '')}")
        elif method == "Page.javascriptDialogOpening":
            problems.append(f"{url}: a JavaScript dialog opened: {params.get('message')!r} (escaping failed)")
    browser.send("Runtime.evaluate", {"expression": "window.scrollTo(0, 0)"}, session)
    for scheme in ("light", "dark") if screenshot_path else ():
        browser.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}, session)
        shot = browser.send("Page.captureScreenshot", {"format": "png"}, session)
        path = screenshot_path.replace(".png", f"-{scheme}.png")
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(shot["data"]))
    browser.send("Emulation.setEmulatedMedia", {"features": []}, session)
    print(f"browser-check: {url}: {images['count']} images loaded, {len(links)} links checked")
    return images["count"]


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    site, screenshots = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not os.path.isfile(os.path.join(site, "index.html")):
        print(f"browser-check: no index.html in {site}")
        return 1
    os.makedirs(screenshots, exist_ok=True)
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if not executable:
        print("browser-check: chromium is not installed (apt-get install -y chromium)")
        return 1
    server = serve(site)
    root = f"http://127.0.0.1:{server.server_address[1]}/"
    browser = Browser(executable)
    problems = []
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            browser.send(domain + ".enable", {}, session)
        pages = [("index.html", "index.png")]
        if os.path.isfile(os.path.join(site, "page-1.html")):
            pages.append(("page-1.html", "page-1.png"))
        # The archive overview (issue 25): its region pictures load and say their numbers; so do
        # the page of the busiest region (its tracks' cards) and of the newest year.
        if os.path.isfile(os.path.join(site, "overview.html")):
            pages.append(("overview.html", "overview.png"))
            with open(os.path.join(site, "index", "overview.json"), encoding="utf-8") as handle:
                overview = json.load(handle)
            if overview.get("regions"):
                busiest = overview["regions"][0]["page"]
                pages.append((busiest, "overview-region.png"))
                # A region with more tracks than a page: its oldest numbered page too.
                oldest = busiest[: -len(".html")] + ".1.html"
                if os.path.isfile(os.path.join(site, oldest)):
                    pages.append((oldest, None))
            if overview.get("years"):
                pages.append((overview["years"][0]["page"], "overview-year.png"))
        # index.json (schema 4) counts its parts, part N at part_path with N for {n}; each holds
        # one page's tracks, the newest part first.
        with open(os.path.join(site, "index.json"), encoding="utf-8") as handle:
            document = json.load(handle)
        tracks = []
        for number in range(document["parts"], 0, -1):
            with open(os.path.join(site, document["part_path"].replace("{n}", str(number))), encoding="utf-8") as handle:
                tracks += json.load(handle)["tracks"]
        # Every detail page is loaded (hostile names are among them); the first is photographed.
        pages += [(track["page"], "detail.png" if index == 0 else None) for index, track in enumerate(tracks[:200])]
        for page, shot in pages:
            url = root + urllib.parse.quote(page)
            check_page(browser, session, url, root, os.path.join(screenshots, shot) if shot else None, problems)
    except Exception as error:  # a crash of the check itself is a failure, with its reason
        problems.append(f"the check could not run: {error!r}")
    finally:
        browser.close()
        server.shutdown()
    for problem in problems:
        print("browser-check: FAILED: " + problem)
    if not problems:
        print(f"browser-check: ok; screenshots in {screenshots}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
