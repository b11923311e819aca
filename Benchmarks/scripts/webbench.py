#!/usr/bin/env python3
"""gestured-web's fan-out: N pages' event streams (Server-Sent Events, raw sockets read by
this one process) while gestured replays a recording at a multiple of its pace. Measures
the events each page got, the events per second delivered in all, and the latency from
the daemon's line (read by a direct subscriber of the control socket) to each page's copy
of it. `make bench` runs it through daemon-bench.py (the row "web bridge"); alone:

    Benchmarks/scripts/webbench.py GESTURED GESTURED_WEB RECORDING [PAGES] [SPEED]
"""
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time

# One pan: a one-finger drag's events. (Fingers circling about one centre do not pan:
# daemon-bench.py gives a rotation for its ten fingers.)
CONFIG = '[screen]\nwidth = 800\nheight = 480\n\n[gesture.drag]\ntype = "pan"\nmax_touches = 10\n'


def wait_for(condition, seconds=30):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise RuntimeError("gave up waiting")
        time.sleep(0.05)


def fanout(gestured, bridge_binary, recording, pages=100, speed=1.0, config_text=CONFIG):
    """The measurements as a dict (see the module's text); raises RuntimeError when a part
    does not start."""
    with tempfile.TemporaryDirectory(prefix="gestured-web-bench-") as directory:
        config = os.path.join(directory, "gestures.toml")
        with open(config, "w") as f:
            f.write(config_text)
        control = os.path.join(directory, "ctl.sock")
        daemon = subprocess.Popen([gestured, "--config", config, "--socket", control, "--replay", recording,
                                   "--replay-speed", str(speed)], stderr=subprocess.DEVNULL)
        bridge = None
        try:
            wait_for(lambda: os.path.exists(control))
            bridge = subprocess.Popen([bridge_binary, "--listen", "127.0.0.1:0", "--socket", control, "--config", config,
                                       "--max-streams", str(pages)], stdout=subprocess.PIPE, text=True)
            port = int(bridge.stdout.readline().split()[-1])
            return _measure(control, port, bridge.pid, pages, speed)
        finally:
            for process in (bridge, daemon):
                if process:
                    process.terminate()
                    process.wait()


def _measure(control, port, bridge_pid, pages, speed):
    selector = selectors.DefaultSelector()
    direct = socket.socket(socket.AF_UNIX)
    direct.connect(control)
    direct.sendall(b'{"cmd": "subscribe"}\n')
    direct.makefile().readline()
    direct.setblocking(False)
    selector.register(direct, selectors.EVENT_READ, "direct")
    opened = set()
    for page in range(pages):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ, page)
    buffers = {}
    sent_at = {}
    arrivals = {page: [] for page in range(pages)}

    def read(timeout):
        for key, _ in selector.select(timeout):
            data = key.fileobj.recv(65536)
            now = time.monotonic()
            if not data:
                selector.unregister(key.fileobj)
                continue
            buffer = buffers.get(key.data, b"") + data
            *lines, buffers[key.data] = buffer.split(b"\n")
            for line in lines:
                if key.data == "direct":
                    if b'"gesture"' in line:
                        sent_at.setdefault(line, now)
                elif line.startswith(b"event: session"):
                    opened.add(key.data)
                elif line.startswith(b"data: {\"t\""):
                    arrivals[key.data].append((line[6:], now))
        return time.monotonic()

    # Every page's stream open (its session event read) before the replay starts.
    end = time.monotonic() + 30
    while len(opened) < pages and read(0.1) < end:
        pass
    if len(opened) < pages:
        raise RuntimeError(f"{len(opened)} of {pages} pages' streams opened")
    with socket.socket(socket.AF_UNIX) as start:
        start.connect(control)
        start.sendall(b'{"cmd": "replay-start"}\n')
        start.makefile().readline()
    # Until the replay is over and 1.5 s passed without a line.
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < 1.5:
        before = sum(len(a) for a in arrivals.values()) + len(sent_at)
        read(0.1)
        if sum(len(a) for a in arrivals.values()) + len(sent_at) != before:
            quiet_since = time.monotonic()
    stamps = [t for a in arrivals.values() for _, t in a]
    counts = [len(a) for a in arrivals.values()]
    latencies = sorted((t - sent_at[line]) * 1000 for a in arrivals.values() for line, t in a if line in sent_at)
    if not stamps or not latencies:
        raise RuntimeError("no event reached the pages")
    seconds = max(stamps) - min(stamps)
    with open(f"/proc/{bridge_pid}/status") as f:
        rss_kib = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return {
        "pages": pages, "speed": speed, "events": len(sent_at), "per_page_min": min(counts), "per_page_max": max(counts),
        "delivered": sum(counts), "seconds": seconds, "events_per_second": sum(counts) / max(seconds, 1e-9),
        "latency_ms": {"p50": latencies[len(latencies) // 2], "p99": latencies[int(len(latencies) * 0.99)], "max": latencies[-1]},
        "latency_samples": len(latencies), "bridge_rss_kib": rss_kib,
    }


def main():
    gestured, bridge, recording = sys.argv[1:4]
    pages = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    speed = float(sys.argv[5]) if len(sys.argv) > 5 else 1
    r = fanout(gestured, bridge, recording, pages, speed)
    print(f"pages {r['pages']}, speed {r['speed']}x, {r['events']} events from the daemon")
    print(f"per page: min {r['per_page_min']} max {r['per_page_max']}; delivered {r['delivered']} in {r['seconds']:.3f} s: "
          f"{r['events_per_second']:.0f} events/s")
    latency = r["latency_ms"]
    print(f"latency daemon line -> page: p50 {latency['p50']:.2f} ms, p99 {latency['p99']:.2f} ms, max {latency['max']:.2f} ms")
    print(f"bridge VmRSS {r['bridge_rss_kib']} kB")


if __name__ == "__main__":
    main()
