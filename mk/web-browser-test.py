#!/usr/bin/env python3
"""gestured-web in a real browser: Debian's headless Chromium, driven by chromedriver
through selenium, while the real gestured replays real recordings (docs/PROTOCOL.md,
"Web pages"). Checks that the example page receives the gestures by EventSource, that its
`set` disables a gesture so that the next replayed strokes no longer trigger it, that
closing the page undoes the change, that a page of a foreign origin cannot change
anything, and takes a screenshot of the live view with the touches drawn on it.

    mk/web-browser-test.py BUILD_DIR RECORDINGS_DIR SCREENSHOT.png

Part of `make test`. Without a browser, chromedriver, selenium or the recordings it skips
and says why, except under CI=true, where that is a failure. Every wait is for a condition
(a line on a stream, an element, the daemon's status) with a bound generous enough for a
loaded 2-core machine; none is a sleep standing in for one.
"""
import importlib.util
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

build, recordings, screenshot = sys.argv[1:4]
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
absent = [what for what, present in [
    (CHROMIUM + " (Debian's chromium)", os.access(CHROMIUM, os.X_OK)),
    (CHROMEDRIVER + " (chromium-driver)", os.access(CHROMEDRIVER, os.X_OK)),
    ("selenium (PyPI)", importlib.util.find_spec("selenium") is not None),
    (recordings, os.path.isdir(recordings))] if not present]
if absent:
    under_ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    print(("FAIL" if under_ci else "web-browser-test: skipped") + ": missing " + ", ".join(absent)
          + (" (make deps installs them; CI=true fails without them)" if not under_ci else ""))
    sys.exit(1 if under_ci else 0)

from selenium import webdriver  # noqa: E402 (only once it is known to be there)
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

failures = []
# Bounds for a loaded 2-core machine: the browser's start, a page's load, a condition.
WAIT_SECONDS = 60


def check(condition, what):
    print(("ok: " if condition else "FAIL: ") + what, flush=True)
    if not condition:
        failures.append(what)


def wait(condition, seconds=WAIT_SECONDS, step=0.1):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


class Daemon:
    """gestured --replay with a control socket in `directory`."""

    def __init__(self, directory, config, recording, speed):
        self.socket = os.path.join(directory, "ctl.sock")
        self.process = subprocess.Popen(
            [os.path.join(build, "gestured"), "--config", config, "--socket", self.socket,
             "--replay", os.path.join(recordings, recording), "--replay-speed", str(speed)],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "gestured.log"), "w"))
        if not wait(lambda: os.path.exists(self.socket)):
            raise SystemExit("gestured did not start")

    def request(self, command, **members):
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(self.socket)
            connection.sendall((json.dumps({"cmd": command, **members}) + "\n").encode())
            return json.loads(connection.makefile().readline())

    def subscribe(self, **options):
        """A subscriber reading lines into a list on a thread of its own."""
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(self.socket)
        connection.sendall((json.dumps({"cmd": "subscribe", **options}) + "\n").encode())
        lines = []
        reader = connection.makefile()
        reader.readline()

        def read():
            for line in reader:
                lines.append((time.monotonic(), json.loads(line)))
        threading.Thread(target=read, daemon=True).start()
        return lines

    def enabled(self, gesture):
        return next(g["enabled"] for g in self.request("status")["ok"]["gestures"] if g["name"] == gesture)

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Bridge:
    def __init__(self, directory, daemon, config):
        self.process = subprocess.Popen(
            [os.path.join(build, "gestured-web"), "--listen", "127.0.0.1:0", "--socket", daemon.socket, "--config", config],
            stdout=subprocess.PIPE, stderr=open(os.path.join(directory, "web.log"), "w"), text=True)
        self.port = int(self.process.stdout.readline().split()[-1])
        self.url = f"http://127.0.0.1:{self.port}"

    def post(self, path, body, origin):
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Origin": origin})
        try:
            with urllib.request.urlopen(request) as reply:
                return reply.status
        except urllib.error.HTTPError as error:
            return error.code

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1600,900"]:
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT_SECONDS)
    driver.set_script_timeout(WAIT_SECONDS)
    return driver


CONFIG = """[screen]
width = 800
height = 480

[view.panel.frame]
x = 0
y = 0
width = 800
height = 480

[gesture.tap]
type = "tap"
view = "panel"

[gesture.drag]
type = "pan"
view = "panel"
max_touches = 2
"""

with tempfile.TemporaryDirectory() as directory:
    config = os.path.join(directory, "gestures.toml")
    with open(config, "w") as file:
        file.write(CONFIG)
    driver = browser()
    try:
        # 1. Nine taps (1.9 s recorded), seven times slower: one every 1.4 s or so.
        daemon = Daemon(directory, config, "atmel-maxtouch-1-finger-fast-taps.evemu", 0.15)
        bridge = Bridge(directory, daemon, config)
        direct = daemon.subscribe(touches=True)
        driver.get(bridge.url + "/example.html")
        check(wait(lambda: driver.execute_script("return window.gestured && window.gestured.session !== null")),
              "the example page opened its EventSource session")
        check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, "input[data-gesture=drag]")), "the page lists the gestures from /status")
        daemon.request("replay-start")

        def page_lines():
            return driver.execute_script("return window.received")

        received = wait(lambda: [l for l in page_lines() if l.get("gesture") == "tap"])
        check(len(received) >= 1, f"the page received tap events by EventSource ({len(received)})")
        check(received and all(l["type"] == "tap" and l["state"] == "recognized" for l in received), "with the stream's JSON")

        def changed(lines, gesture, enabled):
            """Where the stream says `gesture` became `enabled`: the order, not the clock, tells before from after."""
            return next((i for i, l in enumerate(lines) if l.get("changed") == {"gesture": gesture, "enabled": enabled}), None)

        # The page's own set, through its switch.
        driver.find_element(By.CSS_SELECTOR, "input[data-gesture=tap]").click()
        check(wait(lambda: daemon.enabled("tap") is False), "the page's set disabled tap in the daemon")
        check(wait(lambda: daemon.request("status")["ok"]["replay"]["state"] == "finished"), "the replay finished")
        # A second set after the replay's end marks the end of its lines on both streams.
        driver.find_element(By.CSS_SELECTOR, "input[data-gesture=drag]").click()
        daemon_lines = wait(lambda: (lambda ls: ls if changed(ls, "drag", False) is not None else None)([l for _, l in direct]))
        page = wait(lambda: (lambda ls: ls if changed(ls, "drag", False) is not None else None)(page_lines()))
        check(daemon_lines and page, "both streams carried the page's changes to the end of the replay")
        after = daemon_lines[changed(daemon_lines, "tap", False):] if daemon_lines else []
        strokes_after = [l for l in after if l.get("phase") == "began"]
        taps_after = [l for l in after if l.get("gesture") == "tap" and "state" in l]
        page_after = [l for l in page[changed(page, "tap", False):] if l.get("gesture") == "tap"] if page else []
        check(len(strokes_after) >= 2, f"strokes were replayed after the set ({len(strokes_after)})")
        check(not taps_after and not page_after, f"none of them triggered tap (daemon: {len(taps_after)}, page: {len(page_after)})")
        # Closing the page ends its session: the daemon undoes its change.
        driver.get("about:blank")
        check(wait(lambda: daemon.enabled("tap") is True and daemon.enabled("drag") is True), "closing the page undid its sets")

        # 2. A page of another origin may change nothing.
        class Foreign(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                page = ("<!doctype html><script>window.outcome = 'pending'; fetch('%s/set', {method: 'POST', "
                        "headers: {'Content-Type': 'application/json'}, body: JSON.stringify({gesture: 'tap', enabled: false, keep: true})})"
                        ".then(r => window.outcome = 'status ' + r.status, e => window.outcome = 'refused: ' + e.message);</script>") % bridge.url
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(page.encode())

            def log_message(self, *arguments):
                pass
        foreign = http.server.HTTPServer(("127.0.0.1", 0), Foreign)
        threading.Thread(target=foreign.serve_forever, daemon=True).start()
        driver.get(f"http://localhost:{foreign.server_port}/")
        outcome = wait(lambda: (lambda o: o if o != "pending" else None)(driver.execute_script("return window.outcome")))
        check(outcome is not None and outcome.startswith("refused"), f"the foreign page's fetch was refused by the browser ({outcome})")
        check(bridge.post("/set", {"gesture": "tap", "enabled": False, "keep": True}, "https://evil.example") == 403,
              "a request with a foreign Origin gets 403")
        check(daemon.enabled("tap") is True, "and tap stays enabled")
        foreign.shutdown()
        bridge.stop()
        daemon.stop()

        # 3. The live view while a finger drags up and down, at half speed.
        daemon = Daemon(directory, config, "atmel-maxtouch-1-finger-drag-up-down.evemu", 0.5)
        bridge = Bridge(directory, daemon, config)
        driver.get(bridge.url + "/")
        check(wait(lambda: driver.execute_script("return window.gestured && window.gestured.session !== null")), "the live view opened its stream")
        check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#picture g.view[data-view=panel]")), "the live view drew the config's views")
        daemon.request("replay-start")
        check(wait(lambda: driver.find_elements(By.CSS_SELECTOR, "circle.live-touch")), "the live view drew the touch")
        check(wait(lambda: len((driver.find_element(By.CSS_SELECTOR, "polyline.live-trail").get_attribute("points") or "").split()) > 40),
              "with its trail")
        check(wait(lambda: "began" in driver.find_element(By.ID, "states").text or "changed" in driver.find_element(By.ID, "states").text),
              "and drag's state")
        driver.save_screenshot(screenshot)
        print("screenshot: " + screenshot)
        bridge.stop()
        daemon.stop()
    finally:
        driver.quit()

if failures:
    print(f"web-browser-test: {len(failures)} failure(s)")
    sys.exit(1)
print("web-browser-test: all checks passed")
