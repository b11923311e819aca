#!/usr/bin/env python3
"""gestured-web's fan-out: N pages' event streams (Server-Sent Events) while gestured
replays a recording at a multiple of its pace. Prints the events each page got, the events
per second delivered in all, and the latency from the daemon's line (read by a direct
subscriber of the control socket) to each page's copy of it, p50 and p99.

    mk/web-bench.py BUILD_DIR RECORDING [PAGES] [SPEED]
"""
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import time

build, recording = sys.argv[1:3]
pages = int(sys.argv[3]) if len(sys.argv) > 3 else 100
speed = float(sys.argv[4]) if len(sys.argv) > 4 else 10

CONFIG = '[screen]\nwidth = 800\nheight = 480\n\n[gesture.drag]\ntype = "pan"\nmax_touches = 10\n'

with tempfile.TemporaryDirectory() as directory:
    config = os.path.join(directory, "gestures.toml")
    open(config, "w").write(CONFIG)
    control = os.path.join(directory, "ctl.sock")
    daemon = subprocess.Popen([os.path.join(build, "gestured"), "--config", config, "--socket", control,
                               "--replay", recording, "--replay-speed", str(speed)], stderr=subprocess.DEVNULL)
    while not os.path.exists(control):
        time.sleep(0.05)
    time.sleep(0.2)
    bridge = subprocess.Popen([os.path.join(build, "gestured-web"), "--listen", "127.0.0.1:0", "--socket", control,
                               "--config", config, "--max-streams", str(pages)], stdout=subprocess.PIPE, text=True)
    port = int(bridge.stdout.readline().split()[-1])
    selector = selectors.DefaultSelector()
    direct = socket.socket(socket.AF_UNIX)
    direct.connect(control)
    direct.sendall(b'{"cmd": "subscribe"}\n')
    direct.setblocking(False)
    selector.register(direct, selectors.EVENT_READ, "direct")
    for page in range(pages):
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ, page)
    buffers = {}
    sent_at = {}
    arrivals = {page: [] for page in range(pages)}
    time.sleep(0.5)
    with socket.socket(socket.AF_UNIX) as start:
        start.connect(control)
        start.sendall(b'{"cmd": "replay-start"}\n')
        events = json.loads(start.makefile().readline())["ok"]["events"]
    quiet_since = time.monotonic()
    first = None
    while time.monotonic() - quiet_since < 1.5:
        for key, _ in selector.select(0.1):
            data = key.fileobj.recv(65536)
            now = time.monotonic()
            if not data:
                selector.unregister(key.fileobj)
                continue
            quiet_since = now
            buffer = buffers.get(key.data, b"") + data
            *lines, buffers[key.data] = buffer.split(b"\n")
            for line in lines:
                if key.data == "direct":
                    if b'"gesture"' in line:
                        sent_at.setdefault(line, now)
                elif line.startswith(b"data: {\"t\""):
                    first = first or now
                    arrivals[key.data].append((line[6:], now))
    last = max((a[-1][1] for a in arrivals.values() if a), default=first)
    counts = [len(a) for a in arrivals.values()]
    latencies = sorted((t - sent_at[line]) * 1000 for a in arrivals.values() for line, t in a if line in sent_at)
    total = sum(counts)
    print(f"pages {pages}, speed {speed}x, {len(sent_at)} events from the daemon")
    print(f"per page: min {min(counts)} max {max(counts)}; delivered {total} in {last - first:.3f} s: {total / max(last - first, 1e-9):.0f} events/s")
    if latencies:
        print(f"latency daemon line -> page: p50 {latencies[len(latencies) // 2]:.2f} ms, p99 {latencies[int(len(latencies) * 0.99)]:.2f} ms, max {latencies[-1]:.2f} ms")
    status = os.popen(f"grep -E 'VmRSS|VmHWM' /proc/{bridge.pid}/status").read().split()
    print("bridge " + " ".join(status))
    bridge.terminate()
    daemon.terminate()
    bridge.wait()
    daemon.wait()
