#!/usr/bin/env python3
"""Daemon-level measurements, on the real release daemon.

    daemon-bench.py --daemon .build/release/gestured --config config/gestures.toml --out FILE

Writes {"rows": [...]} for BenchReport: each row a measure, its value and unit, the
target, and a status (pass, miss, info, pending with a note saying why).

The daemon's contract used here (docs/PROTOCOL.md and `gestured --help`):
  gestured --config FILE --socket PATH [--replay FILE [--replay-speed X] | --stream FILE --desc FILE]
  READY=1 on $NOTIFY_SOCKET once it serves; with --replay it waits for
  {"cmd": "replay-start"} on the control socket, then plays the recording in real time;
  {"cmd": "subscribe"} streams one JSON line per gesture event.

Recordings come from BenchRecordings (--tools DIR), the command action's clock from
stamp.c, the subscriber's from subscriber.c, the machine's floor from floor.c, the live-like
input's pacing from pace.c (all compiled here with cc). For a quick check, BENCH_TAPS,
BENCH_STREAM_SECONDS and BENCH_IDLE_SECONDS shorten the runs (defaults 100, 20, 30).
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import socketpeers
import webbench
from socketpeers import with_socket_peers, without_actions

HERE = os.path.dirname(os.path.abspath(__file__))
TAPS = int(os.environ.get("BENCH_TAPS", 100))            # taps replayed for the end-to-end latency, 200 ms apart
STREAM_SECONDS = int(os.environ.get("BENCH_STREAM_SECONDS", 20))   # the 10-finger 240 Hz stream for CPU time
IDLE_SECONDS = int(os.environ.get("BENCH_IDLE_SECONDS", 30))
STARTS = 10
WEB_PAGES = 100
WEB_SECONDS = int(os.environ.get("BENCH_WEB_SECONDS", 10))   # the ten-finger recording the bridge's pages get
# The instruction counts play the stream this many times slower (60 frames/s), so that one
# wake reads one frame however loaded the machine is: the counts are then per frame and wake.
SLOWER = 4


class Pending(Exception):
    """The daemon cannot be measured (yet); the message says why."""


def row(measure, value, unit, target, status, note=None):
    r = {"measure": measure, "value": value, "unit": unit, "target": target, "status": status}
    if note:
        r["note"] = note
    return r


class Daemon:
    """One gestured process with its own socket, notify socket and log."""

    def __init__(self, binary, config, workdir, name, extra=(), wrapper=()):
        self.socket_path = os.path.join(workdir, name + ".sock")
        self.notify_path = os.path.join(workdir, name + ".notify")
        self.log_path = os.path.join(workdir, name + ".log")
        for path in (self.socket_path, self.notify_path):
            if os.path.exists(path):
                os.unlink(path)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        env = dict(os.environ, NOTIFY_SOCKET=self.notify_path)
        env.pop("WATCHDOG_USEC", None)
        self.log = open(self.log_path, "w")
        self.started = time.monotonic_ns()
        self.proc = subprocess.Popen([*wrapper, binary, "--config", config, "--socket", self.socket_path, *extra],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout=5.0):
        """Nanoseconds from exec to READY=1."""
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise Pending(f"daemon exited with status {self.proc.returncode} before READY ({self.tail()})")
            left = deadline - time.monotonic()
            if left <= 0:
                raise Pending(f"no READY=1 on $NOTIFY_SOCKET within {timeout} s ({self.tail()})")
            self.notify.settimeout(min(left, 0.05))
            try:
                message = self.notify.recv(4096)
            except socket.timeout:
                continue
            if b"READY=1" in message.split(b"\n"):
                return time.monotonic_ns() - self.started

    def tail(self):
        self.log.flush()
        with open(self.log_path, errors="replace") as f:
            text = f.read().strip().splitlines()
        return "log: " + (" | ".join(text[-3:]) if text else "empty")

    def request(self, command):
        """One request on a new connection; returns the reply object."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(self.socket_path)
            s.sendall((json.dumps(command) + "\n").encode())
            return json.loads(s.makefile().readline())

    def stop(self, timeout=5):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.notify.close()
        self.log.close()

    # /proc readings, summed over every thread where it matters.
    def rss_kib(self, field="VmRSS"):
        """VmRSS, or RssAnon (heap, stacks) / RssFile (mapped binary and libraries)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
        raise Pending(f"no {field} in /proc")

    def context_switches(self):
        total = 0
        task_dir = f"/proc/{self.proc.pid}/task"
        for tid in os.listdir(task_dir):
            with open(f"{task_dir}/{tid}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                        total += int(line.split()[1])
        return total

    def cpu_seconds(self):
        """CPU time of every thread, in ns from /proc/PID/task/*/schedstat (utime and stime
        count in 10 ms ticks, too coarse for 1 % of 20 s)."""
        total = 0
        task_dir = f"/proc/{self.proc.pid}/task"
        for tid in os.listdir(task_dir):
            with open(f"{task_dir}/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        return total / 1e9

    def start_replay(self):
        """Sends replay-start; returns when recorded time 0 was due, CLOCK_MONOTONIC ns: the
        daemon's `started_monotonic_us`, else (an older daemon) the time just before
        sending, which makes latencies upper bounds."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(self.socket_path)
            sent = time.monotonic_ns()
            s.sendall(b'{"cmd": "replay-start"}\n')
            reply = json.loads(s.makefile().readline())
        if "ok" not in reply:
            raise Pending(f"replay-start refused: {reply}")
        started = reply["ok"].get("started_monotonic_us") if isinstance(reply["ok"], dict) else None
        return int(started * 1000) if started is not None else sent


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def measure_floor(args):
    """What the machine charges for the daemon's path with none of the daemon's work
    (floor.c): the same timer pacing and socket line, measured the same way. On a
    virtual machine, timer wake-ups dominate both the latency and the CPU figures."""
    out = subprocess.run([args.floor, "latency", str(TAPS), "200"], check=True, capture_output=True, text=True).stdout
    out += subprocess.run([args.floor, "cpu", str(STREAM_SECONDS), "240"], check=True, capture_output=True, text=True).stdout
    values = {k: float(v) for k, v in (part.split("=") for part in out.split())}
    floor = "floor (floor.c: the timer pacing and socket line alone, no daemon)"
    return [row(f"{floor}: due -> line on a subscriber, p50", values["latency_p50_us"], "µs", "-", "info"),
            row(f"{floor}: due -> line on a subscriber, p99", values["latency_p99_us"], "µs", "-", "info"),
            row(f"{floor}: 240 Hz timer wakes, CPU", values["cpu_percent"], "% of a core", "-", "info")]


def measure_startup(args, workdir):
    times, rss, anon, files = [], [], [], []
    for i in range(STARTS):
        d = Daemon(args.daemon, args.config, workdir, f"start{i}")
        try:
            times.append(d.wait_ready() / 1e6)
            time.sleep(0.2)
            rss.append(d.rss_kib() / 1024)
            anon.append(d.rss_kib("RssAnon") / 1024)
            files.append(d.rss_kib("RssFile") / 1024)
        finally:
            d.stop()
    median = statistics.median(times)
    return [
        row(f"start-up, exec to READY (median of {STARTS}, max {max(times):.1f} ms)", median, "ms", "< 50 ms",
            "pass" if median < 50 else "miss"),
        row("resident after start, shipped config", max(rss), "MiB", "< 8 MiB", "pass" if max(rss) < 8 else "miss"),
        row("... of which anonymous (heap, stacks)", max(anon), "MiB", "-", "info"),
        row("... of which file-backed (the binary's and libraries' pages)", max(files), "MiB", "-", "info"),
    ]


def measure_latency(args, workdir):
    recording = os.path.join(workdir, "taps.evemu")
    subprocess.run([os.path.join(args.tools, "BenchRecordings"), "taps", recording, str(TAPS)], check=True)
    stamps = os.path.join(workdir, "stamps.txt")
    config = os.path.join(workdir, "latency.toml")
    with open(config, "w") as f:
        f.write(f'[screen]\nwidth = 1920\nheight = 1080\n\n[gesture.tap]\ntype = "tap"\n\n'
                f'[gesture.tap.on.recognized]\ncommand = "exec {args.stamp} {stamps}"\n')
    d = Daemon(args.daemon, config, workdir, "latency", ["--replay", recording])
    try:
        d.wait_ready()
        # The subscriber is C (subscriber.c): a Python reader adds its own wake-up and
        # buffering to every line, tens of µs that are not the daemon's.
        subscriber = subprocess.Popen([args.subscriber, d.socket_path, '"gesture":"tap","type":"tap","state":"recognized"',
                                       str(TAPS)], stdout=subprocess.PIPE, text=True)
        if subscriber.stdout.readline().strip() != "subscribed":
            subscriber.kill()
            raise Pending(f"the subscriber could not subscribe ({d.tail()})")
        start = d.start_replay()
        try:
            out, _ = subscriber.communicate(timeout=TAPS * 0.2 + 5)
        except subprocess.TimeoutExpired:
            subscriber.kill()
            out, _ = subscriber.communicate()
        received = [int(line) for line in out.split()]
        time.sleep(0.5)
    finally:
        d.stop()
    if len(received) != TAPS:
        raise Pending(f"{len(received)} of {TAPS} taps reached the subscriber")
    # Tap k lifts at 0.2 k + 0.05 s of the recording, due that long after `start`.
    lifts = [start + int((0.2 * k + 0.05) * 1e9) for k in range(TAPS)]
    socket_us = [(r - t) / 1000 for r, t in zip(received, lifts)]
    with open(stamps) as f:
        started = [int(line) for line in f if line.strip()]
    rows = [
        row("end-to-end, frame in -> event line on a subscriber, p50", percentile(socket_us, 50), "µs", "-", "info"),
        row("end-to-end, frame in -> event line on a subscriber, p99", percentile(socket_us, 99), "µs", "< 200 µs",
            "pass" if percentile(socket_us, 99) < 200 else "miss"),
    ]
    if len(started) == TAPS:
        command_us = [(s - t) / 1000 for s, t in zip(started, lifts)]
        rows += [row("end-to-end, frame in -> command process started, p50", percentile(command_us, 50), "µs", "-", "info"),
                 row("end-to-end, frame in -> command process started, p99", percentile(command_us, 99), "µs", "-", "info")]
    else:
        rows.append(row("end-to-end, frame in -> command process started", None, "µs", "-", "miss",
                        f"{len(started)} of {TAPS} commands ran"))
    return rows


# The map application's socket in the shipped config: a datagram per `changed` of its pan, zoom and rotation.
MAP_PEER = "/run/kiosk/map.sock"


def ten_fingers(args, workdir, seconds, name="ten-fingers"):
    """Ten fingers circling at 240 Hz for `seconds` (BenchRecordings): the recording, its
    device description for --stream, and a named pipe for pace.c to write it into."""
    recording = os.path.join(workdir, name + ".evemu")
    subprocess.run([os.path.join(args.tools, "BenchRecordings"), "ten-fingers", recording, str(seconds)], check=True)
    desc = os.path.join(workdir, name + ".desc")
    with open(recording) as events, open(desc, "w") as header:
        header.writelines(line for line in events if not line.startswith("E:"))
    fifo = os.path.join(workdir, name + ".pipe")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    return recording, desc, fifo


def stream_cpu(args, workdir, config, name, recording, desc, fifo):
    """CPU time of the daemon on `config` while pace.c writes `recording` into `fifo`, in %
    of a core over the stream, and the daemon, still running and attached, for more readings."""
    d = Daemon(args.daemon, config, workdir, name, ["--stream", fifo, "--desc", desc])
    try:
        d.wait_ready()
        time.sleep(0.2)
        d.rss_before = d.rss_kib() / 1024
        cpu0 = d.cpu_seconds()
        subprocess.run([args.pace, recording, fifo], check=True)
        return (d.cpu_seconds() - cpu0) / STREAM_SECONDS * 100, d
    except BaseException:
        d.stop()
        raise


def measure_stream_and_idle(args, workdir):
    """Ten fingers at 240 Hz as a live touchscreen delivers them (--stream from a named pipe
    that pace.c writes each frame into at its recorded time: the daemon is woken by another
    process and keeps no timer), twice: through the shipped config with its actions gone
    (the daemon's own path: normalizer, engine, loop), then through the shipped config (its
    socket peers present: a datagram to the map per frame as well). After the second, 30 s
    of idleness with the device still attached; last, the stream as --replay plays it (the
    daemon's own timer per frame)."""
    recording, desc, fifo = ten_fingers(args, workdir, STREAM_SECONDS)
    bare_cpu, d = stream_cpu(args, workdir, without_actions(args.config, workdir), "bare", recording, desc, fifo)
    d.stop()
    # Today's default, on.changed at the display's pace, beside every frame (as before issue 35).
    every = with_socket_peers(args.config, workdir, frame_rate='"every-frame"', name="every-frame")
    every_cpu, d = stream_cpu(args, workdir, every, "every-frame", recording, desc, fifo)
    d.stop()
    every_map = socketpeers.received[MAP_PEER] / STREAM_SECONDS
    config = with_socket_peers(args.config, workdir)
    live_cpu, d = stream_cpu(args, workdir, config, "stream", recording, desc, fifo)
    live_map = socketpeers.received[MAP_PEER] / STREAM_SECONDS
    try:
        rss_start = d.rss_before
        time.sleep(1.0)
        rss_end = d.rss_kib() / 1024
        ctx0 = d.context_switches()
        time.sleep(IDLE_SECONDS)
        ctx1 = d.context_switches()
    finally:
        d.stop()
    d = Daemon(args.daemon, config, workdir, "replay", ["--replay", recording])
    try:
        d.wait_ready()
        cpu0 = d.cpu_seconds()
        d.start_replay()
        time.sleep(STREAM_SECONDS)
        replay_cpu = (d.cpu_seconds() - cpu0) / STREAM_SECONDS * 100
    finally:
        d.stop()
    frames = f"{STREAM_SECONDS * 240:,} frames"
    live = f"CPU while 10 fingers arrive at 240 Hz as from a device ({STREAM_SECONDS} s, --stream paced by another process"
    return [
        row(f"{live}, the shipped config without its actions: the daemon's own path)", bare_cpu, "% of a core", "-",
            "info"),
        row(f"{live}, shipped config, its socket peers present)", live_cpu, "% of a core", "< 1 %",
            "pass" if live_cpu < 1 else "miss"),
        row(f"{live}, shipped config, its socket peers present, frame_rate = \"every-frame\")", every_cpu,
            "% of a core", "-", "info"),
        row("messages a second to the map peer, 10 fingers at 240 Hz, shipped config (on.changed at 60 Hz)", live_map,
            "/s", "<= 60 per gesture running", "info"),
        row("messages a second to the map peer, the same with frame_rate = \"every-frame\"", every_map, "/s", "-",
            "info"),
        row("CPU while 10 fingers play at 240 Hz from --replay (the same, paced by the daemon's own timer)", replay_cpu,
            "% of a core", "-", "info"),
        row(f"context switches, all threads, idle {IDLE_SECONDS} s after the stream", ctx1 - ctx0, "", "0",
            "pass" if ctx1 == ctx0 else "miss"),
        row(f"resident after the stream ({frames}; {rss_start:.2f} MiB before)", rss_end, "MiB",
            "< 8 MiB, flat (< 0.5 MiB growth)", "pass" if rss_end < 8 and rss_end - rss_start < 0.5 else "miss"),
    ]


def count_per_frame(args, workdir):
    """Instructions and system calls per frame of the ten-finger stream, which load does not
    change (`--instructions`): the daemon under callgrind (user-space instructions) and
    under strace (system calls), each on a short and a long stream; the difference over the
    difference in frames leaves start-up, warm-up and shutdown out. For the shipped config
    (its peers present) and for the same without its actions."""
    plain = os.path.join(workdir, "gestured")
    # valgrind cannot read the DWARF 5 the Swift compiler writes; the symbol table is enough.
    subprocess.run(["strip", "--strip-debug", "-o", plain, args.daemon], check=True)
    lengths = (1, 3)
    streams = [ten_fingers(args, workdir, seconds, f"ten-fingers-{seconds}s") for seconds in lengths]
    frames = lengths[1] * 240 - lengths[0] * 240
    configs = (("shipped config without its actions", without_actions(args.config, workdir)),
               ("shipped config, its socket peers present", with_socket_peers(args.config, workdir)))
    results = {}
    for label, config in configs:
        instructions, calls = [], []
        for (recording, desc, fifo), seconds in zip(streams, lengths):
            name = f"count-{len(instructions)}-{label.split()[-1]}-{seconds}"
            profile = os.path.join(workdir, name + ".callgrind")
            trace = os.path.join(workdir, name + ".strace")
            play_under(args, plain, config, workdir, name, (recording, desc, fifo),
                       ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}"])
            instructions.append(callgrind_total(profile))
            # strace writes its summary once the daemon (its child) is gone.
            play_under(args, plain, config, workdir, name + "-strace", (recording, desc, fifo),
                       ["strace", "-f", "-c", "-o", trace], signal_child=True)
            calls.append(strace_counts(trace))
            if seconds == lengths[1]:
                results.setdefault("profiles", {})[label] = profile
        per_call = {k: (calls[1].get(k, 0) - calls[0].get(k, 0)) / frames for k in set(calls[0]) | set(calls[1])}
        results[label] = ((instructions[1] - instructions[0]) / frames, {k: v for k, v in per_call.items() if v >= 0.01})
    for label, _ in configs:
        instructions, calls = results[label]
        listed = ", ".join(f"{name} {count:.2f}" for name, count in sorted(calls.items(), key=lambda kv: -kv[1]))
        print(f"{label}: {instructions:,.0f} instructions per frame (user space, callgrind); "
              f"system calls per frame: {sum(calls.values()):.2f} ({listed})")
    if args.keep_profiles:
        for label, profile in results["profiles"].items():
            kept = os.path.join(args.keep_profiles, os.path.basename(profile))
            subprocess.run(["cp", profile, kept], check=True)
            print(f"  callgrind profile of the {lengths[1]} s stream, {label}: {kept}")


def play_under(args, daemon, config, workdir, name, stream, wrapper, signal_child=False):
    """Runs `daemon` under `wrapper` (valgrind, strace) while pace plays `stream` slowly into
    it, then stops it with SIGTERM (to the wrapper's child when `signal_child`)."""
    recording, desc, fifo = stream
    d = Daemon(daemon, config, workdir, name, ["--stream", fifo, "--desc", desc], wrapper)
    try:
        d.wait_ready(timeout=120)
        time.sleep(0.5)
        subprocess.run([args.pace, recording, fifo, str(SLOWER)], check=True)
        time.sleep(0.5)
    finally:
        if signal_child and d.proc.poll() is None:
            for child in open(f"/proc/{d.proc.pid}/task/{d.proc.pid}/children").read().split():
                os.kill(int(child), signal.SIGTERM)
        d.stop(timeout=60)


def callgrind_total(profile):
    """The instructions counted in a callgrind profile (its `totals:` line)."""
    with open(profile) as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    raise Pending(f"{profile}: no totals")


def strace_counts(path):
    """System call counts of an `strace -c` summary, by name."""
    counts = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 5 and fields[-1] != "total" and fields[3].isdigit():
                counts[fields[-1]] = int(fields[3])
    return counts


def measure_web(args, workdir):
    """gestured-web's fan-out (webbench.py): 100 pages' event streams while the daemon
    replays ten fingers circling at 240 Hz under one rotation gesture, at the recorded pace
    (a `changed` line per frame: about 230 events/s from the daemon)."""
    if not os.access(args.bridge, os.X_OK):
        raise Pending(f"{args.bridge} is not built")
    recording, _, _ = ten_fingers(args, workdir, WEB_SECONDS, "web")
    try:
        r = webbench.fanout(args.daemon, args.bridge, recording, WEB_PAGES, 1,
                            '[screen]\nwidth = 800\nheight = 480\n\n[gesture.turn]\ntype = "rotation"\n')
    except RuntimeError as why:
        raise Pending(str(why))
    complete = r["per_page_min"] == r["per_page_max"] == r["events"]
    what = f"{WEB_PAGES} pages, {r['events']} events"
    return [
        row(f"web bridge: events per second to {WEB_PAGES} pages (ten fingers turning, a line per 240 Hz frame)", r["events_per_second"], "events/s",
            "every page gets every event", "pass" if complete else "miss",
            None if complete else f"pages got {r['per_page_min']} to {r['per_page_max']} of {r['events']}"),
        row("web bridge: daemon's line -> page, p50", r["latency_ms"]["p50"], "ms", "-", "info", what),
        row("web bridge: daemon's line -> page, p99", r["latency_ms"]["p99"], "ms", "-", "info", what),
        row(f"web bridge: resident with {WEB_PAGES} streams", r["bridge_rss_kib"] / 1024, "MiB", "-", "info"),
    ]


def measure_pipeline_memory(args):
    """Resident size of the pipeline alone after a warm-up and after 10 million more frames (BenchProfile)."""
    out = subprocess.run([os.path.join(args.tools, "BenchProfile"), "generated-10c_32g-8v", "10000000"],
                         check=True, capture_output=True, text=True).stdout
    values = dict(part.split("=") for part in out.split() if "=" in part)
    before, after = int(values["rss_before_kib"]) / 1024, int(values["rss_after_kib"]) / 1024
    return [row(f"pipeline alone (BenchProfile), resident after 10 M frames ({before:.2f} MiB after warm-up)", after,
                "MiB", "flat (< 0.5 MiB growth)", "pass" if after - before < 0.5 else "miss")]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--daemon", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--tools", required=True, help="folder with BenchRecordings and BenchProfile")
    parser.add_argument("--out", help="the measurements' JSON (not with --instructions)")
    parser.add_argument("--instructions", action="store_true",
                        help="only count instructions and system calls per frame of the ten-finger stream and print them")
    parser.add_argument("--keep-profiles", metavar="DIR", help="with --instructions: keep the callgrind profiles here")
    parser.add_argument("--bridge", help="gestured-web (default: beside --daemon)")
    parser.add_argument("--only", metavar="ROW", help="only this group of rows (e.g. 'web bridge'), to try one alone")
    args = parser.parse_args()
    if not args.instructions and not args.out:
        parser.error("--out is required")
    args.daemon = os.path.abspath(args.daemon)
    args.config = os.path.abspath(args.config)
    args.bridge = os.path.abspath(args.bridge or os.path.join(os.path.dirname(args.daemon), "gestured-web"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="gestured-bench-") as workdir:
        args.stamp = os.path.join(workdir, "stamp")
        args.subscriber = os.path.join(workdir, "subscriber")
        args.floor = os.path.join(workdir, "floor")
        args.pace = os.path.join(workdir, "pace")
        for tool in ("stamp", "subscriber", "floor", "pace"):
            subprocess.run(["cc", "-O2", "-o", os.path.join(workdir, tool), os.path.join(HERE, tool + ".c")], check=True)
        if args.instructions:
            return count_per_frame(args, workdir)
        if not args.only:
            rows += measure_pipeline_memory(args)
            rows += measure_floor(args)
        for name, step in (("start-up and memory", lambda: measure_startup(args, workdir)),
                           ("end-to-end latency", lambda: measure_latency(args, workdir)),
                           ("CPU and idle cost", lambda: measure_stream_and_idle(args, workdir)),
                           ("web bridge", lambda: measure_web(args, workdir))):
            if args.only and name != args.only:
                continue
            if not os.access(args.daemon, os.X_OK):
                rows.append(row(name, None, "", "-", "pending", f"{args.daemon} is not built"))
                continue
            try:
                rows += step()
            except Pending as why:
                rows.append(row(name, None, "", "-", "pending", str(why)))
            print(f"daemon-bench: {name} done", file=sys.stderr)
    with open(args.out, "w") as f:
        json.dump({"rows": rows}, f, indent=2)
    for r in rows:
        print(f"  {r['measure']}: {r['value']} {r['unit']} ({r['status']}{': ' + r['note'] if 'note' in r else ''})")


if __name__ == "__main__":
    main()
